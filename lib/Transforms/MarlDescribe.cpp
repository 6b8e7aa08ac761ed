//===- MarlDescribe.cpp - Print the target and the mappable ops -----------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/ArchReport.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Transforms/JsonReport.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InterleavedRange.h"
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

/// What the pass reports of one linalg op.
struct OpSummary {
  unsigned index = 0;
  std::string name;
  std::string location;
  SmallVector<int64_t> bounds;
  SmallVector<std::string> iterators;
  /// Why the op cannot be mapped; nullopt when it can.
  std::optional<std::string> reason;
  /// What it computes, when it can be mapped.
  std::optional<Problem> problem;
};

OpSummary summarize(linalg::LinalgOp op, unsigned index) {
  OpSummary summary;
  summary.index = index;
  summary.name = op->getName().getStringRef().str();
  summary.location = shortLocation(op->getLoc());
  std::string reason;
  summary.problem = extractProblem(op, &reason);
  if (!summary.problem) {
    summary.reason = std::move(reason);
    return summary;
  }
  summary.bounds = op.getStaticLoopRanges();
  for (utils::IteratorType kind : op.getIteratorTypesArray())
    summary.iterators.push_back(utils::stringifyIteratorType(kind).str());
  return summary;
}

void printText(const accel::ResolvedTarget &target, ArrayRef<OpSummary> ops,
               unsigned mappable, llvm::raw_ostream &os) {
  os << "target (" << target.source << ") " << formatArch(target.arch);
  os << "linalg ops: " << ops.size() << ", mappable: " << mappable << "\n";
  for (const OpSummary &op : ops) {
    os << "  #" << op.index << " " << op.name << " at " << op.location << ": ";
    if (op.reason) {
      os << "not mappable: " << *op.reason << "\n";
      continue;
    }
    unsigned reductions = llvm::count(op.iterators, "reduction");
    os << "loops [" << llvm::interleaved(op.bounds) << "] ("
       << op.bounds.size() - reductions << " parallel, " << reductions
       << " reduction)\n";
  }
}

llvm::json::Array operandsToJson(const Problem &problem) {
  llvm::json::Array operands;
  for (const Operand &operand : problem.operands) {
    llvm::json::Array projection;
    for (const Coordinate &coordinate : operand.projection)
      projection.push_back(problem.format(coordinate));
    operands.push_back(llvm::json::Object{
        {"name", operand.name},
        {"role", tensorRoleName(operand.role)},
        {"access", accessName(operand.access)},
        {"projection", std::move(projection)},
        {"words", problem.footprint(&operand - problem.operands.data())}});
  }
  return operands;
}

void printJson(const accel::ResolvedTarget &target, ArrayRef<OpSummary> ops,
               unsigned mappable, llvm::raw_ostream &os) {
  llvm::json::Array opList;
  for (const OpSummary &op : ops) {
    llvm::json::Object entry{{"index", op.index},
                             {"op", op.name},
                             {"location", op.location},
                             {"mappable", !op.reason}};
    if (op.reason) {
      entry["reason"] = *op.reason;
    } else {
      entry["loops"] = llvm::json::Array(op.bounds);
      entry["iterators"] = llvm::json::Array(op.iterators);
      entry["operands"] = operandsToJson(*op.problem);
    }
    opList.push_back(std::move(entry));
  }
  llvm::json::Object root{{"target", archToJson(target.arch)},
                          {"target_source", target.source},
                          {"linalg_ops", int64_t(ops.size())},
                          {"mappable", mappable},
                          {"ops", std::move(opList)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

struct MarlDescribePass
    : public marlmap::impl::MarlDescribeBase<MarlDescribePass> {
  using MarlDescribeBase::MarlDescribeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (format != "text" && format != "json") {
      emitError(module.getLoc())
          << "unknown format '" << format << "' (text or json)";
      return signalPassFailure();
    }
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
    std::vector<OpSummary> ops;
    module.walk(
        [&](linalg::LinalgOp op) { ops.push_back(summarize(op, ops.size())); });
    unsigned mappable =
        llvm::count_if(ops, [](const OpSummary &op) { return !op.reason; });
    if (format == "json")
      printJson(*target, ops, mappable, file->os());
    else
      printText(*target, ops, mappable, file->os());
    file->keep();
    markAllAnalysesPreserved();
  }
};

} // namespace
