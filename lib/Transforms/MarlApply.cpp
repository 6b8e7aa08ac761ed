//===- MarlApply.cpp - Rewrite mapped ops into their loops ----------------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "llvm/Support/FormatVariadic.h"

namespace marlmap {
#define GEN_PASS_DEF_MARLAPPLY
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

/// One tiling of an op: loops over the dims with a non-zero size.
struct TileStep {
  SmallVector<int64_t> sizes;
  SmallVector<int64_t> interchange;
  bool forall = false;
  SmallVector<Attribute> mapping;
};

/// The tilings that materialize `mapping`, outermost first: per storage level
/// from the outermost inwards, a temporal band in the level's order, then the
/// spatial reduction factors as sequential loops, then the spatial parallel
/// factors as one scf.forall on the array.
SmallVector<TileStep> planTiling(const Problem &problem, const Mapping &mapping,
                                 MLIRContext *context) {
  const unsigned numDims = problem.dims.size();
  // The tile of every level: all factors at or below it.
  std::vector<std::vector<int64_t>> extent(mapping.levels.size());
  for (unsigned l = 0; l < mapping.levels.size(); ++l)
    for (unsigned d = 0; d < numDims; ++d) {
      const LevelMapping &level = mapping.levels[l];
      int64_t below = l == 0 ? 1 : extent[l - 1][d];
      extent[l].push_back(below * level.temporal[d] * level.spatialX[d] *
                          level.spatialY[d]);
    }
  SmallVector<TileStep> steps;
  for (unsigned l = mapping.levels.size(); l-- > 0;) {
    const LevelMapping &level = mapping.levels[l];
    TileStep temporal, reduction, parallel;
    temporal.sizes.assign(numDims, 0);
    reduction.sizes.assign(numDims, 0);
    parallel.sizes.assign(numDims, 0);
    temporal.interchange.assign(level.order.begin(), level.order.end());
    parallel.forall = true;
    unsigned onX = 0, onY = 0;
    for (unsigned d = 0; d < numDims; ++d) {
      int64_t inner = l == 0 ? 1 : extent[l - 1][d];
      int64_t spatial = level.spatialX[d] * level.spatialY[d];
      if (level.temporal[d] > 1)
        temporal.sizes[d] = inner * spatial;
      if (spatial == 1)
        continue;
      if (problem.dims[d].kind == LoopKind::Reduction) {
        reduction.sizes[d] = inner;
        continue;
      }
      parallel.sizes[d] = inner;
      bool alongX = level.spatialX[d] > 1;
      parallel.mapping.push_back(accel::ArrayMappingAttr::get(
          context, alongX ? accel::ArrayAxis::x : accel::ArrayAxis::y,
          alongX ? onX++ : onY++));
    }
    for (TileStep *step : {&temporal, &reduction, &parallel})
      if (llvm::any_of(step->sizes, [](int64_t s) { return s != 0; }))
        steps.push_back(std::move(*step));
  }
  return steps;
}

/// Tiles `op` as `step` says and returns the op on the tile; null on failure.
Operation *tile(RewriterBase &rewriter, TilingInterface op,
                const TileStep &step) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), step.sizes));
  if (!step.interchange.empty())
    options.setInterchange(step.interchange);
  options.setLoopType(step.forall ? scf::SCFTilingOptions::LoopType::ForallOp
                                  : scf::SCFTilingOptions::LoopType::ForOp);
  if (!step.mapping.empty())
    options.setMapping(step.mapping);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(tiled))
    return nullptr;
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

/// Writes the transform-dialect steps that tile the op tagged `id`.
void writeTransformSteps(llvm::raw_ostream &os, int64_t id,
                         ArrayRef<TileStep> steps) {
  std::string handle = llvm::formatv("%op{0}", id);
  os << "    " << handle << " = transform.structured.match attributes {"
     << accel::AccelDialect::kOpIdAttrName << " = " << id
     << " : i64} in %root : (!transform.any_op) -> !transform.any_op\n";
  for (auto [index, step] : llvm::enumerate(steps)) {
    std::string tiled = llvm::formatv("%op{0}_{1}", id, index);
    std::string loops = llvm::formatv("%loops{0}_{1}", id, index);
    size_t numLoops =
        step.forall
            ? 1
            : llvm::count_if(step.sizes, [](int64_t s) { return s != 0; });
    os << "    " << tiled << ", " << loops;
    if (numLoops > 1)
      os << ":" << numLoops;
    os << " = transform.structured."
       << (step.forall ? "tile_using_forall " : "tile_using_for ") << handle
       << " tile_sizes [";
    llvm::interleaveComma(step.sizes, os);
    os << "]";
    if (!step.forall && !step.interchange.empty()) {
      os << " interchange = [";
      llvm::interleaveComma(step.interchange, os);
      os << "]";
    }
    if (!step.mapping.empty()) {
      os << " (mapping = [";
      llvm::interleaveComma(step.mapping, os);
      os << "])";
    }
    os << " : (!transform.any_op) -> (!transform.any_op";
    for (size_t i = 0; i < numLoops; ++i)
      os << ", !transform.any_op";
    os << ")\n";
    handle = tiled;
  }
}

struct MarlApplyPass : public marlmap::impl::MarlApplyBase<MarlApplyPass> {
  using MarlApplyBase::MarlApplyBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);
    const bool scriptOnly = !transformScript.empty();
    std::string script;
    llvm::raw_string_ostream scriptStream(script);
    int64_t nextId = 0;
    // Ops --marl-map would have mapped that carry no mapping: a pass run in
    // between (generalisation, say) drops the attributes.
    unsigned unmapped = 0;
    const bool targeted = module->hasAttr(accel::AccelDialect::kTargetAttrName);
    for (linalg::LinalgOp op : collectLinalgOps(module)) {
      auto attr = op->getAttrOfType<accel::MappingAttr>(
          accel::AccelDialect::kMappingAttrName);
      if (!attr) {
        unmapped += targeted && !readsNoTensor(op) &&
                    !llvm::errorToBool(extractProblem(op).takeError());
        continue;
      }
      llvm::Expected<Problem> problem = extractProblem(op);
      if (!problem) {
        emitRemark(op->getLoc())
            << "not rewritten: " << llvm::toString(problem.takeError());
        continue;
      }
      Mapping mapping =
          accel::toCore(attr, problem->dims.size(), problem->operands.size());
      SmallVector<TileStep> steps = planTiling(*problem, mapping, context);
      op->removeAttr(accel::AccelDialect::kMappingAttrName);
      op->removeAttr(accel::AccelDialect::kCostAttrName);
      if (scriptOnly) {
        int64_t id = nextId++;
        op->setAttr(accel::AccelDialect::kOpIdAttrName,
                    IntegerAttr::get(IntegerType::get(context, 64), id));
        writeTransformSteps(scriptStream, id, steps);
        continue;
      }
      Location loc = op->getLoc();
      // The interface comes from linalg's external models, which a tool
      // registers with marlmap's dialects (registerMarlmapDialects).
      if (!isa<TilingInterface>(op.getOperation())) {
        emitError(loc) << "cannot tile this op: '" << op->getName()
                       << "' does not implement TilingInterface in this "
                          "context (register linalg's tiling models, as "
                          "marlmap::registerMarlmapDialects does)";
        return signalPassFailure();
      }
      Operation *current = op;
      for (const TileStep &step : steps) {
        auto tileable = dyn_cast<TilingInterface>(current);
        if (!tileable || !(current = tile(rewriter, tileable, step))) {
          current = nullptr;
          break;
        }
      }
      if (!current) {
        emitError(loc) << "cannot tile the op as its mapping says";
        return signalPassFailure();
      }
    }
    if (unmapped)
      emitWarning(module.getLoc())
          << "marl-apply: " << unmapped
          << (unmapped == 1 ? " mappable linalg op of this module carries"
                            : " mappable linalg ops of this module carry")
          << " no mapping, and keep their loops "
             "(did a pass between --marl-map and --marl-apply drop the "
             "accel.mapping attributes?)";
    if (scriptOnly && failed(writeScript(script)))
      return signalPassFailure();
  }

  /// Wraps the steps in the named sequence the transform interpreter runs.
  LogicalResult writeScript(StringRef steps) {
    auto write = [&](llvm::raw_ostream &os) {
      os << "// Tiles every op marl-apply tagged with "
         << accel::AccelDialect::kOpIdAttrName << " as its mapping says.\n"
         << "module attributes {transform.with_named_sequence} {\n"
         << "  transform.named_sequence @__transform_main(%root: "
            "!transform.any_op {transform.readonly}) {\n"
         << steps << "    transform.yield\n  }\n}\n";
    };
    if (llvm::Error error = writeOutputFile(transformScript, write)) {
      emitError(getOperation().getLoc())
          << "cannot write the transform script: "
          << llvm::toString(std::move(error));
      return failure();
    }
    return success();
  }
};

} // namespace
