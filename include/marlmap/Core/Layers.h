//===- Layers.h - Common DNN layers as problems -----------------*- C++ -*-===//
//
// Convolutions and matrix products written as problems directly, with
// Timeloop's dimension and data-space names, so that a layer can be studied
// without an MLIR file: `conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3,stride=1`.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_LAYERS_H
#define MARLMAP_CORE_LAYERS_H

#include "marlmap/Core/Error.h"
#include "marlmap/Core/Problem.h"

#include <optional>
#include <string>

namespace marlmap {

struct ConvShape {
  int64_t n = 1, k = 1, c = 1, p = 1, q = 1, r = 1, s = 1;
  int64_t strideW = 1, strideH = 1, dilationW = 1, dilationH = 1;
  /// One filter per channel: K is dropped and C is shared by all operands.
  bool depthwise = false;
};

/// Timeloop's CNN-Layer (or DepthwiseCNN-Layer): dims R S P Q C K N, with
/// R and P on the W axis and S and Q on the H axis, outputs [N, K, Q, P].
Problem makeConv(const ConvShape &shape);

/// C[M, N] += A[M, K] * B[K, N]: dims M N K; A is Inputs, B Weights.
Problem makeGemm(int64_t m, int64_t n, int64_t k);

/// Parses `conv:`, `dwconv:` or `gemm:` followed by comma-separated
/// `NAME=VALUE` pairs (`stride`, `dilation` set both axes; `Wstride`,
/// `Hstride`, `Wdilation`, `Hdilation` one each). Unset sizes are 1.
llvm::Expected<Problem> parseLayer(const std::string &text);

} // namespace marlmap

#endif // MARLMAP_CORE_LAYERS_H
