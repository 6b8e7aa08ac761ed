//===- MapSpace.cpp - Mappings as discrete decision parameters ------------===//

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Arithmetic.h"

#include <array>
#include <cmath>

namespace marlmap {

namespace {

constexpr unsigned kMaxBinomial = 160;
/// Bounds are factored by trial division: up to 2^40 takes milliseconds.
constexpr int64_t kMaxBound = int64_t(1) << 40;
constexpr int64_t kMaxChoices = int64_t(1) << 62;

/// Binomial coefficients, saturating at kSaturated.
const std::vector<std::vector<int64_t>> &binomials() {
  static const std::vector<std::vector<int64_t>> table = [] {
    std::vector<std::vector<int64_t>> t(kMaxBinomial,
                                        std::vector<int64_t>(kMaxBinomial, 0));
    for (unsigned n = 0; n < kMaxBinomial; ++n) {
      t[n][0] = 1;
      for (unsigned k = 1; k <= n; ++k)
        t[n][k] = saturatingAdd(t[n - 1][k - 1], t[n - 1][k]);
    }
    return t;
  }();
  return table;
}

/// Prime factors of n with their exponents, smallest first.
std::vector<std::pair<int64_t, unsigned>> factorize(int64_t n) {
  std::vector<std::pair<int64_t, unsigned>> primes;
  for (int64_t p = 2; p <= n / p; ++p) {
    unsigned exponent = 0;
    while (n % p == 0) {
      n /= p;
      ++exponent;
    }
    if (exponent)
      primes.push_back({p, exponent});
  }
  if (n > 1)
    primes.push_back({n, 1});
  return primes;
}

/// The exponent of `prime` in `n`.
unsigned valuation(int64_t n, int64_t prime) {
  unsigned exponent = 0;
  while (n % prime == 0) {
    n /= prime;
    ++exponent;
  }
  return exponent;
}

/// n!, saturating; from a table, since decode and encode ask per digit.
int64_t factorial(unsigned n) {
  static const std::array<int64_t, 21> table = [] {
    std::array<int64_t, 21> f{};
    f[0] = 1;
    for (unsigned i = 1; i < f.size(); ++i)
      f[i] = f[i - 1] * int64_t(i); // 20! still fits in int64_t
    return f;
  }();
  return n < table.size() ? table[n] : kSaturated;
}

} // namespace

MapSpace::MapSpace(Problem problem, Arch arch)
    : problemValue(std::move(problem)), archValue(std::move(arch)),
      costModel(problemValue, archValue) {}

std::unique_ptr<MapSpace> MapSpace::create(Problem problem, Arch arch,
                                           const Constraints &constraints,
                                           std::string &error) {
  std::unique_ptr<MapSpace> space(
      new MapSpace(std::move(problem), std::move(arch)));
  error = space->build(constraints);
  if (!error.empty())
    return nullptr;
  return space;
}

int64_t MapSpace::compositions(unsigned items, unsigned bins) const {
  if (bins == 0)
    return items == 0 ? 1 : 0;
  unsigned n = items + bins - 1;
  if (n >= kMaxBinomial)
    return kSaturated;
  return binomials()[n][bins - 1];
}

std::string MapSpace::build(const Constraints &constraints) {
  const Problem &problem = problemValue;
  const Arch &arch = archValue;
  const unsigned numDims = problem.dims.size(), numLevels = arch.levels.size(),
                 numOperands = problem.operands.size();
  if (numDims > CostModel::kMaxDims || numLevels > CostModel::kMaxLevels ||
      numOperands > CostModel::kMaxOperands)
    return "the problem or the architecture is too large for the cost model";
  for (const Operand &operand : problem.operands)
    if (operand.projection.size() > CostModel::kMaxAxes)
      return "operand '" + operand.name + "' has " +
             std::to_string(operand.projection.size()) +
             " axes; the cost model takes at most " +
             std::to_string(CostModel::kMaxAxes);
  for (const LoopDim &dim : problem.dims)
    if (dim.bound > kMaxBound)
      return "loop " + dim.name + " has bound " + std::to_string(dim.bound) +
             "; the map space factors bounds up to " +
             std::to_string(kMaxBound);
  if (constraints.levels.size() > numLevels)
    return "constraints name " + std::to_string(constraints.levels.size()) +
           " levels but the architecture has " + std::to_string(numLevels);
  auto constraintsOf = [&](unsigned level) -> const LevelConstraints * {
    return level < constraints.levels.size() ? &constraints.levels[level]
                                             : nullptr;
  };
  auto allowed = [](const std::optional<std::vector<unsigned>> &dims,
                    unsigned dim) {
    return !dims || std::find(dims->begin(), dims->end(), dim) != dims->end();
  };

  // The base mapping: fixed choices in place, everything free at 1.
  base.levels.clear();
  for (unsigned l = 0; l < numLevels; ++l) {
    LevelMapping level = LevelMapping::identity(numDims, numOperands);
    if (const LevelConstraints *c = constraintsOf(l)) {
      for (auto [fixed, factors] : {std::pair{&c->temporal, &level.temporal},
                                    {&c->spatialX, &level.spatialX},
                                    {&c->spatialY, &level.spatialY}})
        for (auto [dim, factor] : *fixed) {
          if (dim >= numDims || factor < 1)
            return "level '" + arch.levels[l].name +
                   "': a fixed factor names loop #" + std::to_string(dim) +
                   " or is not positive";
          (*factors)[dim] = factor;
        }
      if (c->order) {
        std::vector<bool> seen(numDims, false);
        for (unsigned dim : *c->order)
          if (dim >= numDims || seen[dim]) {
            return "level '" + arch.levels[l].name +
                   "': the fixed loop order is not a permutation";
          } else {
            seen[dim] = true;
          }
        if (c->order->size() != numDims)
          return "level '" + arch.levels[l].name +
                 "': the fixed loop order is not a permutation";
        level.order = *c->order;
      }
    }
    base.levels.push_back(std::move(level));
  }

  params.clear();
  splits.clear();
  paramSplit.clear();
  paramLevel.clear();
  paramOperand.clear();
  auto addParam = [&](Parameter param, int split, int level, int operand) {
    params.push_back(std::move(param));
    paramSplit.push_back(split);
    paramLevel.push_back(level);
    paramOperand.push_back(operand);
  };

  // Factors: per dim and prime, the copies no fixed factor took.
  for (unsigned d = 0; d < numDims; ++d) {
    int64_t bound = problem.dims[d].bound;
    int64_t fixedProduct = 1;
    for (unsigned l = 0; l < numLevels; ++l)
      fixedProduct = saturatingMul(
          fixedProduct,
          saturatingMul(base.levels[l].temporal[d],
                        saturatingMul(base.levels[l].spatialX[d],
                                      base.levels[l].spatialY[d])));
    if (bound % fixedProduct != 0)
      return "the fixed factors of loop " + problem.dims[d].name +
             " multiply to " + std::to_string(fixedProduct) +
             ", which does not divide its bound " + std::to_string(bound);
    for (auto [prime, exponent] : factorize(bound)) {
      Split split{d, prime, 0, {}};
      unsigned taken = 0;
      for (unsigned l = 0; l < numLevels; ++l) {
        const LevelConstraints *c = constraintsOf(l);
        auto fixedAt =
            [&](const std::map<unsigned, int64_t> LevelConstraints::*field) {
              return c && (c->*field).count(d);
            };
        const LevelMapping &level = base.levels[l];
        taken += valuation(level.temporal[d], prime) +
                 valuation(level.spatialX[d], prime) +
                 valuation(level.spatialY[d], prime);
        if (!fixedAt(&LevelConstraints::temporal))
          split.slots.push_back({l, 0});
        if (arch.fanoutX(l) > 1 && !fixedAt(&LevelConstraints::spatialX) &&
            allowed(c ? c->spatialXDims : std::nullopt, d))
          split.slots.push_back({l, 1});
        if (arch.fanoutY(l) > 1 && !fixedAt(&LevelConstraints::spatialY) &&
            allowed(c ? c->spatialYDims : std::nullopt, d))
          split.slots.push_back({l, 2});
      }
      split.free = exponent - taken;
      if (split.free == 0)
        continue;
      if (split.slots.empty())
        return "loop " + problem.dims[d].name + " has factors of " +
               std::to_string(prime) + " left but no level may take them";
      int64_t choices = compositions(split.free, split.slots.size());
      if (choices > kMaxChoices)
        return "loop " + problem.dims[d].name +
               " has too many ways to split its factors to index";
      std::string name = problem.dims[d].name + "^" + std::to_string(prime);
      splits.push_back(std::move(split));
      addParam({Parameter::Kind::Factor, name + " split", choices},
               int(splits.size() - 1), -1, -1);
    }
  }

  // Loop orders of levels that have no fixed one.
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelConstraints *c = constraintsOf(l);
    if ((c && c->order) || numDims < 2)
      continue;
    addParam({Parameter::Kind::Order, "order@" + arch.levels[l].name,
              factorial(numDims)},
             -1, int(l), -1);
  }

  // Keep or bypass, where the level may hold the operand's role.
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelConstraints *c = constraintsOf(l);
    bool outermost = l + 1 == numLevels;
    for (unsigned o = 0; o < numOperands; ++o) {
      const Operand &operand = problem.operands[o];
      bool moves = operand.access != Access::None;
      bool mayHold = arch.levels[l].holds.contains(operand.role);
      auto fixed =
          c ? c->keep.find(o) : std::map<unsigned, bool>::const_iterator();
      bool isFixed = c && fixed != c->keep.end();
      if (isFixed && fixed->second && !mayHold)
        return "level '" + arch.levels[l].name + "' cannot keep " +
               operand.name + ": it holds only " + arch.levels[l].holds.str();
      if (isFixed && !fixed->second && outermost && moves)
        return "the outermost level must keep " + operand.name;
      if (!moves || !mayHold) {
        base.levels[l].keep[o] = false;
      } else if (outermost) {
        base.levels[l].keep[o] = true;
      } else if (isFixed) {
        base.levels[l].keep[o] = fixed->second;
      } else {
        addParam({Parameter::Kind::Keep,
                  "keep " + operand.name + "@" + arch.levels[l].name, 2},
                 -1, int(l), int(o));
      }
    }
  }
  return "";
}

double MapSpace::log10Size() const {
  double size = 0.0;
  for (const Parameter &param : params)
    size += std::log10(double(param.choices));
  return size;
}

void MapSpace::decodeSplit(const Split &split, int64_t index,
                           unsigned *counts) const {
  unsigned remaining = split.free;
  unsigned bins = split.slots.size();
  for (unsigned j = 0; j + 1 < bins; ++j) {
    unsigned c = 0;
    for (;; ++c) {
      int64_t rest = compositions(remaining - c, bins - 1 - j);
      if (index < rest)
        break;
      index -= rest;
    }
    counts[j] = c;
    remaining -= c;
  }
  counts[bins - 1] = remaining;
}

void MapSpace::decode(const int64_t *values, Mapping &mapping) const {
  mapping = base;
  const unsigned numDims = problemValue.dims.size();
  unsigned counts[3 * CostModel::kMaxLevels];
  for (unsigned i = 0; i < params.size(); ++i) {
    int64_t value = values[i];
    switch (params[i].kind) {
    case Parameter::Kind::Factor: {
      const Split &split = splits[paramSplit[i]];
      decodeSplit(split, value, counts);
      for (unsigned j = 0; j < split.slots.size(); ++j) {
        LevelMapping &level = mapping.levels[split.slots[j].level];
        std::vector<int64_t> &factors =
            split.slots[j].kind == 0   ? level.temporal
            : split.slots[j].kind == 1 ? level.spatialX
                                       : level.spatialY;
        for (unsigned k = 0; k < counts[j]; ++k)
          factors[split.dim] *= split.prime;
      }
      break;
    }
    case Parameter::Kind::Order: {
      // Lehmer code: the value's factorial digits pick from what is left.
      std::vector<unsigned> &order = mapping.levels[paramLevel[i]].order;
      unsigned left[CostModel::kMaxDims];
      for (unsigned d = 0; d < numDims; ++d)
        left[d] = d;
      for (unsigned position = 0; position < numDims; ++position) {
        int64_t weight = factorial(numDims - 1 - position);
        unsigned pick = unsigned(value / weight);
        value %= weight;
        order[position] = left[pick];
        for (unsigned k = pick; k + 1 < numDims - position; ++k)
          left[k] = left[k + 1];
      }
      break;
    }
    case Parameter::Kind::Keep:
      mapping.levels[paramLevel[i]].keep[paramOperand[i]] = value == 1;
      break;
    }
  }
}

Mapping MapSpace::decode(const std::vector<int64_t> &values) const {
  Mapping mapping;
  decode(values.data(), mapping);
  return mapping;
}

std::optional<std::vector<int64_t>>
MapSpace::encode(const Mapping &mapping) const {
  const unsigned numDims = problemValue.dims.size();
  if (mapping.levels.size() != base.levels.size())
    return std::nullopt;
  for (const LevelMapping &level : mapping.levels)
    if (level.temporal.size() != numDims || level.order.size() != numDims ||
        level.spatialX.size() != numDims || level.spatialY.size() != numDims ||
        level.keep.size() != problemValue.operands.size())
      return std::nullopt;
  for (const LevelMapping &level : mapping.levels)
    for (unsigned d = 0; d < numDims; ++d)
      if (level.temporal[d] < 1 || level.spatialX[d] < 1 ||
          level.spatialY[d] < 1)
        return std::nullopt;
  std::vector<int64_t> values(params.size(), 0);
  for (unsigned i = 0; i < params.size(); ++i) {
    switch (params[i].kind) {
    case Parameter::Kind::Factor: {
      const Split &split = splits[paramSplit[i]];
      unsigned counts[3 * CostModel::kMaxLevels];
      unsigned placed = 0;
      for (unsigned j = 0; j < split.slots.size(); ++j) {
        const LevelMapping &level = mapping.levels[split.slots[j].level];
        const LevelMapping &fixed = base.levels[split.slots[j].level];
        const std::vector<int64_t> *factors = &level.temporal,
                                   *basis = &fixed.temporal;
        if (split.slots[j].kind == 1) {
          factors = &level.spatialX;
          basis = &fixed.spatialX;
        } else if (split.slots[j].kind == 2) {
          factors = &level.spatialY;
          basis = &fixed.spatialY;
        }
        unsigned have = valuation((*factors)[split.dim], split.prime);
        unsigned given = valuation((*basis)[split.dim], split.prime);
        if (have < given)
          return std::nullopt;
        counts[j] = have - given;
        placed += counts[j];
      }
      if (placed != split.free)
        return std::nullopt;
      int64_t index = rankSplit(i, counts);
      values[i] = index;
      break;
    }
    case Parameter::Kind::Order: {
      const std::vector<unsigned> &order = mapping.levels[paramLevel[i]].order;
      std::vector<bool> used(numDims, false);
      int64_t rank = 0;
      for (unsigned position = 0; position < numDims; ++position) {
        if (order[position] >= numDims || used[order[position]])
          return std::nullopt;
        unsigned smaller = 0;
        for (unsigned d = 0; d < order[position]; ++d)
          smaller += !used[d];
        rank += int64_t(smaller) * factorial(numDims - 1 - position);
        used[order[position]] = true;
      }
      values[i] = rank;
      break;
    }
    case Parameter::Kind::Keep:
      values[i] = mapping.levels[paramLevel[i]].keep[paramOperand[i]] ? 1 : 0;
      break;
    }
  }
  // What the parameters cannot say (fixed choices, unavailable slots) must
  // already agree.
  if (!(decode(values) == mapping))
    return std::nullopt;
  return values;
}

std::optional<MapSpace::SplitShape>
MapSpace::splitShape(unsigned parameter) const {
  if (params[parameter].kind != Parameter::Kind::Factor)
    return std::nullopt;
  const Split &split = splits[paramSplit[parameter]];
  return SplitShape{split.free, unsigned(split.slots.size())};
}

int64_t MapSpace::rankSplit(unsigned parameter, const unsigned *counts) const {
  const Split &split = splits[paramSplit[parameter]];
  unsigned remaining = split.free, bins = split.slots.size();
  int64_t index = 0;
  for (unsigned j = 0; j + 1 < bins; ++j) {
    for (unsigned c = 0; c < counts[j]; ++c)
      index += compositions(remaining - c, bins - 1 - j);
    remaining -= counts[j];
  }
  return index;
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

std::optional<std::string> MapSpace::whyInvalid(const Mapping &mapping) const {
  std::vector<std::string> issues =
      checkMappingShape(mapping, problemValue, archValue);
  if (!issues.empty())
    return issues.front();
  Evaluation evaluation;
  if (costModel.evaluate(mapping, evaluation))
    return std::nullopt;
  return evaluation.describeInvalid(archValue);
}

} // namespace marlmap
