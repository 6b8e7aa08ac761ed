//===- Layers.cpp - Common DNN layers as problems -------------------------===//

#include "marlmap/Core/Layers.h"

#include <cerrno>
#include <cstdlib>
#include <map>
#include <sstream>

namespace marlmap {

namespace {

Coordinate axis(unsigned dim) { return Coordinate{{{dim, 1}}, 0}; }

/// `stride * outer + dilation * window`: a sliding-window coordinate.
Coordinate window(unsigned outer, int64_t stride, unsigned inner,
                  int64_t dilation) {
  return Coordinate{{{inner, dilation}, {outer, stride}}, 0};
}

} // namespace

Problem makeConv(const ConvShape &shape) {
  enum { R, S, P, Q, C, K, N };
  Problem problem;
  problem.name = shape.depthwise ? "dwconv" : "conv";
  problem.dims = {{"R", shape.r, LoopKind::Reduction},
                  {"S", shape.s, LoopKind::Reduction},
                  {"P", shape.p, LoopKind::Parallel},
                  {"Q", shape.q, LoopKind::Parallel},
                  {"C", shape.c,
                   shape.depthwise ? LoopKind::Parallel : LoopKind::Reduction},
                  {"K", shape.k, LoopKind::Parallel},
                  {"N", shape.n, LoopKind::Parallel}};
  Coordinate w = window(P, shape.strideW, R, shape.dilationW);
  Coordinate h = window(Q, shape.strideH, S, shape.dilationH);
  if (shape.depthwise) {
    problem.dims.erase(problem.dims.begin() + K);
    // Without K, N moves down one place.
    const unsigned n = K;
    problem.operands = {
        {"Weights",
         TensorRole::Weights,
         Access::Read,
         {axis(C), axis(R), axis(S)}},
        {"Inputs", TensorRole::Inputs, Access::Read, {axis(n), axis(C), w, h}},
        {"Outputs",
         TensorRole::Outputs,
         Access::ReadModifyWrite,
         {axis(n), axis(C), axis(Q), axis(P)}}};
    return problem;
  }
  problem.operands = {
      {"Weights",
       TensorRole::Weights,
       Access::Read,
       {axis(C), axis(K), axis(R), axis(S)}},
      {"Inputs", TensorRole::Inputs, Access::Read, {axis(N), axis(C), w, h}},
      {"Outputs",
       TensorRole::Outputs,
       Access::ReadModifyWrite,
       {axis(N), axis(K), axis(Q), axis(P)}}};
  return problem;
}

Problem makeGemm(int64_t m, int64_t n, int64_t k) {
  enum { M, N, K };
  Problem problem;
  problem.name = "gemm";
  problem.dims = {{"M", m, LoopKind::Parallel},
                  {"N", n, LoopKind::Parallel},
                  {"K", k, LoopKind::Reduction}};
  problem.operands = {
      {"Inputs", TensorRole::Inputs, Access::Read, {axis(M), axis(K)}},
      {"Weights", TensorRole::Weights, Access::Read, {axis(K), axis(N)}},
      {"Outputs",
       TensorRole::Outputs,
       Access::ReadModifyWrite,
       {axis(M), axis(N)}}};
  return problem;
}

llvm::Expected<Problem> parseLayer(const std::string &text) {
  size_t colon = text.find(':');
  std::string kind = text.substr(0, colon);
  if (colon == std::string::npos ||
      (kind != "conv" && kind != "dwconv" && kind != "gemm")) {
    return makeError(
        "a layer is 'conv:...', 'dwconv:...' or 'gemm:...', got '" + text +
        "'");
  }
  std::map<std::string, int64_t> values;
  std::stringstream fields(text.substr(colon + 1));
  std::string field;
  while (std::getline(fields, field, ',')) {
    size_t equals = field.find('=');
    std::string name = field.substr(0, equals);
    const char *number =
        equals == std::string::npos ? "" : field.c_str() + equals + 1;
    char *end = nullptr;
    errno = 0;
    long long value = std::strtoll(number, &end, 10);
    if (equals == std::string::npos || *number == '\0' || *end != '\0' ||
        errno == ERANGE) {
      return makeError("cannot read '" + field + "': expected NAME=INTEGER");
    }
    if (value <= 0) {
      return makeError("'" + name + "' must be positive, got " +
                       std::to_string(value));
    }
    if (!values.emplace(name, value).second) {
      return makeError("'" + name + "' is given twice");
    }
  }

  auto take = [&](const std::string &name, int64_t fallback) {
    auto it = values.find(name);
    if (it == values.end())
      return fallback;
    int64_t value = it->second;
    values.erase(it);
    return value;
  };
  Problem problem;
  if (kind == "gemm") {
    int64_t m = take("M", 1), n = take("N", 1), k = take("K", 1);
    problem = makeGemm(m, n, k);
  } else {
    ConvShape shape;
    shape.depthwise = kind == "dwconv";
    shape.n = take("N", 1);
    if (!shape.depthwise)
      shape.k = take("K", 1);
    shape.c = take("C", 1);
    shape.p = take("P", 1);
    shape.q = take("Q", 1);
    shape.r = take("R", 1);
    shape.s = take("S", 1);
    int64_t stride = take("stride", 1), dilation = take("dilation", 1);
    shape.strideW = take("Wstride", stride);
    shape.strideH = take("Hstride", stride);
    shape.dilationW = take("Wdilation", dilation);
    shape.dilationH = take("Hdilation", dilation);
    problem = makeConv(shape);
  }
  if (!values.empty()) {
    return makeError("'" + values.begin()->first + "' is not a size of a " +
                     kind + " layer");
  }
  return problem;
}

} // namespace marlmap
