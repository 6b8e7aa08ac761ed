//===- NetworkBuilder.cpp - The function, its arguments and results -------===//

#include "marlmap/Import/NetworkBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;

namespace marlmap {

NetworkBuilder::NetworkBuilder(MLIRContext &context, StringRef name)
    : context(context), builder(&context) {
  context.loadDialect<arith::ArithDialect, func::FuncDialect,
                      linalg::LinalgDialect, tensor::TensorDialect>();
  const Location unknown = UnknownLoc::get(&context);
  module = ModuleOp::create(unknown);
  builder.setInsertionPointToEnd(module->getBody());
  function = func::FuncOp::create(builder, unknown, name,
                                  builder.getFunctionType({}, {}));
  builder.setInsertionPointToEnd(function.addEntryBlock());
}

NetworkBuilder::~NetworkBuilder() = default;

RankedTensorType NetworkBuilder::tensorOf(ArrayRef<int64_t> shape) const {
  return RankedTensorType::get(shape, Float32Type::get(&context));
}

Value NetworkBuilder::argument(ArrayRef<int64_t> shape, StringRef name,
                               bool integer) {
  Type element = integer ? Type(IntegerType::get(&context, 64))
                         : Type(Float32Type::get(&context));
  Block &body = function.getBody().front();
  Value value = body.addArgument(RankedTensorType::get(shape, element),
                                 NameLoc::get(builder.getStringAttr(name)));
  function.setFunctionType(
      builder.getFunctionType(body.getArgumentTypes(), {}));
  return value;
}

Value NetworkBuilder::zeros(Location location, ArrayRef<int64_t> shape,
                            double value) {
  Value empty = tensor::EmptyOp::create(builder, location, shape,
                                        Float32Type::get(&context));
  Value fill = arith::ConstantOp::create(builder, location,
                                         builder.getF32FloatAttr(float(value)));
  return linalg::FillOp::create(builder, location, fill, empty).getResult(0);
}

FailureOr<Value> NetworkBuilder::constant(Location location,
                                          ArrayRef<int64_t> shape,
                                          ArrayRef<double> values,
                                          bool integer) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  if (values.size() != 1 && int64_t(values.size()) != count)
    return emitError(location)
           << "a constant of " << count << " elements given " << values.size()
           << " values";
  Type element =
      integer ? Type(builder.getI64Type()) : Type(builder.getF32Type());
  auto type = RankedTensorType::get(shape, element);
  DenseElementsAttr attr;
  if (integer) {
    SmallVector<int64_t> numbers(values.begin(), values.end());
    attr = values.size() == 1 ? DenseElementsAttr::get(type, numbers[0])
                              : DenseElementsAttr::get(type, ArrayRef(numbers));
  } else {
    SmallVector<float> numbers(values.begin(), values.end());
    attr = values.size() == 1 ? DenseElementsAttr::get(type, numbers[0])
                              : DenseElementsAttr::get(type, ArrayRef(numbers));
  }
  return arith::ConstantOp::create(builder, location, attr).getResult();
}

FailureOr<OwningOpRef<ModuleOp>>
NetworkBuilder::finish(ArrayRef<Value> results,
                       std::optional<std::string> target) {
  const Location location = function.getLoc();
  func::ReturnOp::create(builder, location, results);
  function.setFunctionType(builder.getFunctionType(
      function.getBody().front().getArgumentTypes(), TypeRange(results)));
  if (target)
    (*module)->setAttr("accel.target", builder.getStringAttr(*target));
  if (failed(verify(*module)))
    return failure();
  return std::move(module);
}

} // namespace marlmap
