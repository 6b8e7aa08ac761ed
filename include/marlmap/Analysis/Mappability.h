//===- Mappability.h - Which linalg ops can be mapped -----------*- C++ -*-===//
//
// A linalg op can be mapped onto an accelerator when its loops have static
// bounds and every operand is reached from loop space by an affine sum of
// loop dimensions (strides, dilations, sliding windows, broadcasts).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_ANALYSIS_MAPPABILITY_H
#define MARLMAP_ANALYSIS_MAPPABILITY_H

#include "marlmap/Core/Arch.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <optional>
#include <string>

namespace marlmap {

/// Why `op` cannot be mapped, or nullopt when it can.
std::optional<std::string> whyNotMappable(mlir::linalg::LinalgOp op);

/// The role of an operand: inits are outputs, the first input is the input
/// (activations), further inputs are weights.
TensorRole operandRole(mlir::linalg::LinalgOp op, unsigned operandNumber);

} // namespace marlmap

#endif // MARLMAP_ANALYSIS_MAPPABILITY_H
