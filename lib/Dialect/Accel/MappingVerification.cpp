//===- MappingVerification.cpp - Does a mapping fit its op? ---------------===//

#include "marlmap/Dialect/Accel/MappingVerification.h"
#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"

using namespace mlir;

namespace marlmap::accel {

LogicalResult
verifyMappingFits(MappingAttr mapping, linalg::LinalgOp op, const Arch &arch,
                  llvm::function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<Problem> problem = extractProblem(op);
  if (!problem)
    return emitError() << "carries a mapping but cannot be mapped: "
                       << llvm::toString(problem.takeError());
  return verifyMappingFits(mapping, *problem, op->getNumOperands(), arch,
                           emitError);
}

LogicalResult
verifyMappingFits(MappingAttr mapping, const Problem &problem,
                  unsigned numOperands, const Arch &arch,
                  llvm::function_ref<InFlightDiagnostic()> emitError) {
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

  unsigned numLoops = problem.dims.size();
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

  for (LevelMappingAttr level : levels)
    for (int64_t operand : level.getKeep())
      if (operand >= numOperands)
        return emitError() << "level '" << level.getName()
                           << "' keeps operand #" << operand
                           << " but the op has " << numOperands << " operands";

  // The rest is the core's rule, on the problem the op computes.
  std::vector<std::string> issues =
      checkMappingShape(toCore(mapping, numLoops, numOperands), problem, arch);
  if (issues.empty())
    return success();
  InFlightDiagnostic diag = emitError() << issues.front();
  for (const std::string &issue : llvm::drop_begin(issues))
    diag.attachNote() << issue;
  return diag;
}

} // namespace marlmap::accel
