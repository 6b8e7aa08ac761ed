//===- Mapping.cpp - How a problem is laid onto an accelerator ------------===//

#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/LoopConstraints.h"

#include "marlmap/Core/Arithmetic.h"

#include <numeric>

namespace marlmap {

LevelMapping LevelMapping::identity(unsigned numDims, unsigned numOperands) {
  LevelMapping level;
  level.temporal.assign(numDims, 1);
  level.order.resize(numDims);
  std::iota(level.order.begin(), level.order.end(), 0u);
  level.spatialX.assign(numDims, 1);
  level.spatialY.assign(numDims, 1);
  level.keep.assign(numOperands, false);
  return level;
}

int64_t LevelMapping::spreadX() const { return saturatingProduct(spatialX); }
int64_t LevelMapping::spreadY() const { return saturatingProduct(spatialY); }

Mapping Mapping::outermostOnly(const Problem &problem, const Arch &arch) {
  Mapping mapping;
  unsigned numDims = problem.dims.size();
  unsigned numOperands = problem.operands.size();
  for (const StorageLevel &level : arch.levels) {
    LevelMapping l = LevelMapping::identity(numDims, numOperands);
    for (unsigned o = 0; o < numOperands; ++o)
      l.keep[o] = level.holds.contains(problem.operands[o].role);
    mapping.levels.push_back(std::move(l));
  }
  if (!mapping.levels.empty())
    mapping.levels.back().temporal = problem.bounds();
  return mapping;
}

bool operator==(const LevelMapping &a, const LevelMapping &b) {
  return a.temporal == b.temporal && a.order == b.order &&
         a.spatialX == b.spatialX && a.spatialY == b.spatialY &&
         a.keep == b.keep;
}

bool operator==(const Mapping &a, const Mapping &b) {
  return a.levels == b.levels;
}

bool isWellFormed(const Mapping &mapping, size_t numLevels, size_t numDims,
                  size_t numOperands) {
  if (mapping.levels.size() != numLevels)
    return false;
  for (const LevelMapping &level : mapping.levels) {
    if (level.temporal.size() != numDims || level.order.size() != numDims ||
        level.spatialX.size() != numDims || level.spatialY.size() != numDims ||
        level.keep.size() != numOperands)
      return false;
    std::vector<bool> placed(numDims, false);
    for (unsigned d = 0; d < numDims; ++d) {
      const unsigned dim = level.order[d];
      if (dim >= numDims || placed[dim] || level.temporal[d] < 1 ||
          level.spatialX[d] < 1 || level.spatialY[d] < 1)
        return false;
      placed[dim] = true;
    }
  }
  return true;
}

const char *DimLoop::kindName() const {
  switch (kind) {
  case Temporal:
    return "temporal";
  case SpatialY:
    return "spatial_y";
  case SpatialX:
    return "spatial_x";
  }
  return "";
}

int64_t factorProduct(const Mapping &mapping, unsigned dim) {
  int64_t product = 1;
  for (const LevelMapping &level : mapping.levels)
    product = saturatingMul(
        product,
        saturatingMul(level.temporal[dim],
                      saturatingMul(level.spatialX[dim], level.spatialY[dim])));
  return product;
}

std::vector<DimLoop> loopsOnDim(const Mapping &mapping, const Problem &problem,
                                unsigned dim) {
  std::vector<DimLoop> loops;
  for (unsigned l = mapping.levels.size(); l-- > 0;) {
    const LevelMapping &level = mapping.levels[l];
    for (auto [kind, factor] :
         {std::pair{DimLoop::Temporal, level.temporal[dim]},
          std::pair{DimLoop::SpatialY, level.spatialY[dim]},
          std::pair{DimLoop::SpatialX, level.spatialX[dim]}})
      loops.push_back({l, kind, factor, factor});
  }
  const int64_t product = factorProduct(mapping, dim);
  const int64_t bound = problem.dims[dim].bound;
  if (product == kSaturated || product < bound)
    return loops;
  // The last point, bound - 1, in the loops' mixed radix: each digit is
  // the last iteration its loop runs under the last tiles outside it.
  int64_t inner = product, rest = bound - 1;
  for (DimLoop &loop : loops) {
    inner /= loop.factor;
    loop.lastRun = rest / inner + 1;
    rest %= inner;
  }
  return loops;
}

llvm::Error checkFactorCover(const Mapping &mapping, const Problem &problem,
                             const Arch &arch, unsigned dim) {
  const LoopDim &loop = problem.dims[dim];
  const int64_t product = factorProduct(mapping, dim);
  if (product == kSaturated)
    return makeError("the factors of loop " + loop.name +
                     " multiply to more than 2^63");
  if (product < loop.bound)
    return makeError("the factors of loop " + loop.name + " multiply to " +
                     std::to_string(product) + " but its bound is " +
                     std::to_string(loop.bound) + ": its tiles must cover it");
  // The outermost loop that splits must reach its last iteration: a factor
  // past what the bound needs only adds iterations that never run. Inside
  // it tiles are whole, and every factor divides its tile.
  for (const DimLoop &l : loopsOnDim(mapping, problem, dim)) {
    if (l.factor == 1)
      continue;
    const int64_t inner = product / l.factor;
    const int64_t needed = (loop.bound + inner - 1) / inner;
    if (l.factor > needed)
      return makeError("loop " + loop.name + ": the " + l.kindName() +
                       " factor " + std::to_string(l.factor) + " at level '" +
                       arch.levels[l.level].name + "' splits its " +
                       std::to_string(loop.bound) + " into tiles of " +
                       std::to_string(inner) + ", which " +
                       std::to_string(needed) + " cover");
    break;
  }
  return llvm::Error::success();
}

bool hasImperfectFactors(const Mapping &mapping, const Problem &problem) {
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    if (factorProduct(mapping, d) != problem.dims[d].bound)
      return true;
  return false;
}

std::vector<std::string> checkMappingShape(const Mapping &mapping,
                                           const Problem &problem,
                                           const Arch &arch) {
  std::vector<std::string> issues;
  if (mapping.levels.size() != arch.levels.size()) {
    issues.push_back("the mapping has " +
                     std::to_string(mapping.levels.size()) +
                     " levels but the target '" + arch.name + "' has " +
                     std::to_string(arch.levels.size()));
    return issues;
  }
  const size_t numDims = problem.dims.size();
  const size_t numOperands = problem.operands.size();
  for (unsigned i = 0; i < mapping.levels.size(); ++i) {
    const LevelMapping &level = mapping.levels[i];
    const std::string name = "level '" + arch.levels[i].name + "'";
    if (level.temporal.size() != numDims || level.order.size() != numDims ||
        level.spatialX.size() != numDims || level.spatialY.size() != numDims ||
        level.keep.size() != numOperands) {
      issues.push_back(name + " does not give one entry per loop and operand");
      return issues;
    }
    std::vector<bool> placed(numDims, false);
    for (unsigned dim : level.order) {
      if (dim >= numDims || placed[dim]) {
        issues.push_back(name + ": the loop order is not a permutation");
        break;
      }
      placed[dim] = true;
    }
    for (unsigned d = 0; d < numDims; ++d)
      if (level.temporal[d] < 1 || level.spatialX[d] < 1 ||
          level.spatialY[d] < 1) {
        issues.push_back(name + ": the factors of loop " +
                         problem.dims[d].name + " must be at least 1");
        break;
      }
  }
  if (!issues.empty())
    return issues;

  for (unsigned d = 0; d < numDims; ++d)
    if (llvm::Error issue = checkFactorCover(mapping, problem, arch, d))
      issues.push_back(llvm::toString(std::move(issue)));
  for (unsigned i = 0; i < mapping.levels.size(); ++i) {
    const LevelMapping &level = mapping.levels[i];
    const std::string name = "level '" + arch.levels[i].name + "'";
    if (level.spreadX() > arch.fanoutX(i))
      issues.push_back(name + " spreads " + std::to_string(level.spreadX()) +
                       " ways along X but its fanout along X is " +
                       std::to_string(arch.fanoutX(i)));
    if (level.spreadY() > arch.fanoutY(i))
      issues.push_back(name + " spreads " + std::to_string(level.spreadY()) +
                       " ways along Y but its fanout along Y is " +
                       std::to_string(arch.fanoutY(i)));
    for (unsigned o = 0; o < numOperands; ++o) {
      const Operand &operand = problem.operands[o];
      if (level.keep[o] && operand.access != Access::None &&
          !arch.levels[i].holds.contains(operand.role))
        issues.push_back(name + " keeps " + operand.name + " (" +
                         tensorRoleName(operand.role) + ") but holds only " +
                         arch.levels[i].holds.str());
    }
  }
  const LevelMapping &outermost = mapping.levels.back();
  // Operands that move no data (a pooling window) need no home.
  for (unsigned o = 0; o < numOperands; ++o)
    if (!outermost.keep[o] && problem.operands[o].access != Access::None)
      issues.push_back("the outermost level '" + arch.levels.back().name +
                       "' must keep every operand, but not " +
                       problem.operands[o].name);
  // What the dataflow forbids, once the shape is sound.
  if (issues.empty())
    issues = checkMappingConstraints(mapping, problem, arch);
  return issues;
}

} // namespace marlmap
