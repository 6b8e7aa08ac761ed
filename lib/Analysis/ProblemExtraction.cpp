//===- ProblemExtraction.cpp - Problems from linalg ops -------------------===//

#include "marlmap/Analysis/ProblemExtraction.h"

#include "marlmap/Analysis/LoopNames.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace marlmap {

/// Adds `scale * expr` to `coordinate` when `expr` is a sum of constant
/// multiples of loop dimensions plus a constant (what a sliding window,
/// stride or broadcast makes); returns false for anything else, and for
/// coefficients that overflow.
static bool addAffineSum(AffineExpr expr, int64_t scale,
                         Coordinate &coordinate) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    coordinate.terms.push_back({dim.getPosition(), scale});
    return true;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    int64_t term;
    return !__builtin_mul_overflow(scale, constant.getValue(), &term) &&
           !__builtin_add_overflow(coordinate.offset, term, &coordinate.offset);
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return addAffineSum(binary.getLHS(), scale, coordinate) &&
           addAffineSum(binary.getRHS(), scale, coordinate);
  case AffineExprKind::Mul:
    // MLIR keeps the constant on the right of a product.
    if (auto factor = dyn_cast<AffineConstantExpr>(binary.getRHS())) {
      int64_t product;
      return !__builtin_mul_overflow(scale, factor.getValue(), &product) &&
             addAffineSum(binary.getLHS(), product, coordinate);
    }
    return false;
  default:
    return false;
  }
}

/// Merges terms on the same dim and drops zero ones: `d0 + d0` is `2 * d0`.
static void canonicalize(Coordinate &coordinate) {
  std::vector<ProjectionTerm> merged;
  for (const ProjectionTerm &term : coordinate.terms) {
    auto same = llvm::find_if(merged, [&](const ProjectionTerm &other) {
      return other.dim == term.dim;
    });
    if (same == merged.end())
      merged.push_back(term);
    else
      same->coefficient += term.coefficient;
  }
  llvm::erase_if(
      merged, [](const ProjectionTerm &term) { return term.coefficient == 0; });
  llvm::sort(merged, [](const ProjectionTerm &a, const ProjectionTerm &b) {
    return a.dim < b.dim;
  });
  coordinate.terms = std::move(merged);
}

bool indexingMapsFitOperands(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (maps.size() != op->getNumOperands())
    return false;
  for (auto [map, operand] : llvm::zip(maps, op->getOpOperands())) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    int64_t rank = shaped ? shaped.getRank() : 0;
    if (map.getNumDims() != maps.front().getNumDims() ||
        int64_t(map.getNumResults()) != rank)
      return false;
  }
  return true;
}

bool readsNoTensor(linalg::LinalgOp op) {
  return llvm::none_of(op.getDpsInputOperands(), [](OpOperand *operand) {
    return isa<ShapedType>(operand->get().getType());
  });
}

/// Why `op` cannot be mapped, if it cannot, from its form alone.
static llvm::Error checkMappable(linalg::LinalgOp op) {
  if (!indexingMapsFitOperands(op))
    return makeError("its indexing maps do not match its operands");
  if (op.getNumLoops() == 0)
    return makeError("it has no loops");
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (shaped && !shaped.hasStaticShape())
      return makeError("operand #" +
                       std::to_string(operand.getOperandNumber()) +
                       " has a dynamic shape");
  }
  if (readsNoTensor(op))
    return makeError("it reads no tensor (it only fills its output)");
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumSymbols() != 0)
      return makeError("the indexing map of operand #" +
                       std::to_string(operand.getOperandNumber()) +
                       " uses symbols");
    for (AffineExpr result : map.getResults()) {
      Coordinate ignored;
      if (addAffineSum(result, 1, ignored))
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the indexing map of operand #" << operand.getOperandNumber()
         << " has the result '" << result
         << "', which is not a sum of loop dimensions";
      return makeError(text);
    }
  }
  return llvm::Error::success();
}

SmallVector<linalg::LinalgOp> collectLinalgOps(Operation *module) {
  SmallVector<linalg::LinalgOp> ops;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module && op->getName().getStringRef() == "builtin.module")
      return WalkResult::skip();
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
      ops.push_back(linalgOp);
    return WalkResult::advance();
  });
  return ops;
}

TensorRole operandRole(linalg::LinalgOp op, unsigned operandNumber) {
  if (operandNumber >= op.getNumDpsInputs())
    return TensorRole::Outputs;
  return operandNumber == 0 ? TensorRole::Inputs : TensorRole::Weights;
}

/// Timeloop's data-space names, numbered when a role repeats.
static std::string operandName(TensorRole role, unsigned repeat) {
  const char *base = role == TensorRole::Inputs    ? "Inputs"
                     : role == TensorRole::Weights ? "Weights"
                                                   : "Outputs";
  return repeat == 0 ? base : base + std::to_string(repeat);
}

llvm::Expected<Problem> extractProblem(linalg::LinalgOp op) {
  if (llvm::Error reason = checkMappable(op))
    return std::move(reason);
  Problem problem;
  problem.name = op->getName().getStringRef().str();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::vector<std::string> names =
      loopNames(problem.name, unsigned(bounds.size()));
  for (auto [index, bound] : llvm::enumerate(bounds))
    problem.dims.push_back({names[index], bound,
                            iterators[index] == utils::IteratorType::reduction
                                ? LoopKind::Reduction
                                : LoopKind::Parallel});

  unsigned seen[kNumTensorRoles] = {0, 0, 0};
  for (OpOperand &opOperand : op->getOpOperands()) {
    unsigned number = opOperand.getOperandNumber();
    Operand operand;
    operand.role = operandRole(op, number);
    operand.name = operandName(operand.role, seen[unsigned(operand.role)]++);
    bool readByBody = op.payloadUsesValueFromOperand(&opOperand);
    if (operand.role != TensorRole::Outputs)
      operand.access = readByBody ? Access::Read : Access::None;
    else
      operand.access = readByBody ? Access::ReadModifyWrite : Access::Write;
    for (AffineExpr result :
         op.getMatchingIndexingMap(&opOperand).getResults()) {
      Coordinate coordinate;
      addAffineSum(result, 1, coordinate);
      canonicalize(coordinate);
      operand.projection.push_back(std::move(coordinate));
    }
    problem.operands.push_back(std::move(operand));
  }
  std::vector<std::string> issues = problem.check();
  if (!issues.empty())
    return makeError(issues.front());
  return problem;
}

} // namespace marlmap
