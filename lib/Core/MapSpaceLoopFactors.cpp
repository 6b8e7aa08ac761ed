//===- MapSpaceLoopFactors.cpp - The factors of the imperfect spaces ------===//
//
// In the spaces whose tiles need not divide their loop (FactorSpace other
// than Perfect), each free slot of a dim but one takes a LoopFactor
// parameter: a candidate factor, walked from the innermost slot out. A slot
// takes at most the tiles that are left to cover (ceil(bound / the tile
// inside it)), so no loop has an iteration that never runs; the spatial-
// imperfect space gives its temporal slots the largest divisor of what is
// left, so only spatial loops leave partial tiles. The outermost uncapped
// temporal slot (the absorber) takes whatever still covers the bound.
//
//===----------------------------------------------------------------------===//

#include "MapSpaceTables.h"

#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Core/MapSpace.h"

#include <algorithm>
#include <cmath>

namespace marlmap {

using namespace mapspace;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Every integer up to `limit` when there are few (spatial loops, up to
/// the fanout); otherwise 1 to 4 and every divisor of `bound`. The divisors
/// keep every perfect mapping in the space; more non-divisors (every
/// integer to 16 and four per octave above were tried) made the space
/// harder to search at equal samples than they bought (docs/MapSpace.md).
std::vector<int64_t> candidateFactors(int64_t bound, int64_t limit,
                                      bool allIntegers) {
  std::vector<int64_t> out;
  if (allIntegers && limit <= kMaxDenseFactors) {
    for (int64_t f = 1; f <= limit; ++f)
      out.push_back(f);
    return out;
  }
  for (int64_t f = 1; f <= std::min<int64_t>(limit, 4); ++f)
    out.push_back(f);
  for (int64_t d = 1; d * d <= bound; ++d)
    if (bound % d == 0)
      for (int64_t divisor : {d, bound / d})
        if (divisor <= limit)
          out.push_back(divisor);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace

const char *factorSpaceName(FactorSpace space) {
  switch (space) {
  case FactorSpace::Perfect:
    return "perfect";
  case FactorSpace::SpatialImperfect:
    return "spatial-imperfect";
  case FactorSpace::Imperfect:
    return "imperfect";
  }
  return "";
}

std::optional<FactorSpace> parseFactorSpace(std::string_view name) {
  for (FactorSpace space : kFactorSpaces)
    if (name == factorSpaceName(space))
      return space;
  return std::nullopt;
}

llvm::Error MapSpace::addLadder(unsigned d, const std::vector<Slot> &slots,
                                const std::vector<Cap> &dimCaps) {
  const LoopDim &loop = problemValue.dims[d];
  auto capOf = [&](const Slot &slot) -> int64_t {
    int64_t most = kSaturated;
    for (const Cap &cap : dimCaps)
      if (cap.slot.level == slot.level &&
          (cap.slot.kind == slot.kind ||
           (slot.kind == 3 && cap.slot.kind != 0)))
        most = std::min(most, cap.most);
    return most;
  };
  // The absorber: the outermost uncapped temporal slot, else the outermost
  // uncapped one.
  int absorber = -1;
  for (unsigned pass = 0; pass < 2 && absorber < 0; ++pass)
    for (unsigned j = slots.size(); j-- > 0 && absorber < 0;)
      if ((pass == 1 || slots[j].kind == 0) && capOf(slots[j]) == kSaturated)
        absorber = int(j);
  if (absorber < 0)
    return makeError(
        "loop " + loop.name +
        ": every level that may take its factors limits them; one must "
        "leave them free");
  Ladder ladder;
  ladder.dim = d;
  ladder.absorber = slots[absorber];
  // From the innermost out: per level its spatial slots (inside its
  // temporal loop in the nest), then its temporal slot.
  static const char *kindNames[] = {"", " x", " y", " spatial"};
  for (unsigned l = 0; l < archValue.levels.size(); ++l)
    for (unsigned kind : {1u, 2u, 3u, 0u})
      for (unsigned j = 0; j < slots.size(); ++j) {
        const Slot &slot = slots[j];
        if (slot.level != l || slot.kind != kind || int(j) == absorber)
          continue;
        const int64_t fanout =
            kind == 1   ? archValue.fanoutX(l)
            : kind == 2 ? archValue.fanoutY(l)
            : kind == 3 ? std::max(archValue.fanoutX(l), archValue.fanoutY(l))
                        : kSaturated;
        const int64_t limit = std::min({loop.bound, capOf(slot), fanout});
        Rung rung;
        rung.slot = slot;
        rung.parameter = unsigned(params.size());
        rung.candidates = candidateFactors(loop.bound, limit, kind != 0);
        rung.divides = kind == 0 && factors == FactorSpace::SpatialImperfect;
        params.push_back({Parameter::Kind::LoopFactor,
                          loop.name + kindNames[kind] + " factor@" +
                              archValue.levels[l].name,
                          int64_t(rung.candidates.size())});
        paramSplit.push_back(int(ladders.size()));
        paramLevel.push_back(int(l));
        paramOperand.push_back(int(d));
        ladder.rungs.push_back(std::move(rung));
      }
  ladders.push_back(std::move(ladder));
  return llvm::Error::success();
}

int64_t MapSpace::Rung::factorFor(int64_t value, int64_t left) const {
  if (!divides)
    return std::min(candidates[value], left);
  // The largest candidate up to the chosen one that divides what is left.
  for (int64_t i = value; i > 0; --i)
    if (left % candidates[i] == 0)
      return candidates[i];
  return 1;
}

void MapSpace::ladderFactors(const Ladder &ladder, const int64_t *values,
                             int64_t *factors) const {
  const int64_t bound = problemValue.dims[ladder.dim].bound;
  // Walk the dim's loops from the innermost out: fixed factors and rungs
  // make the tile inside the next rung; fixed factors outside it count
  // against what it may take.
  int64_t fixedAll = factorProduct(base, ladder.dim);
  int64_t inside = 1, fixedInside = 1, all = fixedAll;
  unsigned next = 0;
  for (unsigned l = 0; l < base.levels.size(); ++l) {
    const LevelMapping &level = base.levels[l];
    for (unsigned kind : {1u, 0u}) { // spatial, then temporal
      const int64_t fixed =
          kind == 0 ? level.temporal[ladder.dim]
                    : level.spatialX[ladder.dim] * level.spatialY[ladder.dim];
      inside *= fixed;
      fixedInside *= fixed;
      for (; next < ladder.rungs.size() && ladder.rungs[next].slot.level == l &&
             (ladder.rungs[next].slot.kind == 0) == (kind == 0);
           ++next) {
        const Rung &rung = ladder.rungs[next];
        const int64_t left = ceilDiv(bound, inside * (fixedAll / fixedInside));
        factors[next] = rung.factorFor(values[rung.parameter], left);
        inside *= factors[next];
        all *= factors[next];
      }
    }
  }
  factors[ladder.rungs.size()] = ceilDiv(bound, all); // the absorber
}

void MapSpace::decodeLadders(const int64_t *values, Mapping &mapping) const {
  int64_t factors[3 * CostModel::kMaxLevels + 1];
  for (const Ladder &ladder : ladders) {
    ladderFactors(ladder, values, factors);
    for (unsigned r = 0; r < ladder.rungs.size(); ++r)
      factorAt(mapping, ladder.rungs[r].slot, ladder.dim, values) *= factors[r];
    factorAt(mapping, ladder.absorber, ladder.dim, values) *=
        factors[ladder.rungs.size()];
  }
}

void MapSpace::encodeLadders(const Mapping &mapping, int64_t *values) const {
  int64_t factors[3 * CostModel::kMaxLevels + 1];
  for (const Ladder &ladder : ladders) {
    const int64_t bound = problemValue.dims[ladder.dim].bound;
    for (unsigned r = 0; r < ladder.rungs.size(); ++r) {
      const Rung &rung = ladder.rungs[r];
      const LevelMapping &level = mapping.levels[rung.slot.level];
      const unsigned kind = kindOf(rung.slot, ladder.dim, values);
      const int64_t have = kind == 0   ? level.temporal[ladder.dim]
                           : kind == 1 ? level.spatialX[ladder.dim]
                                       : level.spatialY[ladder.dim];
      // The candidate nearest `have` by ratio; what is left to cover is
      // the decoder's business (the rungs inside are already set).
      int64_t best = 0;
      double bestDistance = INFINITY;
      for (size_t i = 0; i < rung.candidates.size(); ++i) {
        const double distance = std::abs(std::log(
            double(rung.candidates[i]) / double(std::min(have, bound))));
        if (distance < bestDistance) {
          bestDistance = distance;
          best = int64_t(i);
        }
      }
      values[rung.parameter] = best;
      // A factor that took everything left decodes from any candidate as
      // large: keep the smallest such so that the walk above agrees.
      ladderFactors(ladder, values, factors);
      if (factors[r] < have)
        for (size_t i = best; i < rung.candidates.size(); ++i) {
          values[rung.parameter] = int64_t(i);
          ladderFactors(ladder, values, factors);
          if (factors[r] >= have)
            break;
        }
    }
  }
}

bool MapSpace::fitLadders(int64_t *values) const {
  const unsigned numLevels = archValue.levels.size();
  int64_t factors[3 * CostModel::kMaxLevels + 1];
  auto axisOf = [&](const Ladder &ladder, const Slot &slot) {
    return kindOf(slot, ladder.dim, values);
  };
  auto measure = [&](int64_t(*spread)[2]) {
    for (unsigned l = 0; l < numLevels; ++l)
      for (unsigned a = 0; a < 2; ++a)
        spread[l][a] = fixedSpreads[l][a];
    for (const Ladder &ladder : ladders) {
      ladderFactors(ladder, values, factors);
      for (unsigned r = 0; r <= ladder.rungs.size(); ++r) {
        const Slot &slot =
            r < ladder.rungs.size() ? ladder.rungs[r].slot : ladder.absorber;
        if (slot.kind != 0)
          spread[slot.level][axisOf(ladder, slot) - 1] = saturatingMul(
              spread[slot.level][axisOf(ladder, slot) - 1], factors[r]);
      }
    }
  };
  // The largest factor spread along the axis at the level (the latest
  // parameter's among equals) shrinks to what fits; the loops outside it
  // take the rest.
  auto shrink = [&](unsigned l, unsigned axis, int64_t fanout, int64_t spread) {
    const Rung *widest = nullptr;
    int64_t widestFactor = 1;
    for (const Ladder &ladder : ladders) {
      ladderFactors(ladder, values, factors);
      for (unsigned r = 0; r < ladder.rungs.size(); ++r) {
        const Rung &rung = ladder.rungs[r];
        if (rung.slot.level == l && rung.slot.kind != 0 &&
            axisOf(ladder, rung.slot) == axis && factors[r] >= widestFactor &&
            factors[r] > 1) {
          widest = &rung;
          widestFactor = factors[r];
        }
      }
    }
    if (!widest)
      return false;
    const int64_t fits = std::max<int64_t>(1, widestFactor * fanout / spread);
    // Its candidate is at least its factor, which is above what fits.
    int64_t &value = values[widest->parameter];
    while (value > 0 && widest->candidates[value] > fits)
      --value;
    return true;
  };
  return fitEveryAxis(archValue, measure, shrink);
}

} // namespace marlmap
