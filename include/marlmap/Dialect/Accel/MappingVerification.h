//===- MappingVerification.h - Does a mapping fit its op? -------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_MAPPINGVERIFICATION_H
#define MARLMAP_DIALECT_ACCEL_MAPPINGVERIFICATION_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Problem.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace marlmap::accel {

/// Checks that `mapping` describes `op` on `arch`: one level per storage
/// level in order, one factor per loop, factors multiplying to each loop's
/// bound, spatial factors within each level's fanout, kept operands that
/// exist and that the level may hold, everything kept at the outermost level.
/// Capacity is not checked here: that is the mapping space's job.
mlir::LogicalResult
verifyMappingFits(MappingAttr mapping, mlir::linalg::LinalgOp op,
                  const Arch &arch,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The same checks against a problem with `numOperands` operands, for a
/// mapping written for a problem rather than found on an op.
mlir::LogicalResult
verifyMappingFits(MappingAttr mapping, const Problem &problem,
                  unsigned numOperands, const Arch &arch,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_MAPPINGVERIFICATION_H
