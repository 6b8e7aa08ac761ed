//===- ShapeOps.cpp - Shape changes as tensor ops -------------------------===//

#include "marlmap/Import/NetworkBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <set>

using namespace mlir;

namespace marlmap {

namespace {

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// A tensor of `shape` with `like`'s element type (shape changes keep it:
/// index tensors stay i64).
RankedTensorType shaped(ArrayRef<int64_t> shape, Value like) {
  return RankedTensorType::get(
      shape, cast<RankedTensorType>(like.getType()).getElementType());
}

int64_t elementsOf(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// Groups `shape`'s dims by the running product at which each ends, given
/// the products that end the groups (`ends`, increasing): the
/// reassociation of a collapse of `shape` to the groups' products.
SmallVector<ReassociationIndices> groupsEndingAt(ArrayRef<int64_t> shape,
                                                 ArrayRef<int64_t> ends) {
  SmallVector<ReassociationIndices> groups(ends.size());
  int64_t product = 1;
  unsigned group = 0;
  for (unsigned d = 0; d < shape.size(); ++d) {
    product *= shape[d];
    while (product > ends[group])
      ++group;
    groups[group].push_back(d);
  }
  return groups;
}

} // namespace

FailureOr<Value> NetworkBuilder::reshape(Location location, Value input,
                                         ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> from = shapeOf(input);
  if (elementsOf(from) != elementsOf(shape))
    return emitError(location) << "a reshape of " << elementsOf(from)
                               << " elements to " << elementsOf(shape);
  if (from == shape)
    return input;
  const RankedTensorType result = shaped(shape, input);
  if (from.empty() || shape.empty()) { // to or from one element
    if (from.empty())
      return tensor::ExpandShapeOp::create(builder, location, result, input,
                                           ArrayRef<ReassociationIndices>{})
          .getResult();
    return tensor::CollapseShapeOp::create(builder, location, result, input,
                                           ArrayRef<ReassociationIndices>{})
        .getResult();
  }
  // Through the coarsest shape both refine: the running products they
  // share end its dims.
  std::set<int64_t> ownEnds;
  int64_t product = 1;
  for (int64_t extent : from)
    ownEnds.insert(product *= extent);
  SmallVector<int64_t> ends;
  product = 1;
  for (int64_t extent : shape) {
    product *= extent;
    if (ownEnds.count(product) && (ends.empty() || product > ends.back()))
      ends.push_back(product);
  }
  if (ends.empty()) // every extent is 1
    ends.push_back(1);
  SmallVector<int64_t> middle;
  int64_t before = 1;
  for (int64_t end : ends) {
    middle.push_back(end / before);
    before = end;
  }
  Value value = input;
  if (ArrayRef<int64_t>(middle) != from)
    value = tensor::CollapseShapeOp::create(builder, location,
                                            shaped(middle, input), value,
                                            groupsEndingAt(from, ends));
  if (ArrayRef<int64_t>(middle) != shape)
    value = tensor::ExpandShapeOp::create(builder, location, result, value,
                                          groupsEndingAt(shape, ends));
  return value;
}

FailureOr<Value> NetworkBuilder::permute(Location location, Value input,
                                         ArrayRef<int64_t> permutation) {
  ArrayRef<int64_t> from = shapeOf(input);
  SmallVector<int64_t> shape;
  SmallVector<bool> seen(from.size(), false);
  for (int64_t dim : permutation) {
    if (dim < 0 || dim >= int64_t(from.size()) || seen[dim])
      return emitError(location)
             << "not a permutation of the input's " << from.size() << " dims";
    seen[dim] = true;
    shape.push_back(from[dim]);
  }
  if (shape.size() != from.size())
    return emitError(location)
           << "not a permutation of the input's " << from.size() << " dims";
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, from.size())))
    return input;
  Value init = tensor::EmptyOp::create(
      builder, location, shape,
      cast<RankedTensorType>(input.getType()).getElementType());
  return linalg::TransposeOp::create(builder, location, input, init,
                                     permutation)
      .getResult()[0];
}

FailureOr<Value> NetworkBuilder::slice(Location location, Value input,
                                       int64_t dim, int64_t start, int64_t end,
                                       int64_t step) {
  ArrayRef<int64_t> from = shapeOf(input);
  if (dim < 0 || dim >= int64_t(from.size()) || step < 1 || start < 0 ||
      end > from[dim] || start >= end)
    return emitError(location)
           << "a slice [" << start << ":" << end << ":" << step << "] of dim "
           << dim << " that the input does not have";
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0; d < int64_t(from.size()); ++d) {
    const bool sliced = d == dim;
    offsets.push_back(builder.getIndexAttr(sliced ? start : 0));
    sizes.push_back(builder.getIndexAttr(
        sliced ? (end - start + step - 1) / step : from[d]));
    strides.push_back(builder.getIndexAttr(sliced ? step : 1));
  }
  return tensor::ExtractSliceOp::create(builder, location, input, offsets,
                                        sizes, strides)
      .getResult();
}

FailureOr<Value> NetworkBuilder::insertSlice(Location location, Value into,
                                             Value part, int64_t dim,
                                             int64_t start, int64_t step) {
  ArrayRef<int64_t> whole = shapeOf(into), piece = shapeOf(part);
  bool fits = whole.size() == piece.size() && dim >= 0 &&
              dim < int64_t(whole.size()) && step >= 1 && start >= 0;
  for (int64_t d = 0; fits && d < int64_t(whole.size()); ++d)
    fits = d == dim ? start + (piece[d] - 1) * step < whole[d]
                    : piece[d] == whole[d];
  if (!fits)
    return emitError(location)
           << "a slice of shape " << piece << " does not fit at " << start
           << " of dim " << dim << " of " << whole;
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t d = 0; d < int64_t(whole.size()); ++d) {
    offsets.push_back(builder.getIndexAttr(d == dim ? start : 0));
    sizes.push_back(builder.getIndexAttr(piece[d]));
    strides.push_back(builder.getIndexAttr(d == dim ? step : 1));
  }
  return tensor::InsertSliceOp::create(builder, location, part, into, offsets,
                                       sizes, strides)
      .getResult();
}

FailureOr<Value> NetworkBuilder::concat(Location location,
                                        ArrayRef<Value> inputs, int64_t dim) {
  if (inputs.empty())
    return emitError(location) << "a concatenation of nothing";
  ArrayRef<int64_t> first = shapeOf(inputs.front());
  if (dim < 0 || dim >= int64_t(first.size()))
    return emitError(location) << "a concatenation along dim " << dim << " of "
                               << first.size() << "-d tensors";
  for (Value input : inputs) {
    ArrayRef<int64_t> own = shapeOf(input);
    if (own.size() != first.size())
      return emitError(location) << "a concatenation of tensors of "
                                    "different ranks";
    for (int64_t d = 0; d < int64_t(own.size()); ++d)
      if (d != dim && own[d] != first[d])
        return emitError(location) << "a concatenation of tensors that "
                                      "differ beside dim "
                                   << dim;
  }
  if (inputs.size() == 1)
    return inputs.front();
  return tensor::ConcatOp::create(builder, location, dim, inputs).getResult();
}

FailureOr<Value> NetworkBuilder::gather(Location location, Value table,
                                        Value indices) {
  auto tableType = cast<RankedTensorType>(table.getType());
  auto indexType = cast<RankedTensorType>(indices.getType());
  if (tableType.getRank() < 1 || !indexType.getElementType().isInteger(64))
    return emitError(location) << "a gather takes a table of at least one "
                                  "dim and i64 indices";
  // The result's loops: the indices' dims, then the table's other dims.
  SmallVector<int64_t> shape(indexType.getShape());
  shape.append(tableType.getShape().begin() + 1, tableType.getShape().end());
  const unsigned rank = shape.size(), indexRank = indexType.getRank();
  MLIRContext *mlir = &context;
  SmallVector<AffineExpr> reads;
  for (unsigned d = 0; d < indexRank; ++d)
    reads.push_back(getAffineDimExpr(d, mlir));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, reads, mlir),
                                 AffineMap::getMultiDimIdentityMap(rank, mlir)};
  Value init = tensor::EmptyOp::create(builder, location, shape,
                                       tableType.getElementType());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location loc, ValueRange arguments) {
    SmallVector<Value> at = {
        arith::IndexCastOp::create(b, loc, b.getIndexType(), arguments[0])};
    for (unsigned d = indexRank; d < rank; ++d)
      at.push_back(linalg::IndexOp::create(b, loc, d));
    linalg::YieldOp::create(
        b, loc, Value(tensor::ExtractOp::create(b, loc, table, at)));
  };
  return linalg::GenericOp::create(builder, location, TypeRange{init.getType()},
                                   ValueRange{indices}, ValueRange{init}, maps,
                                   iterators, body)
      .getResult(0);
}

FailureOr<Value> NetworkBuilder::pad(Location location, Value input,
                                     ArrayRef<int64_t> before,
                                     ArrayRef<int64_t> after, double value) {
  ArrayRef<int64_t> from = shapeOf(input);
  if (before.size() != from.size() || after.size() != from.size())
    return emitError(location) << "padding for " << before.size()
                               << " dims of a " << from.size() << "-d input";
  if (!cast<RankedTensorType>(input.getType()).getElementType().isF32())
    return emitError(location) << "padding takes an f32 tensor";
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> low, high;
  for (size_t d = 0; d < from.size(); ++d) {
    if (before[d] < 0 || after[d] < 0)
      return emitError(location) << "negative padding";
    shape.push_back(from[d] + before[d] + after[d]);
    low.push_back(builder.getIndexAttr(before[d]));
    high.push_back(builder.getIndexAttr(after[d]));
  }
  Value fill = arith::ConstantOp::create(builder, location,
                                         builder.getF32FloatAttr(float(value)));
  return tensor::PadOp::create(builder, location, shaped(shape, input), input,
                               low, high, fill)
      .getResult();
}

} // namespace marlmap
