//===- ResolveTarget.h - The accelerator a module maps onto ----*- C++ -*-===//
//
// Reads the descriptions a compile names (a .mlir file, a Timeloop spec or
// constraints file); the dialect library itself reads no file.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_TARGET_RESOLVETARGET_H
#define MARLMAP_TARGET_RESOLVETARGET_H

#include "marlmap/Core/Arch.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace marlmap::accel {

struct ResolvedTarget {
  Arch arch;
  /// Where it came from, for reports: "preset", "file PATH", "module".
  std::string source;
};

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

} // namespace marlmap::accel

#endif // MARLMAP_TARGET_RESOLVETARGET_H
