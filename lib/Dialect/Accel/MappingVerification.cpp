//===- MappingVerification.cpp - Does a mapping fit its op? ---------------===//

#include "marlmap/Dialect/Accel/MappingVerification.h"
#include "marlmap/Analysis/ProblemExtraction.h"

using namespace mlir;

namespace marlmap::accel {

LogicalResult
verifyMappingFits(MappingAttr mapping, linalg::LinalgOp op, const Arch &arch,
                  llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (std::optional<std::string> reason = whyNotMappable(op))
    return emitError() << "carries a mapping but cannot be mapped: " << *reason;
  ArrayRef<LevelMappingAttr> levels = mapping.getLevels();
  if (levels.size() != arch.levels.size())
    return emitError() << "the mapping has " << levels.size()
                       << " levels but the target '" << arch.name << "' has "
                       << arch.levels.size();
  for (auto [index, level] : llvm::enumerate(levels))
    if (level.getName() != arch.levels[index].name)
      return emitError() << "level " << index << " of the mapping is '"
                         << level.getName() << "' but level " << index
                         << " of the target '" << arch.name << "' is '"
                         << arch.levels[index].name << "'";

  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned numLoops = bounds.size();
  for (LevelMappingAttr level : levels)
    for (auto [field, list] : {std::pair<StringRef, ArrayRef<int64_t>>{
                                   "temporal", level.getTemporal()},
                               {"order", level.getOrder()},
                               {"spatial_x", level.getSpatialX()},
                               {"spatial_y", level.getSpatialY()}})
      if (!list.empty() && list.size() != numLoops)
        return emitError() << "'" << field << "' of level '" << level.getName()
                           << "' has " << list.size()
                           << " entries but the op has " << numLoops
                           << " loops";

  for (unsigned loop = 0; loop < numLoops; ++loop) {
    int64_t product = 1;
    for (LevelMappingAttr level : levels)
      product *= level.getTemporalFactor(loop) * level.getSpatialXFactor(loop) *
                 level.getSpatialYFactor(loop);
    if (product != bounds[loop])
      return emitError() << "the factors of loop d" << loop << " multiply to "
                         << product << " but its bound is " << bounds[loop];
  }

  for (auto [index, level] : llvm::enumerate(levels)) {
    int64_t spreadX = 1, spreadY = 1;
    for (unsigned loop = 0; loop < numLoops; ++loop) {
      spreadX *= level.getSpatialXFactor(loop);
      spreadY *= level.getSpatialYFactor(loop);
    }
    if (spreadX > arch.fanoutX(index))
      return emitError() << "level '" << level.getName() << "' spreads "
                         << spreadX << " ways along X but its fanout along X "
                         << "is " << arch.fanoutX(index);
    if (spreadY > arch.fanoutY(index))
      return emitError() << "level '" << level.getName() << "' spreads "
                         << spreadY << " ways along Y but its fanout along Y "
                         << "is " << arch.fanoutY(index);
  }

  unsigned numOperands = op->getNumOperands();
  for (auto [index, level] : llvm::enumerate(levels)) {
    const StorageLevel &storage = arch.levels[index];
    for (int64_t operand : level.getKeep()) {
      if (operand >= numOperands)
        return emitError() << "level '" << level.getName()
                           << "' keeps operand #" << operand
                           << " but the op has " << numOperands << " operands";
      marlmap::TensorRole role = operandRole(op, operand);
      if (!storage.holds.contains(role))
        return emitError() << "level '" << level.getName()
                           << "' keeps operand #" << operand << " ("
                           << tensorRoleName(role) << ") but holds only "
                           << storage.holds.str();
    }
  }
  ArrayRef<int64_t> outermostKeep = levels.back().getKeep();
  for (unsigned operand = 0; operand < numOperands; ++operand)
    if (!llvm::is_contained(outermostKeep, operand))
      return emitError() << "the outermost level '" << levels.back().getName()
                         << "' must keep every operand, but not #" << operand;
  return success();
}

} // namespace marlmap::accel
