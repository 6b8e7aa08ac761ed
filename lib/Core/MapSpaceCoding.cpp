//===- MapSpaceCoding.cpp - Points of the map space and mappings ----------===//
//
// A point (one value per parameter) decoded into a mapping and a mapping
// encoded back; sampling, enumerating and fitting points into the fanouts.
// MapSpace.cpp builds the parameters these read.
//
//===----------------------------------------------------------------------===//

#include "MapSpaceTables.h"

#include "marlmap/Core/MapSpace.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace marlmap {

using namespace mapspace;

namespace {

template <typename T>
void copyInto(const std::vector<T> &from, std::vector<T> &to) {
  if (to.size() != from.size()) {
    to = from;
    return;
  }
  for (size_t i = 0; i < from.size(); ++i)
    to[i] = from[i];
}

/// `to` = `from`, element by element when the shapes agree: decode
/// overwrites the same mapping for every sample, and its vectors are short.
void resetTo(const Mapping &from, Mapping &to) {
  if (to.levels.size() != from.levels.size()) {
    to = from;
    return;
  }
  for (size_t l = 0; l < from.levels.size(); ++l) {
    const LevelMapping &source = from.levels[l];
    LevelMapping &target = to.levels[l];
    copyInto(source.temporal, target.temporal);
    copyInto(source.order, target.order);
    copyInto(source.spatialX, target.spatialX);
    copyInto(source.spatialY, target.spatialY);
    target.keep = source.keep;
  }
}

} // namespace

void MapSpace::decodeSplit(const Split &split, int64_t index,
                           unsigned *counts) const {
  unsigned remaining = split.free;
  const unsigned bins = split.slots.size();
  for (unsigned j = 0; j + 1 < bins; ++j) {
    // The rest, index 0, puts every copy left in the last slot.
    if (index == 0) {
      std::fill(counts + j, counts + bins - 1, 0u);
      break;
    }
    const unsigned later = bins - 1 - j;
    unsigned c = 0;
    for (;; ++c) {
      const int64_t rest = compositionsOf(remaining - c, later);
      if (index < rest)
        break;
      index -= rest;
    }
    counts[j] = c;
    remaining -= c;
  }
  counts[bins - 1] = remaining;
}

void MapSpace::splitCounts(const Split &split, int64_t index,
                           unsigned *counts) const {
  if (split.slotCopies.empty()) {
    decodeSplit(split, index, counts);
    return;
  }
  const size_t bins = split.slots.size();
  std::copy_n(&split.slotCopies[size_t(index) * bins], bins, counts);
}

unsigned MapSpace::kindOf(Slot slot, unsigned dim,
                          const int64_t *values) const {
  if (slot.kind != 3)
    return slot.kind;
  return values[axisParam[slot.level * problemValue.dims.size() + dim]] == 0
             ? 1
             : 2;
}

int64_t &MapSpace::factorAt(Mapping &mapping, Slot slot, unsigned dim,
                            const int64_t *values) const {
  LevelMapping &level = mapping.levels[slot.level];
  const unsigned kind = kindOf(slot, dim, values);
  std::vector<int64_t> &factors = kind == 0   ? level.temporal
                                  : kind == 1 ? level.spatialX
                                              : level.spatialY;
  return factors[dim];
}

void MapSpace::tabulateSplit(Split &split) const {
  // Up to 2^14 values: a few hundred kilobytes for the largest spaces.
  constexpr int64_t kMaxTabulated = int64_t(1) << 14;
  const unsigned bins = split.slots.size();
  const int64_t values = compositions(split.free, bins);
  split.powers.assign(split.free + 1, 1);
  for (unsigned k = 1; k <= split.free; ++k)
    split.powers[k] = saturatingMul(split.powers[k - 1], split.prime);
  split.slotCopies.clear();
  if (values > kMaxTabulated || split.free > UINT8_MAX)
    return;
  split.slotCopies.resize(size_t(values) * bins);
  unsigned counts[3 * CostModel::kMaxLevels];
  for (int64_t value = 0; value < values; ++value) {
    decodeSplit(split, value, counts);
    std::copy(counts, counts + bins, &split.slotCopies[size_t(value) * bins]);
  }
}

void MapSpace::decode(const int64_t *values, Mapping &mapping) const {
  resetTo(base, mapping);
  unsigned counts[3 * CostModel::kMaxLevels];
  for (unsigned i = 0; i < params.size(); ++i) {
    int64_t value = values[i];
    switch (params[i].kind) {
    case Parameter::Kind::Factor: {
      const Split &split = splits[paramSplit[i]];
      const unsigned bins = split.slots.size();
      const uint8_t *tabulated = nullptr;
      if (!split.slotCopies.empty())
        tabulated = &split.slotCopies[size_t(value) * bins];
      else
        decodeSplit(split, value, counts);
      for (unsigned j = 0; j < bins; ++j) {
        const unsigned copies = tabulated ? tabulated[j] : counts[j];
        if (copies == 0) // most slots get no copy
          continue;
        factorAt(mapping, split.slots[j], split.dim, values) *=
            split.powers[copies];
      }
      break;
    }
    case Parameter::Kind::Order: {
      // Lehmer code: the value's factorial digits pick from what is left.
      std::vector<unsigned> &order = mapping.levels[paramLevel[i]].order;
      const std::vector<unsigned> &free = orderFree[paramLevel[i]];
      const unsigned n = free.size();
      const uint8_t *tabulated = lehmerPermutation(n, value);
      unsigned computed[CostModel::kMaxDims];
      if (!tabulated)
        lehmerDecode(n, value, computed);
      for (unsigned position = 0; position < n; ++position)
        order[position] =
            free[tabulated ? tabulated[position] : computed[position]];
      break;
    }
    case Parameter::Kind::Keep:
      mapping.levels[paramLevel[i]].keep[paramOperand[i]] = value == 1;
      break;
    case Parameter::Kind::LoopFactor: // a dim's at once, below
    case Parameter::Kind::Axis:
      break; // read by the factors placed on the chosen axis
    }
  }
  decodeLadders(values, mapping);
  // A factor above its largest allowed gives its smallest primes away.
  for (const Cap &cap : caps) {
    int64_t &factor = factorAt(mapping, cap.slot, cap.dim, values);
    while (factor > cap.most) {
      int64_t prime = smallestPrime(factor);
      factor /= prime;
      factorAt(mapping, cap.spill, cap.dim, values) *= prime;
    }
  }
}

Mapping MapSpace::decode(const std::vector<int64_t> &values) const {
  assert(values.size() >= params.size() && "a value per parameter");
  Mapping mapping;
  decode(values.data(), mapping);
  return mapping;
}

std::optional<std::vector<int64_t>>
MapSpace::encode(const Mapping &mapping) const {
  std::optional<std::vector<int64_t>> values = encodeNearest(mapping);
  // What the parameters cannot say (fixed choices, unavailable slots,
  // constraints) must already agree.
  if (!values || !(decode(*values) == mapping))
    return std::nullopt;
  return values;
}

std::optional<std::vector<int64_t>>
MapSpace::encodeNearest(const Mapping &mapping) const {
  const unsigned numDims = problemValue.dims.size();
  if (!isWellFormed(mapping, base.levels.size(), numDims,
                    problemValue.operands.size()))
    return std::nullopt;
  std::vector<int64_t> values(params.size(), 0);
  // Axes first: the factors on a chosen axis read them.
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == Parameter::Kind::Axis)
      values[i] =
          mapping.levels[paramLevel[i]].spatialY[paramOperand[i]] > 1 ? 1 : 0;
  for (unsigned i = 0; i < params.size(); ++i) {
    switch (params[i].kind) {
    case Parameter::Kind::Factor: {
      const Split &split = splits[paramSplit[i]];
      const unsigned bins = split.slots.size();
      unsigned counts[3 * CostModel::kMaxLevels];
      unsigned placed = 0, outermost = 0;
      for (unsigned j = 0; j < bins; ++j) {
        const Slot &slot = split.slots[j];
        auto power = [&](const LevelMapping &l) {
          const unsigned d = split.dim;
          const unsigned x = valuation(l.spatialX[d], split.prime),
                         y = valuation(l.spatialY[d], split.prime);
          return slot.kind == 0   ? valuation(l.temporal[d], split.prime)
                 : slot.kind == 1 ? x
                 : slot.kind == 2 ? y
                                  : x + y;
        };
        const unsigned have = power(mapping.levels[slot.level]),
                       given = power(base.levels[slot.level]);
        counts[j] = have > given ? have - given : 0;
        placed += counts[j];
        const Slot &best = split.slots[outermost];
        if (std::make_pair(slot.kind == 0, slot.level) >
            std::make_pair(best.kind == 0, best.level))
          outermost = j;
      }
      for (; placed > split.free; --placed)
        --*std::max_element(counts, counts + bins);
      counts[outermost] += split.free - placed;
      values[i] = rankSplit(i, counts);
      break;
    }
    case Parameter::Kind::Order: {
      // The free loops as `mapping` orders them, as a Lehmer code.
      const std::vector<unsigned> &order = mapping.levels[paramLevel[i]].order;
      std::vector<unsigned> free = orderFree[paramLevel[i]];
      std::vector<unsigned> position(numDims, 0);
      for (unsigned k = 0; k < numDims; ++k)
        position[order[k]] = k;
      std::vector<unsigned> wanted = free;
      std::stable_sort(
          wanted.begin(), wanted.end(),
          [&](unsigned a, unsigned b) { return position[a] < position[b]; });
      const unsigned n = free.size();
      int64_t rank = 0;
      for (unsigned k = 0; k < n; ++k) {
        auto it = std::find(free.begin(), free.end(), wanted[k]);
        rank += int64_t(it - free.begin()) * factorial(n - 1 - k);
        free.erase(it);
      }
      values[i] = rank;
      break;
    }
    case Parameter::Kind::Keep:
      values[i] = mapping.levels[paramLevel[i]].keep[paramOperand[i]] ? 1 : 0;
      break;
    case Parameter::Kind::LoopFactor: // a dim's at once, below
    case Parameter::Kind::Axis:
      break;
    }
  }
  encodeLadders(mapping, values.data());
  return values;
}

std::optional<MapSpace::SplitShape>
MapSpace::splitShape(unsigned parameter) const {
  if (params[parameter].kind != Parameter::Kind::Factor)
    return std::nullopt;
  const Split &split = splits[paramSplit[parameter]];
  return SplitShape{split.free, unsigned(split.slots.size()), split.dim,
                    split.prime};
}

int64_t MapSpace::rankSplit(unsigned parameter, const unsigned *counts) const {
  const Split &split = splits[paramSplit[parameter]];
  unsigned remaining = split.free, bins = split.slots.size();
  int64_t index = 0;
  for (unsigned j = 0; j + 1 < bins; ++j) {
    const unsigned later = bins - 1 - j;
    for (unsigned c = 0; c < counts[j]; ++c)
      index += compositionsOf(remaining - c, later);
    remaining -= counts[j];
  }
  return index;
}

void MapSpace::unrankSplit(unsigned parameter, int64_t value,
                           unsigned *counts) const {
  splitCounts(splits[paramSplit[parameter]], value, counts);
}

bool MapSpace::fitSpread(int64_t *values) const {
  if (factors != FactorSpace::Perfect)
    return fitLadders(values);
  const unsigned numLevels = archValue.levels.size();
  unsigned counts[3 * CostModel::kMaxLevels];
  // The axis (1: X, 2: Y) a spatial slot of `split` puts its copies on.
  auto axisOf = [&](const Split &split, const Slot &slot) {
    return kindOf(slot, split.dim, values);
  };
  auto measure = [&](int64_t(*spread)[2]) {
    for (unsigned l = 0; l < numLevels; ++l)
      for (unsigned a = 0; a < 2; ++a)
        spread[l][a] = fixedSpreads[l][a];
    for (const Split &split : splits) {
      if (split.spatial.empty())
        continue;
      splitCounts(split, values[split.parameter], counts);
      for (unsigned j : split.spatial)
        for (unsigned c = 0; c < counts[j]; ++c) {
          int64_t &along =
              spread[split.slots[j].level][axisOf(split, split.slots[j]) - 1];
          along = saturatingMul(along, split.prime);
        }
    }
  };
  // The smallest prime on the axis with a temporal loop to go to (the
  // level's own, else the outermost); among equals, the latest parameter's.
  auto shrink = [&](unsigned l, unsigned axis, int64_t, int64_t) {
    const Split *from = nullptr;
    unsigned fromSlot = 0, toSlot = 0;
    for (const Split &split : splits) {
      if (from && from->prime < split.prime)
        continue;
      int spatialSlot = -1, temporal = -1;
      for (unsigned j = 0; j < split.slots.size(); ++j) {
        const Slot &slot = split.slots[j];
        if (slot.kind == 0 && (temporal < 0 || slot.level == l ||
                               (split.slots[temporal].level != l &&
                                slot.level > split.slots[temporal].level)))
          temporal = int(j);
        else if (slot.kind != 0 && slot.level == l &&
                 axisOf(split, slot) == axis)
          spatialSlot = int(j);
      }
      if (spatialSlot < 0 || temporal < 0)
        continue;
      splitCounts(split, values[split.parameter], counts);
      if (counts[spatialSlot] == 0)
        continue;
      from = &split;
      fromSlot = unsigned(spatialSlot);
      toSlot = unsigned(temporal);
    }
    if (!from)
      return false;
    splitCounts(*from, values[from->parameter], counts);
    --counts[fromSlot];
    ++counts[toSlot];
    values[from->parameter] = rankSplit(from->parameter, counts);
    return true;
  };
  return fitEveryAxis(archValue, measure, shrink);
}

void MapSpace::sample(Rng &rng, int64_t *values) const {
  for (unsigned i = 0; i < params.size(); ++i)
    values[i] = rng.below(params[i].choices);
}

bool MapSpace::enumerate(
    int64_t limit,
    const std::function<bool(const std::vector<int64_t> &)> &visit) const {
  int64_t size = 1;
  for (const Parameter &param : params)
    size = saturatingMul(size, param.choices);
  if (size > limit)
    return false;
  std::vector<int64_t> values(params.size(), 0);
  for (int64_t point = 0; point < size; ++point) {
    if (!visit(values))
      break;
    for (unsigned i = params.size(); i-- > 0;) {
      if (++values[i] < params[i].choices)
        break;
      values[i] = 0;
    }
  }
  return true;
}

} // namespace marlmap
