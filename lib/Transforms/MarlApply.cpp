//===- MarlApply.cpp - Rewrite mapped ops into their loops ----------------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace marlmap {
#define GEN_PASS_DEF_MARLAPPLY
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

/// Tiles `op` by `sizes` (0: leave the dim alone) into loops of `type`, and
/// returns the op on the tile; null on failure.
Operation *tile(RewriterBase &rewriter, Operation *op, ArrayRef<int64_t> sizes,
                ArrayRef<int64_t> interchange,
                scf::SCFTilingOptions::LoopType type,
                ArrayRef<Attribute> mapping) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  if (!interchange.empty())
    options.setInterchange(interchange);
  options.setLoopType(type);
  if (!mapping.empty())
    options.setMapping(mapping);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled))
    return nullptr;
  rewriter.replaceOp(op, tiled->replacements);
  return tiled->tiledOps.back();
}

struct MarlApplyPass : public marlmap::impl::MarlApplyBase<MarlApplyPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : collectLinalgOps(module)) {
      auto attr = op->getAttrOfType<accel::MappingAttr>(
          accel::AccelDialect::kMappingAttrName);
      if (!attr)
        continue;
      std::string whyNot;
      std::optional<Problem> problem = extractProblem(op, &whyNot);
      if (!problem) {
        emitRemark(op->getLoc()) << "not rewritten: " << whyNot;
        continue;
      }
      const unsigned numDims = problem->dims.size();
      Mapping mapping = accel::toCore(attr, numDims, problem->operands.size());
      // The tile of every level: all factors at or below it.
      std::vector<std::vector<int64_t>> extent(mapping.levels.size());
      for (unsigned l = 0; l < mapping.levels.size(); ++l)
        for (unsigned d = 0; d < numDims; ++d) {
          const LevelMapping &level = mapping.levels[l];
          int64_t below = l == 0 ? 1 : extent[l - 1][d];
          extent[l].push_back(below * level.temporal[d] * level.spatialX[d] *
                              level.spatialY[d]);
        }
      Location loc = op->getLoc();
      Operation *current = op;
      current->removeAttr(accel::AccelDialect::kMappingAttrName);
      current->removeAttr(accel::AccelDialect::kCostAttrName);
      for (unsigned l = mapping.levels.size(); l-- > 0 && current;) {
        const LevelMapping &level = mapping.levels[l];
        SmallVector<int64_t> temporal(numDims, 0), parallel(numDims, 0),
            reduction(numDims, 0);
        SmallVector<Attribute> arrayAxes;
        unsigned onX = 0, onY = 0;
        bool anyTemporal = false, anyParallel = false, anyReduction = false;
        for (unsigned d = 0; d < numDims; ++d) {
          int64_t inner = l == 0 ? 1 : extent[l - 1][d];
          int64_t spatial = level.spatialX[d] * level.spatialY[d];
          if (level.temporal[d] > 1) {
            temporal[d] = inner * spatial;
            anyTemporal = true;
          }
          if (spatial == 1)
            continue;
          if (problem->dims[d].kind == LoopKind::Reduction) {
            reduction[d] = inner;
            anyReduction = true;
            continue;
          }
          parallel[d] = inner;
          anyParallel = true;
          bool alongX = level.spatialX[d] > 1;
          arrayAxes.push_back(accel::ArrayMappingAttr::get(
              context, alongX ? accel::ArrayAxis::x : accel::ArrayAxis::y,
              alongX ? onX++ : onY++));
        }
        SmallVector<int64_t> order(level.order.begin(), level.order.end());
        using LoopType = scf::SCFTilingOptions::LoopType;
        if (current && anyTemporal)
          current =
              tile(rewriter, current, temporal, order, LoopType::ForOp, {});
        if (current && anyReduction)
          current = tile(rewriter, current, reduction, {}, LoopType::ForOp, {});
        if (current && anyParallel)
          current = tile(rewriter, current, parallel, {}, LoopType::ForallOp,
                         arrayAxes);
      }
      if (!current) {
        emitError(loc) << "cannot tile the op as its mapping says";
        return signalPassFailure();
      }
    }
  }
};

} // namespace
