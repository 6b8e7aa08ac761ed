//===- Target.h - Finding the accelerator a module targets ------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_TARGET_H
#define MARLMAP_DIALECT_ACCEL_TARGET_H

#include "marlmap/Core/Arch.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>

namespace marlmap::accel {

/// The `accel.target` that applies to `op`: the one on the nearest
/// builtin.module around it (or on `op` itself) that carries one; null when
/// none does.
mlir::Attribute findTargetAttr(mlir::Operation *op);

/// The value of an `accel.target` attribute: a preset name (StringAttr) or an
/// `#accel.arch`. Anything else is reported through `emitError`.
mlir::FailureOr<Arch>
archFromTargetAttr(mlir::Attribute attr,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// "eyeriss, simba, ..." for diagnostics.
std::string listPresets();

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_TARGET_H
