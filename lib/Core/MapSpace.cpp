//===- MapSpace.cpp - Mappings as discrete decision parameters ------------===//
//
// Building the space: the parameters a problem's mappings on an accelerator
// take under its constraints. Coding points is MapSpaceCoding.cpp.
//
//===----------------------------------------------------------------------===//

#include "MapSpaceTables.h"

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Core/DimNames.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace marlmap {

using namespace mapspace;

MapSpace::MapSpace(Problem problem, Arch arch)
    : problemValue(std::move(problem)), archValue(std::move(arch)),
      costModel(problemValue, archValue) {}

llvm::Expected<std::unique_ptr<MapSpace>>
MapSpace::create(Problem problem, Arch arch, const Constraints &constraints,
                 FactorSpace factors) {
  std::unique_ptr<MapSpace> space(
      new MapSpace(std::move(problem), std::move(arch)));
  space->factors = factors;
  Constraints all;
  if (llvm::Error error =
          resolveConstraints(space->problemValue, space->archValue, all))
    return std::move(error);
  if (llvm::Error error = mergeConstraints(all, constraints))
    return std::move(error);
  if (llvm::Error error = space->build(all))
    return std::move(error);
  if (llvm::Error error = space->checkSomeMappingFits())
    return std::move(error);
  return space;
}

int64_t MapSpace::compositions(unsigned items, unsigned bins) const {
  if (bins == 0)
    return items == 0 ? 1 : 0;
  return compositionsOf(items, bins);
}

namespace {

bool allowed(const std::optional<std::vector<unsigned>> &dims, unsigned dim) {
  return !dims || std::find(dims->begin(), dims->end(), dim) != dims->end();
}

/// The permutation check of a fixed order or innermost list.
bool distinctDims(const std::vector<unsigned> &dims, unsigned numDims) {
  std::vector<bool> seen(numDims, false);
  for (unsigned dim : dims) {
    if (dim >= numDims || seen[dim])
      return false;
    seen[dim] = true;
  }
  return true;
}

/// The constraints of level `level`, or null when none name it.
const LevelConstraints *constraintsAt(const Constraints &constraints,
                                      unsigned level) {
  return level < constraints.levels.size() ? &constraints.levels[level]
                                           : nullptr;
}

} // namespace

llvm::Error MapSpace::build(const Constraints &constraints) {
  if (llvm::Error error = checkSizes(constraints))
    return error;
  if (llvm::Error error = buildBase(constraints))
    return error;
  params.clear();
  splits.clear();
  ladders.clear();
  paramSplit.clear();
  paramLevel.clear();
  paramOperand.clear();
  caps.clear();
  dimSlots.assign(problemValue.dims.size(), {});
  axisParam.assign(archValue.levels.size() * problemValue.dims.size(), -1);
  if (llvm::Error error = addFactorParams(constraints))
    return error;
  fixedSpreads.assign(archValue.levels.size(), {1, 1});
  for (unsigned l = 0; l < archValue.levels.size(); ++l)
    for (unsigned d = 0; d < problemValue.dims.size(); ++d) {
      fixedSpreads[l][0] =
          saturatingMul(fixedSpreads[l][0], base.levels[l].spatialX[d]);
      fixedSpreads[l][1] =
          saturatingMul(fixedSpreads[l][1], base.levels[l].spatialY[d]);
    }
  // Loop orders of levels with more than one loop left to order.
  for (unsigned l = 0; l < archValue.levels.size(); ++l)
    if (orderFree[l].size() >= 2)
      addParam({Parameter::Kind::Order, "order@" + archValue.levels[l].name,
                factorial(orderFree[l].size())},
               int(l), -1);
  if (llvm::Error error = addKeepParams(constraints))
    return error;
  addAxisParams();
  return llvm::Error::success();
}

llvm::Error MapSpace::checkSizes(const Constraints &constraints) const {
  const Problem &problem = problemValue;
  const Arch &arch = archValue;
  if (problem.dims.size() > CostModel::kMaxDims ||
      arch.levels.size() > CostModel::kMaxLevels ||
      problem.operands.size() > CostModel::kMaxOperands)
    return makeError(
        "the problem or the architecture is too large for the cost model");
  for (const Operand &operand : problem.operands)
    if (operand.projection.size() > CostModel::kMaxAxes)
      return makeError("operand '" + operand.name + "' has " +
                       std::to_string(operand.projection.size()) +
                       " axes; the cost model takes at most " +
                       std::to_string(CostModel::kMaxAxes));
  for (const LoopDim &dim : problem.dims)
    if (dim.bound > kMaxBound)
      return makeError(
          "loop " + dim.name + " has bound " + std::to_string(dim.bound) +
          "; the map space factors bounds up to " + std::to_string(kMaxBound));
  if (constraints.levels.size() > arch.levels.size())
    return makeError("constraints name " +
                     std::to_string(constraints.levels.size()) +
                     " levels but the architecture has " +
                     std::to_string(arch.levels.size()));
  return llvm::Error::success();
}

llvm::Error MapSpace::buildBase(const Constraints &constraints) {
  // The base mapping: fixed choices in place, everything free at 1.
  const unsigned numDims = problemValue.dims.size(),
                 numLevels = archValue.levels.size();
  base.levels.clear();
  orderFree.assign(numLevels, {});
  for (unsigned l = 0; l < numLevels; ++l) {
    const std::string &name = archValue.levels[l].name;
    LevelMapping level =
        LevelMapping::identity(numDims, problemValue.operands.size());
    const LevelConstraints *c = constraintsAt(constraints, l);
    if (c) {
      for (auto [fixed, factors] : {std::pair{&c->temporal, &level.temporal},
                                    {&c->spatialX, &level.spatialX},
                                    {&c->spatialY, &level.spatialY}})
        for (auto [dim, factor] : *fixed) {
          if (dim >= numDims || factor < 1)
            return makeError("level '" + name +
                             "': a fixed factor names loop #" +
                             std::to_string(dim) + " or is not positive");
          (*factors)[dim] = factor;
        }
    }
    if (c && c->order) {
      if (c->order->size() != numDims || !distinctDims(*c->order, numDims))
        return makeError("level '" + name +
                         "': the fixed loop order is not a "
                         "permutation");
      level.order = *c->order;
    } else {
      std::vector<unsigned> innermost =
          c ? c->innermost : std::vector<unsigned>();
      if (!distinctDims(innermost, numDims))
        return makeError(
            "level '" + name +
            "': the innermost loops name a loop twice or one that does "
            "not exist");
      std::vector<unsigned> &free = orderFree[l];
      for (unsigned d = 0; d < numDims; ++d)
        if (std::find(innermost.begin(), innermost.end(), d) == innermost.end())
          free.push_back(d);
      level.order = free;
      level.order.insert(level.order.end(), innermost.begin(), innermost.end());
    }
    base.levels.push_back(std::move(level));
  }
  return llvm::Error::success();
}

void MapSpace::addParam(Parameter param, int level, int operand) {
  params.push_back(std::move(param));
  paramSplit.push_back(-1);
  paramLevel.push_back(level);
  paramOperand.push_back(operand);
}

llvm::Error MapSpace::addKeepParams(const Constraints &constraints) {
  // Keep or bypass, where the level may hold the operand's role.
  const unsigned numLevels = archValue.levels.size();
  for (unsigned l = 0; l < numLevels; ++l) {
    const StorageLevel &storage = archValue.levels[l];
    const LevelConstraints *c = constraintsAt(constraints, l);
    bool outermost = l + 1 == numLevels;
    for (unsigned o = 0; o < problemValue.operands.size(); ++o) {
      const Operand &operand = problemValue.operands[o];
      bool moves = operand.access != Access::None;
      bool mayHold = storage.holds.contains(operand.role);
      auto fixed =
          c ? c->keep.find(o) : std::map<unsigned, bool>::const_iterator();
      bool isFixed = c && fixed != c->keep.end();
      if (isFixed && fixed->second && !mayHold)
        return makeError("level '" + storage.name + "' cannot keep " +
                         operand.name + ": it holds only " +
                         storage.holds.str());
      if (isFixed && !fixed->second && outermost && moves)
        return makeError("the outermost level must keep " + operand.name);
      if (!moves || !mayHold) {
        base.levels[l].keep[o] = false;
      } else if (outermost) {
        base.levels[l].keep[o] = true;
      } else if (isFixed) {
        base.levels[l].keep[o] = fixed->second;
      } else {
        addParam({Parameter::Kind::Keep,
                  "keep " + operand.name + "@" + storage.name, 2},
                 int(l), int(o));
      }
    }
  }
  return llvm::Error::success();
}

void MapSpace::addAxisParams() {
  // The axis of each dim that may go either way where dims take one axis.
  const unsigned numDims = problemValue.dims.size();
  for (unsigned l = 0; l < archValue.levels.size(); ++l)
    for (unsigned d = 0; d < numDims; ++d)
      if (axisParam[l * numDims + d] >= 0) {
        axisParam[l * numDims + d] = int(params.size());
        addParam({Parameter::Kind::Axis,
                  "axis " + problemValue.dims[d].name + "@" +
                      archValue.levels[l].name,
                  2},
                 int(l), int(d));
      }
}

llvm::Error MapSpace::addFactorParams(const Constraints &constraints) {
  for (unsigned d = 0; d < problemValue.dims.size(); ++d) {
    int64_t fixedProduct = 1;
    if (llvm::Error error = checkFixedFactors(constraints, d, fixedProduct))
      return error;
    // Nothing left to place: no slots, no caps, no axes.
    if (problemValue.dims[d].bound / fixedProduct == 1)
      continue;
    std::vector<Cap> dimCaps;
    const std::vector<Slot> slots = factorSlots(constraints, d, dimCaps);
    for (const Slot &slot : slots)
      dimSlots[d].push_back({slot.level, slot.kind});
    if (factors != FactorSpace::Perfect) {
      if (llvm::Error error = addLadder(d, slots, dimCaps))
        return error;
      continue;
    }
    if (llvm::Error error = spillCaps(d, slots, dimCaps))
      return error;
    if (llvm::Error error = addSplits(d, slots))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error MapSpace::checkFixedFactors(const Constraints &constraints,
                                        unsigned d,
                                        int64_t &fixedProduct) const {
  const Problem &problem = problemValue;
  const Arch &arch = archValue;
  const int64_t bound = problem.dims[d].bound;
  fixedProduct = factorProduct(base, d);
  if (bound % fixedProduct != 0)
    return makeError("the fixed factors of loop " + problem.dims[d].name +
                     " multiply to " + std::to_string(fixedProduct) +
                     ", which does not divide its bound " +
                     std::to_string(bound));
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    const LevelConstraints *c = constraintsAt(constraints, l);
    if (c && c->exclusiveAxes && base.levels[l].spatialX[d] > 1 &&
        base.levels[l].spatialY[d] > 1)
      return makeError(
          "level '" + arch.levels[l].name + "' spreads loop " +
          problem.dims[d].name +
          " along X and along Y, but each dim takes one axis there");
    if (c)
      for (const auto *most :
           {&c->maxTemporal, &c->maxSpatialX, &c->maxSpatialY})
        if (auto it = most->find(d); it != most->end() && it->second < 1)
          return makeError("level '" + arch.levels[l].name +
                           "': a largest factor of loop " +
                           problem.dims[d].name + " must be at least 1");
  }
  return llvm::Error::success();
}

std::vector<MapSpace::Slot>
MapSpace::factorSlots(const Constraints &constraints, unsigned d,
                      std::vector<Cap> &dimCaps) {
  const Arch &arch = archValue;
  const unsigned numDims = problemValue.dims.size();
  std::vector<Slot> slots;
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    const LevelConstraints *c = constraintsAt(constraints, l);
    auto fixedAt =
        [&](const std::map<unsigned, int64_t> LevelConstraints::*field) {
          return c && (c->*field).count(d);
        };
    auto capAt = [&](const std::map<unsigned, int64_t> LevelConstraints::*field,
                     unsigned kind) {
      if (!c)
        return;
      auto it = (c->*field).find(d);
      if (it != (c->*field).end())
        dimCaps.push_back({d, {l, kind}, it->second, {0, 0}});
    };
    if (!fixedAt(&LevelConstraints::temporal)) {
      slots.push_back({l, 0});
      capAt(&LevelConstraints::maxTemporal, 0);
    }
    bool x = arch.fanoutX(l) > 1 && !fixedAt(&LevelConstraints::spatialX) &&
             allowed(c ? c->spatialXDims : std::nullopt, d);
    bool y = arch.fanoutY(l) > 1 && !fixedAt(&LevelConstraints::spatialY) &&
             allowed(c ? c->spatialYDims : std::nullopt, d);
    bool oneAxis = c && c->exclusiveAxes;
    // With one axis per dim, a fixed spread along one axis rules out the
    // other.
    if (oneAxis && base.levels[l].spatialX[d] > 1)
      y = false;
    if (oneAxis && base.levels[l].spatialY[d] > 1)
      x = false;
    if (x && y && oneAxis) {
      slots.push_back({l, 3});
      axisParam[l * numDims + d] = 0; // numbered once all are known
    } else {
      if (x)
        slots.push_back({l, 1});
      if (y)
        slots.push_back({l, 2});
    }
    if (x)
      capAt(&LevelConstraints::maxSpatialX, 1);
    if (y)
      capAt(&LevelConstraints::maxSpatialY, 2);
  }
  return slots;
}

llvm::Error MapSpace::spillCaps(unsigned d, const std::vector<Slot> &slots,
                                std::vector<Cap> &dimCaps) {
  if (dimCaps.empty())
    return llvm::Error::success();
  // What exceeds a cap goes to the outermost uncapped temporal loop (or
  // spread) that may take it.
  auto capped = [&](Slot slot) {
    for (const Cap &cap : dimCaps)
      if (cap.slot.level == slot.level &&
          (cap.slot.kind == slot.kind ||
           (slot.kind == 3 && cap.slot.kind != 0)))
        return true;
    return false;
  };
  std::optional<Slot> spill;
  for (unsigned pass = 0; pass < 2 && !spill; ++pass)
    for (auto it = slots.rbegin(); it != slots.rend() && !spill; ++it)
      if ((pass == 1 || it->kind == 0) && !capped(*it))
        spill = *it;
  if (!spill)
    return makeError("loop " + problemValue.dims[d].name +
                     ": every level that may take its factors limits them; "
                     "one must leave them free");
  for (Cap &cap : dimCaps) {
    cap.spill = *spill;
    caps.push_back(cap);
  }
  return llvm::Error::success();
}

llvm::Error MapSpace::addSplits(unsigned d, const std::vector<Slot> &slots) {
  const std::string &name = problemValue.dims[d].name;
  for (auto [prime, exponent] : factorize(problemValue.dims[d].bound)) {
    unsigned taken = 0;
    for (const LevelMapping &level : base.levels)
      taken += valuation(level.temporal[d], prime) +
               valuation(level.spatialX[d], prime) +
               valuation(level.spatialY[d], prime);
    // The rest (spatial slots, decoding tables) is filled below.
    Split split{d, prime, exponent - taken, slots, unsigned(params.size())};
    for (unsigned j = 0; j < split.slots.size(); ++j)
      if (split.slots[j].kind != 0)
        split.spatial.push_back(j);
    if (split.free == 0)
      continue;
    if (split.slots.empty())
      return makeError("loop " + name + " has factors of " +
                       std::to_string(prime) +
                       " left but no level may take them");
    int64_t choices = compositions(split.free, split.slots.size());
    if (choices > kMaxChoices)
      return makeError("loop " + name +
                       " has too many ways to split its factors to index");
    tabulateSplit(split);
    splits.push_back(std::move(split));
    params.push_back({Parameter::Kind::Factor,
                      name + "^" + std::to_string(prime) + " split", choices});
    paramSplit.push_back(int(splits.size() - 1));
    paramLevel.push_back(-1);
    paramOperand.push_back(-1);
  }
  return llvm::Error::success();
}

llvm::Error MapSpace::checkSomeMappingFits() {
  // Every free factor as far out as it may go and every free keep a bypass:
  // the smallest tiles the space has. If they overflow, everything does.
  std::vector<int64_t> values(params.size(), 0);
  unsigned counts[3 * CostModel::kMaxLevels];
  for (unsigned i = 0; i < params.size(); ++i) {
    if (params[i].kind != Parameter::Kind::Factor)
      continue;
    const Split &split = splits[paramSplit[i]];
    unsigned outer = 0;
    for (unsigned j = 0; j < split.slots.size(); ++j)
      if (split.slots[j].kind == 0)
        outer = j;
    for (unsigned j = 0; j < split.slots.size(); ++j)
      counts[j] = j == outer ? split.free : 0;
    values[i] = rankSplit(i, counts);
  }
  Mapping smallest = decode(values);
  std::vector<std::string> shape =
      checkMappingShape(smallest, problemValue, archValue);
  Evaluation evaluation;
  if (shape.empty() && costModel.evaluate(smallest, evaluation))
    return llvm::Error::success();
  std::string why =
      shape.empty() ? evaluation.describeInvalid(archValue) : shape.front();
  // Name the constraint that forces the overflow onto the level.
  if (shape.empty() && evaluation.reason == InvalidReason::Capacity) {
    std::vector<std::optional<DimName>> names = nameDims(problemValue);
    if (const Constraint *c = constraintAt(archValue, evaluation.invalidLevel,
                                           opKindOf(names, problemValue)))
      why += ", under #accel.constraint<" + c->str() + ">";
  }
  return makeError(
      "no mapping under the constraints fits: with every factor left "
      "free placed outermost, " +
      why);
}

double MapSpace::log10Size() const {
  double size = 0.0;
  for (const Parameter &param : params)
    size += std::log10(double(param.choices));
  return size;
}

int64_t MapSpace::largestFactor(unsigned level, unsigned kind,
                                unsigned dim) const {
  for (const Cap &cap : caps)
    if (cap.dim == dim && cap.slot.level == level && cap.slot.kind == kind)
      return cap.most;
  return 0;
}

bool MapSpace::keepIsFree(unsigned level, unsigned operand) const {
  for (unsigned i = 0; i < params.size(); ++i)
    if (params[i].kind == Parameter::Kind::Keep &&
        paramLevel[i] == int(level) && paramOperand[i] == int(operand))
      return true;
  return false;
}

llvm::Error MapSpace::checkMapping(const Mapping &mapping) const {
  std::vector<std::string> issues =
      checkMappingShape(mapping, problemValue, archValue);
  if (!issues.empty())
    return makeError(issues.front());
  Evaluation evaluation;
  if (costModel.evaluate(mapping, evaluation))
    return llvm::Error::success();
  return makeError(evaluation.describeInvalid(archValue));
}

} // namespace marlmap
