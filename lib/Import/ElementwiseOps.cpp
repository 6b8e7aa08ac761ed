//===- ElementwiseOps.cpp - Elementwise ops and reductions as generics ----===//
//
// Each call is one linalg.generic: broadcasting is in its indexing maps (a
// dim of 1 reads index 0), the arithmetic in its body.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Import/NetworkBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace marlmap {

namespace {

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// The body of an elementwise op: `kind` of `x` and `y` (y is null for one
/// operand).
Value applyElementwise(OpBuilder &b, Location loc, Elementwise kind, Value x,
                       Value y) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(value)));
  };
  auto sigmoid = [&](Value v) -> Value {
    Value negated = arith::NegFOp::create(b, loc, v);
    Value denominator = arith::AddFOp::create(
        b, loc, constant(1.0), math::ExpOp::create(b, loc, negated));
    return arith::DivFOp::create(b, loc, constant(1.0), denominator);
  };
  auto hardSigmoid = [&](Value v) -> Value {
    Value line = arith::AddFOp::create(
        b, loc, arith::DivFOp::create(b, loc, v, constant(6.0)), constant(0.5));
    Value low = arith::MaximumFOp::create(b, loc, line, constant(0.0));
    return arith::MinimumFOp::create(b, loc, low, constant(1.0));
  };
  switch (kind) {
  case Elementwise::Copy:
    return x;
  case Elementwise::Add:
    return arith::AddFOp::create(b, loc, x, y);
  case Elementwise::Sub:
    return arith::SubFOp::create(b, loc, x, y);
  case Elementwise::Mul:
    return arith::MulFOp::create(b, loc, x, y);
  case Elementwise::Div:
    return arith::DivFOp::create(b, loc, x, y);
  case Elementwise::Max:
    return arith::MaximumFOp::create(b, loc, x, y);
  case Elementwise::Min:
    return arith::MinimumFOp::create(b, loc, x, y);
  case Elementwise::Relu:
    return arith::MaximumFOp::create(b, loc, x, constant(0.0));
  case Elementwise::Sigmoid:
    return sigmoid(x);
  case Elementwise::Tanh:
    return math::TanhOp::create(b, loc, x);
  case Elementwise::Exp:
    return math::ExpOp::create(b, loc, x);
  case Elementwise::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case Elementwise::Rsqrt:
    return math::RsqrtOp::create(b, loc, x);
  case Elementwise::Neg:
    return arith::NegFOp::create(b, loc, x);
  case Elementwise::Gelu: {
    Value scaled = arith::MulFOp::create(b, loc, x, constant(M_SQRT1_2));
    Value onePlus = arith::AddFOp::create(b, loc, constant(1.0),
                                          math::ErfOp::create(b, loc, scaled));
    Value half = arith::MulFOp::create(b, loc, x, constant(0.5));
    return arith::MulFOp::create(b, loc, half, onePlus);
  }
  case Elementwise::GeluTanh: {
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value inner = arith::AddFOp::create(
        b, loc, x, arith::MulFOp::create(b, loc, cube, constant(0.044715)));
    Value scaled =
        arith::MulFOp::create(b, loc, inner, constant(std::sqrt(2.0 / M_PI)));
    Value onePlus = arith::AddFOp::create(b, loc, constant(1.0),
                                          math::TanhOp::create(b, loc, scaled));
    Value half = arith::MulFOp::create(b, loc, x, constant(0.5));
    return arith::MulFOp::create(b, loc, half, onePlus);
  }
  case Elementwise::Silu:
    return arith::MulFOp::create(b, loc, x, sigmoid(x));
  case Elementwise::HardSigmoid:
    return hardSigmoid(x);
  case Elementwise::HardSwish:
    return arith::MulFOp::create(b, loc, x, hardSigmoid(x));
  }
  return x;
}

/// How many tensor operands `kind` reads.
unsigned arity(Elementwise kind) {
  switch (kind) {
  case Elementwise::Add:
  case Elementwise::Sub:
  case Elementwise::Mul:
  case Elementwise::Div:
  case Elementwise::Max:
  case Elementwise::Min:
    return 2;
  default:
    return 1;
  }
}

} // namespace

FailureOr<Value>
NetworkBuilder::elementwise(Location location, Elementwise kind,
                            ArrayRef<ElementwiseOperand> operands) {
  return elementwiseTo(location, kind, operands, std::nullopt);
}

FailureOr<Value> NetworkBuilder::broadcast(Location location, Value input,
                                           ArrayRef<int64_t> shape) {
  return elementwiseTo(location, Elementwise::Copy, {input}, shape);
}

FailureOr<Value>
NetworkBuilder::elementwiseTo(Location location, Elementwise kind,
                              ArrayRef<ElementwiseOperand> operands,
                              std::optional<ArrayRef<int64_t>> resultShape) {
  if (operands.size() != arity(kind))
    return emitError(location) << "an elementwise op of " << arity(kind)
                               << " operands was given " << operands.size();
  // The result's shape: numpy's broadcast of the tensor operands (and of
  // the shape asked for).
  SmallVector<int64_t> shape;
  if (resultShape)
    shape.assign(resultShape->begin(), resultShape->end());
  SmallVector<Value> tensors;
  for (const ElementwiseOperand &operand : operands) {
    if (!std::holds_alternative<Value>(operand))
      continue;
    Value tensor = std::get<Value>(operand);
    tensors.push_back(tensor);
    ArrayRef<int64_t> own = shapeOf(tensor);
    if (own.size() > shape.size())
      shape.insert(shape.begin(), own.size() - shape.size(), 1);
    if (resultShape && own.size() > resultShape->size())
      return emitError(location) << "a broadcast to fewer dims";
    for (size_t i = 0; i < own.size(); ++i) {
      int64_t &into = shape[shape.size() - own.size() + i];
      if (into == 1 && !resultShape)
        into = own[i];
      else if (own[i] != 1 && own[i] != into)
        return emitError(location) << "operands of shapes that do not "
                                      "broadcast together";
    }
  }
  if (tensors.empty())
    return emitError(location) << "an elementwise op with no tensor operand";
  MLIRContext *mlir = &context;
  const unsigned rank = shape.size();
  SmallVector<AffineMap> maps;
  for (Value tensor : tensors) {
    ArrayRef<int64_t> own = shapeOf(tensor);
    SmallVector<AffineExpr> reads;
    for (size_t i = 0; i < own.size(); ++i) {
      const unsigned dim = rank - own.size() + i;
      reads.push_back(own[i] == 1 && shape[dim] != 1
                          ? getAffineConstantExpr(0, mlir)
                          : getAffineDimExpr(dim, mlir));
    }
    maps.push_back(AffineMap::get(rank, 0, reads, mlir));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, mlir));
  Value init =
      tensor::EmptyOp::create(builder, location, shape, Float32Type::get(mlir));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location loc, ValueRange arguments) {
    // The operands in their order, scalars as constants.
    SmallVector<Value> values;
    unsigned next = 0;
    for (const ElementwiseOperand &operand : operands)
      values.push_back(
          std::holds_alternative<Value>(operand)
              ? arguments[next++]
              : Value(arith::ConstantOp::create(
                    b, loc,
                    b.getF32FloatAttr(float(std::get<double>(operand))))));
    Value result = applyElementwise(b, loc, kind, values[0],
                                    values.size() > 1 ? values[1] : Value());
    linalg::YieldOp::create(b, loc, result);
  };
  return linalg::GenericOp::create(builder, location, TypeRange{init.getType()},
                                   tensors, ValueRange{init}, maps, iterators,
                                   body)
      .getResult(0);
}

FailureOr<Value> NetworkBuilder::clamp(Location location, Value x,
                                       std::optional<double> low,
                                       std::optional<double> high) {
  Value result = x;
  if (low) {
    FailureOr<Value> bounded =
        elementwise(location, Elementwise::Max, {result, *low});
    if (failed(bounded))
      return failure();
    result = *bounded;
  }
  if (high)
    return elementwise(location, Elementwise::Min, {result, *high});
  return result;
}

FailureOr<Value> NetworkBuilder::batchNorm(Location location, Value input,
                                           Value mean, Value variance,
                                           std::optional<Value> weight,
                                           std::optional<Value> bias,
                                           double epsilon) {
  ArrayRef<int64_t> shape = shapeOf(input);
  if (shape.size() < 2)
    return emitError(location) << "a batch norm of an input with no channel "
                                  "dim";
  SmallVector<Value> perChannel = {mean, variance};
  if (weight)
    perChannel.push_back(*weight);
  if (bias)
    perChannel.push_back(*bias);
  for (Value operand : perChannel)
    if (shapeOf(operand) != ArrayRef<int64_t>{shape[1]})
      return emitError(location) << "a batch norm's statistics and affine "
                                    "parameters must hold one value per "
                                    "channel ("
                                 << shape[1] << ")";
  MLIRContext *mlir = &context;
  const unsigned rank = shape.size();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, mlir);
  AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, mlir));
  SmallVector<AffineMap> maps = {identity};
  maps.append(perChannel.size(), channel);
  maps.push_back(identity);
  SmallVector<Value> inputs = {input};
  inputs.append(perChannel.begin(), perChannel.end());
  Value init =
      tensor::EmptyOp::create(builder, location, shape, Float32Type::get(mlir));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location loc, ValueRange arguments) {
    Value eps =
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(float(epsilon)));
    Value centered = arith::SubFOp::create(b, loc, arguments[0], arguments[1]);
    Value scale = math::RsqrtOp::create(
        b, loc, arith::AddFOp::create(b, loc, arguments[2], eps));
    Value result = arith::MulFOp::create(b, loc, centered, scale);
    unsigned next = 3;
    if (weight)
      result = arith::MulFOp::create(b, loc, result, arguments[next++]);
    if (bias)
      result = arith::AddFOp::create(b, loc, result, arguments[next++]);
    linalg::YieldOp::create(b, loc, result);
  };
  return linalg::GenericOp::create(builder, location, TypeRange{init.getType()},
                                   inputs, ValueRange{init}, maps, iterators,
                                   body)
      .getResult(0);
}

FailureOr<Value> NetworkBuilder::reduce(Location location, Reduction kind,
                                        Value input, ArrayRef<int64_t> dims,
                                        bool keepDims) {
  ArrayRef<int64_t> in = shapeOf(input);
  const unsigned rank = in.size();
  SmallVector<bool> reduced(rank, false);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank || reduced[dim])
      return emitError(location) << "reduced dims out of range or repeated";
    reduced[dim] = true;
  }
  MLIRContext *mlir = &context;
  SmallVector<int64_t> kept;
  SmallVector<AffineExpr> writes;
  SmallVector<utils::IteratorType> iterators;
  int64_t count = 1;
  for (unsigned d = 0; d < rank; ++d) {
    iterators.push_back(reduced[d] ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (reduced[d]) {
      count *= in[d];
      continue;
    }
    kept.push_back(in[d]);
    writes.push_back(getAffineDimExpr(d, mlir));
  }
  const bool max = kind == Reduction::Max;
  Value init =
      zeros(location, kept, max ? -std::numeric_limits<double>::infinity() : 0);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, mlir),
                                 AffineMap::get(rank, 0, writes, mlir)};
  auto body = [&](OpBuilder &b, Location loc, ValueRange arguments) {
    Value combined =
        max ? Value(
                  arith::MaximumFOp::create(b, loc, arguments[0], arguments[1]))
            : Value(arith::AddFOp::create(b, loc, arguments[0], arguments[1]));
    linalg::YieldOp::create(b, loc, combined);
  };
  Value result = linalg::GenericOp::create(
                     builder, location, TypeRange{init.getType()},
                     ValueRange{input}, ValueRange{init}, maps, iterators, body)
                     .getResult(0);
  if (kind == Reduction::Mean) {
    FailureOr<Value> mean =
        elementwise(location, Elementwise::Div, {result, double(count)});
    if (failed(mean))
      return failure();
    result = *mean;
  }
  if (!keepDims)
    return result;
  SmallVector<int64_t> shape(in.begin(), in.end());
  for (unsigned d = 0; d < rank; ++d)
    if (reduced[d])
      shape[d] = 1;
  return reshape(location, result, shape);
}

} // namespace marlmap
