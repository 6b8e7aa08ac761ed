//===- Mappability.cpp - Which linalg ops can be mapped -------------------===//

#include "marlmap/Analysis/Mappability.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace marlmap {

/// True when `expr` is a sum of constant multiples of loop dimensions plus a
/// constant: the projections a sliding window, stride or broadcast makes.
static bool isAffineSumOfDims(AffineExpr expr) {
  if (isa<AffineDimExpr, AffineConstantExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return isAffineSumOfDims(binary.getLHS()) &&
           isAffineSumOfDims(binary.getRHS());
  case AffineExprKind::Mul:
    // MLIR keeps the constant on the right of a product.
    return isa<AffineConstantExpr>(binary.getRHS()) &&
           isAffineSumOfDims(binary.getLHS());
  default:
    return false;
  }
}

std::optional<std::string> whyNotMappable(linalg::LinalgOp op) {
  if (op.getNumLoops() == 0)
    return std::string("it has no loops");
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (shaped && !shaped.hasStaticShape())
      return "operand #" + std::to_string(operand.getOperandNumber()) +
             " has a dynamic shape";
  }
  if (llvm::none_of(op.getDpsInputOperands(), [](OpOperand *operand) {
        return isa<ShapedType>(operand->get().getType());
      }))
    return std::string("it reads no tensor (it only fills its output)");
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumSymbols() != 0)
      return "the indexing map of operand #" +
             std::to_string(operand.getOperandNumber()) + " uses symbols";
    for (AffineExpr result : map.getResults()) {
      if (isAffineSumOfDims(result))
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the indexing map of operand #" << operand.getOperandNumber()
         << " has the result '" << result
         << "', which is not a sum of loop dimensions";
      return text;
    }
  }
  return std::nullopt;
}

TensorRole operandRole(linalg::LinalgOp op, unsigned operandNumber) {
  if (operandNumber >= op.getNumDpsInputs())
    return TensorRole::Outputs;
  return operandNumber == 0 ? TensorRole::Inputs : TensorRole::Weights;
}

} // namespace marlmap
