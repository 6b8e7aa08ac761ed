//===- Target.h - Finding the accelerator a module targets ------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_TARGET_H
#define MARLMAP_DIALECT_ACCEL_TARGET_H

#include "marlmap/Core/Arch.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>

namespace marlmap::accel {

struct ResolvedTarget {
  Arch arch;
  /// Where it came from, for reports: "preset", "file PATH", "module".
  std::string source;
};

/// The `accel.target` that applies to `op`: the one on the nearest
/// builtin.module around it (or on `op` itself) that carries one; null when
/// none does.
mlir::Attribute findTargetAttr(mlir::Operation *op);

/// The value of an `accel.target` attribute: a preset name (StringAttr) or an
/// `#accel.arch`. Anything else is reported through `emitError`.
mlir::FailureOr<Arch>
archFromTargetAttr(mlir::Attribute attr,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The accelerator to map `module` onto. `choice`, when not empty, is a
/// preset name, the path of a `.mlir` file whose module carries
/// `accel.target`, or a Timeloop architecture spec (`.yaml`, `.yml`, with
/// the constraints it carries); otherwise findTargetAttr(module) decides, and
/// without one the default preset does. `constraintsFile`, when not empty, is
/// a Timeloop constraints file whose targets are added. Errors are reported
/// on `module`.
mlir::FailureOr<ResolvedTarget>
resolveTarget(mlir::ModuleOp module, llvm::StringRef choice,
              llvm::StringRef constraintsFile = "");

/// "eyeriss, simba, ..." for diagnostics.
std::string listPresets();

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_TARGET_H
