//===- ComputeOps.cpp - Convolutions, matmuls and pooling as named ops ----===//

#include "marlmap/Import/NetworkBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace marlmap {

namespace {

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// A window's outputs along one dim, or 0 when it does not fit.
int64_t windowOutputs(int64_t extent, int64_t kernel, int64_t stride,
                      int64_t dilation) {
  const int64_t reach = dilation * (kernel - 1) + 1;
  return extent < reach || stride < 1 ? 0 : (extent - reach) / stride + 1;
}

/// A window's outputs along the two spatial dims of an NCHW `extents`;
/// false when it fits along neither.
bool windowsFit(ArrayRef<int64_t> extents, const int64_t (&kernel)[2],
                const int64_t (&strides)[2], const int64_t (&dilations)[2],
                int64_t (&out)[2]) {
  for (unsigned i = 0; i < 2; ++i) {
    out[i] = kernel[i] < 1 ? 0
                           : windowOutputs(extents[2 + i], kernel[i],
                                           strides[i], dilations[i]);
    if (!out[i])
      return false;
  }
  return true;
}

DenseIntElementsAttr pairAttr(OpBuilder &builder, const int64_t (&pair)[2]) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({2}, builder.getI64Type()),
      ArrayRef<int64_t>{pair[0], pair[1]});
}

} // namespace

FailureOr<Value> NetworkBuilder::convolution(Location location, Value input,
                                             Value weight,
                                             std::optional<Value> bias,
                                             const ConvolutionParams &params) {
  ArrayRef<int64_t> in = shapeOf(input), filters = shapeOf(weight);
  const int64_t groups = params.groups;
  if (in.size() != 4 || filters.size() != 4)
    return emitError(location)
           << "a 2-d convolution takes a 4-d input and "
              "weight, not "
           << in.size() << "-d and " << filters.size() << "-d";
  if (groups < 1 || in[1] % groups || filters[0] % groups ||
      filters[1] * groups != in[1])
    return emitError(location)
           << "a weight of " << filters[0] << " x " << filters[1]
           << " channels does not split an input of " << in[1]
           << " channels into " << groups << " groups";
  for (unsigned i = 0; i < 2; ++i)
    if (params.padding[i] < 0 || params.strides[i] < 1 ||
        params.dilations[i] < 1)
      return emitError(location) << "negative padding, or a stride or "
                                    "dilation below 1";
  FailureOr<Value> padded =
      padSpatial(location, input, params.padding, params.padding, 0.0);
  const int64_t kernel[2] = {filters[2], filters[3]};
  int64_t out[2];
  if (failed(padded))
    return failure();
  if (!windowsFit(shapeOf(*padded), kernel, params.strides, params.dilations,
                  out))
    return emitError(location) << "the window does not fit the padded input";
  FailureOr<Value> output =
      groups == 1 ? convolutionOnly(location, *padded, weight, params, out)
                  : groupedConvolution(location, *padded, weight, params, out);
  if (failed(output) || !bias)
    return output;
  if (shapeOf(*bias) != ArrayRef<int64_t>{filters[0]})
    return emitError(location) << "the bias has not one element per filter";
  FailureOr<Value> column =
      reshape(location, *bias, ArrayRef<int64_t>{filters[0], 1, 1});
  if (failed(column))
    return failure();
  return elementwise(location, Elementwise::Add, {*output, *column});
}

FailureOr<Value> NetworkBuilder::padSpatial(Location location, Value input,
                                            const int64_t (&before)[2],
                                            const int64_t (&after)[2],
                                            double value) {
  if (!before[0] && !before[1] && !after[0] && !after[1])
    return input;
  const int64_t low[4] = {0, 0, before[0], before[1]};
  const int64_t high[4] = {0, 0, after[0], after[1]};
  return pad(location, input, low, high, value);
}

FailureOr<Value>
NetworkBuilder::convolutionOnly(Location location, Value input, Value weight,
                                const ConvolutionParams &params,
                                ArrayRef<int64_t> out) {
  ArrayRef<int64_t> in = shapeOf(input), filters = shapeOf(weight);
  const SmallVector<int64_t> shape = {in[0], filters[0], out[0], out[1]};
  Value init = zeros(location, shape, 0.0);
  return linalg::Conv2DNchwFchwOp::create(
             builder, location, TypeRange{tensorOf(shape)},
             ValueRange{input, weight}, ValueRange{init},
             pairAttr(builder, params.strides),
             pairAttr(builder, params.dilations))
      .getResult(0);
}

FailureOr<Value>
NetworkBuilder::groupedConvolution(Location location, Value input, Value weight,
                                   const ConvolutionParams &params,
                                   ArrayRef<int64_t> out) {
  ArrayRef<int64_t> in = shapeOf(input), filters = shapeOf(weight);
  const int64_t groups = params.groups;
  // One channel and one filter per group: a depthwise convolution.
  if (filters[1] == 1 && filters[0] == groups) {
    FailureOr<Value> planes = reshape(
        location, weight, ArrayRef<int64_t>{groups, filters[2], filters[3]});
    if (failed(planes))
      return failure();
    const SmallVector<int64_t> shape = {in[0], groups, out[0], out[1]};
    Value init = zeros(location, shape, 0.0);
    return linalg::DepthwiseConv2DNchwChwOp::create(
               builder, location, TypeRange{tensorOf(shape)},
               ValueRange{input, *planes}, ValueRange{init},
               pairAttr(builder, params.strides),
               pairAttr(builder, params.dilations))
        .getResult(0);
  }
  FailureOr<Value> split =
      reshape(location, input,
              ArrayRef<int64_t>{in[0], groups, in[1] / groups, in[2], in[3]});
  FailureOr<Value> perGroup =
      reshape(location, weight,
              ArrayRef<int64_t>{groups, filters[0] / groups, filters[1],
                                filters[2], filters[3]});
  if (failed(split) || failed(perGroup))
    return failure();
  const SmallVector<int64_t> shape = {in[0], groups, filters[0] / groups,
                                      out[0], out[1]};
  Value init = zeros(location, shape, 0.0);
  Value grouped = linalg::Conv2DNgchwGfchwOp::create(
                      builder, location, TypeRange{tensorOf(shape)},
                      ValueRange{*split, *perGroup}, ValueRange{init},
                      pairAttr(builder, params.strides),
                      pairAttr(builder, params.dilations))
                      .getResult(0);
  return reshape(location, grouped,
                 ArrayRef<int64_t>{in[0], filters[0], out[0], out[1]});
}

FailureOr<Value> NetworkBuilder::matmul(Location location, Value a, Value b,
                                        bool transposeB) {
  ArrayRef<int64_t> left = shapeOf(a), right = shapeOf(b);
  const size_t rank = left.size();
  if ((rank != 2 && rank != 3) || right.size() != rank)
    return emitError(location) << "a matmul takes two 2-d or two 3-d operands";
  const unsigned batch = rank - 2;
  const int64_t m = left[batch], k = left[batch + 1];
  const int64_t n = transposeB ? right[batch] : right[batch + 1];
  const int64_t kRight = transposeB ? right[batch + 1] : right[batch];
  if (k != kRight || (batch && left[0] != right[0]))
    return emitError(location)
           << "the matmul's operands do not agree: " << left << " and " << right
           << (transposeB ? " (transposed)" : "");
  SmallVector<int64_t> shape;
  if (batch)
    shape.push_back(left[0]);
  shape.append({m, n});
  Value init = zeros(location, shape, 0.0);
  Operation *product;
  if (batch)
    product = linalg::BatchMatmulOp::create(builder, location,
                                            TypeRange{tensorOf(shape)},
                                            ValueRange{a, b}, ValueRange{init});
  else
    product =
        linalg::MatmulOp::create(builder, location, TypeRange{tensorOf(shape)},
                                 ValueRange{a, b}, ValueRange{init});
  if (transposeB) {
    // The loops (batch,) m, n, k; b is read at (batch,) n, k.
    MLIRContext *mlir = &context;
    SmallVector<AffineExpr> loops;
    for (unsigned d = 0; d < rank + 1; ++d)
      loops.push_back(getAffineDimExpr(d, mlir));
    auto mapOf = [&](ArrayRef<unsigned> picks) {
      SmallVector<AffineExpr> results;
      for (unsigned pick : picks)
        results.push_back(loops[pick]);
      return AffineMapAttr::get(AffineMap::get(rank + 1, 0, results, mlir));
    };
    SmallVector<Attribute> maps;
    if (batch)
      maps = {mapOf({0, 1, 3}), mapOf({0, 2, 3}), mapOf({0, 1, 2})};
    else
      maps = {mapOf({0, 2}), mapOf({1, 2}), mapOf({0, 1})};
    product->setAttr("indexing_maps", ArrayAttr::get(mlir, maps));
  }
  return product->getResult(0);
}

FailureOr<Value> NetworkBuilder::pool(Location location, bool max, Value input,
                                      const PoolingParams &params) {
  ArrayRef<int64_t> in = shapeOf(input);
  if (in.size() != 4)
    return emitError(location)
           << "2-d pooling takes a 4-d input, not " << in.size() << "-d";
  // Padding never wins a max.
  FailureOr<Value> padding =
      padSpatial(location, input, params.padBefore, params.padAfter,
                 max ? -std::numeric_limits<double>::infinity() : 0.0);
  int64_t out[2];
  if (failed(padding))
    return failure();
  const Value padded = *padding;
  if (!windowsFit(shapeOf(padded), params.kernel, params.strides,
                  params.dilations, out))
    return emitError(location) << "the window does not fit the padded input";
  const SmallVector<int64_t> shape = {in[0], in[1], out[0], out[1]};
  Value init = zeros(location, shape,
                     max ? -std::numeric_limits<double>::infinity() : 0.0);
  Value window = tensor::EmptyOp::create(
      builder, location, ArrayRef<int64_t>{params.kernel[0], params.kernel[1]},
      Float32Type::get(&context));
  // Owned here: a ValueRange of a braced list would outlive the list.
  const SmallVector<Value> ins = {padded, window}, outs = {init};
  const SmallVector<Type> types = {tensorOf(shape)};
  if (max)
    return linalg::PoolingNchwMaxOp::create(builder, location, types, ins, outs,
                                            pairAttr(builder, params.strides),
                                            pairAttr(builder, params.dilations))
        .getResult(0);
  Value sum =
      linalg::PoolingNchwSumOp::create(builder, location, types, ins, outs,
                                       pairAttr(builder, params.strides),
                                       pairAttr(builder, params.dilations))
          .getResult(0);
  return elementwise(location, Elementwise::Div,
                     {sum, double(params.kernel[0] * params.kernel[1])});
}

} // namespace marlmap
