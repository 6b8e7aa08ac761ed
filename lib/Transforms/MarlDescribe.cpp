//===- MarlDescribe.cpp - Print the target and the mappable ops -----------===//

#include "marlmap/Analysis/Mappability.h"
#include "marlmap/Core/ArchReport.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

namespace marlmap {
#define GEN_PASS_DEF_MARLDESCRIBE
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

/// "file.mlir:12:5" for a file location, the location as MLIR prints it
/// otherwise.
std::string shortLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(fileLoc.getFilename().getValue()) + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

void describeOp(linalg::LinalgOp op, unsigned index, llvm::raw_ostream &os) {
  os << "  #" << index << " " << op->getName() << " at "
     << shortLocation(op->getLoc()) << ": ";
  if (std::optional<std::string> reason = whyNotMappable(op)) {
    os << "not mappable: " << *reason << "\n";
    return;
  }
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned reductions = op.getNumReductionLoops();
  os << "loops [" << llvm::join(llvm::map_range(bounds,
                                                [](int64_t b) {
                                                  return std::to_string(b);
                                                }),
                                ", ")
     << "] (" << bounds.size() - reductions << " parallel, " << reductions
     << " reduction)\n";
}

struct MarlDescribePass
    : public marlmap::impl::MarlDescribeBase<MarlDescribePass> {
  using MarlDescribeBase::MarlDescribeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<accel::ResolvedTarget> target =
        accel::resolveTarget(module, arch);
    if (failed(target))
      return signalPassFailure();

    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(output, &error);
    if (!file) {
      emitError(module.getLoc()) << "cannot write the description: " << error;
      return signalPassFailure();
    }
    llvm::raw_ostream &os = file->os();
    os << "target (" << target->source << ") " << formatArch(target->arch);

    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    unsigned mappable = llvm::count_if(
        ops, [](linalg::LinalgOp op) { return !whyNotMappable(op); });
    os << "linalg ops: " << ops.size() << ", mappable: " << mappable << "\n";
    for (auto [index, op] : llvm::enumerate(ops))
      describeOp(op, index, os);
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
