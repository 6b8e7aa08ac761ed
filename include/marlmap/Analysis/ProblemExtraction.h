//===- ProblemExtraction.h - Problems from linalg ops -----------*- C++ -*-===//
//
// A linalg op can be mapped onto an accelerator when its loops have static
// bounds and every operand is reached from loop space by an affine sum of
// loop dimensions (strides, dilations, sliding windows, broadcasts). Such an
// op becomes a core Problem, whatever named op or linalg.generic it is.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_ANALYSIS_PROBLEMEXTRACTION_H
#define MARLMAP_ANALYSIS_PROBLEMEXTRACTION_H

#include "marlmap/Core/Error.h"
#include "marlmap/Core/Problem.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include <optional>
#include <string>

namespace marlmap {

/// Whether the op's indexing maps agree with its operands. Attribute
/// verifiers run before an op's own verifier, so they must check this before
/// they read the maps.
bool indexingMapsFitOperands(mlir::linalg::LinalgOp op);

/// The linalg ops of `module` in program order, not counting those inside
/// nested modules (units of their own): the numbering marl-describe prints
/// and marlmap-explore --op-index takes.
llvm::SmallVector<mlir::linalg::LinalgOp>
collectLinalgOps(mlir::Operation *module);

/// The role of an operand: inits are outputs, the first input is the input
/// (activations), further inputs are weights.
TensorRole operandRole(mlir::linalg::LinalgOp op, unsigned operandNumber);

/// Whether `op` only fills its output (no input is a tensor): nothing to
/// map, and passes skip it without a remark.
bool readsNoTensor(mlir::linalg::LinalgOp op);

/// The problem `op` computes, with one operand per op operand (operand i of
/// the problem is op operand i) and loops d0, d1, ... in the op's order, or
/// why the op cannot be mapped.
llvm::Expected<Problem> extractProblem(mlir::linalg::LinalgOp op);

} // namespace marlmap

#endif // MARLMAP_ANALYSIS_PROBLEMEXTRACTION_H
