//===- MarlDescribe.cpp - Print the target and the mappable ops -----------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/ArchReport.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Report/TextView.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Target/ResolveTarget.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/Path.h"

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

/// What the pass reports of one linalg op: the problem it computes, or why
/// it cannot be mapped.
struct OpSummary {
  unsigned index = 0;
  std::string name;
  std::string location;
  std::optional<Problem> problem;
  std::string whyNot;
  /// The mapping the op carries, when it names the target's levels.
  std::optional<Mapping> mapping;
};

OpSummary summarize(linalg::LinalgOp op, unsigned index, const Arch &arch) {
  OpSummary summary;
  summary.index = index;
  summary.name = op->getName().getStringRef().str();
  summary.location = shortLocation(op->getLoc());
  if (llvm::Expected<Problem> problem = extractProblem(op))
    summary.problem = std::move(*problem);
  else
    summary.whyNot = llvm::toString(problem.takeError());
  auto attr = op->getAttrOfType<accel::MappingAttr>(
      accel::AccelDialect::kMappingAttrName);
  if (!summary.problem || !attr ||
      attr.getLevels().size() != arch.levels.size())
    return summary;
  for (auto [level, archLevel] : llvm::zip(attr.getLevels(), arch.levels))
    if (level.getName() != archLevel.name)
      return summary;
  summary.mapping = accel::toCore(attr, summary.problem->dims.size(),
                                  summary.problem->operands.size());
  return summary;
}

/// The op's mapping as a loop nest with its figures and breakdown,
/// indented under the op's line; or why it cannot be shown.
void printMapping(const OpSummary &op, const Arch &arch,
                  llvm::raw_ostream &os) {
  auto indented = [&](const std::string &text) {
    for (StringRef line : llvm::split(StringRef(text).rtrim('\n'), '\n'))
      os << (line.empty() ? "" : "      ") << line << "\n";
  };
  std::vector<std::string> misfits =
      checkMappingShape(*op.mapping, *op.problem, arch);
  if (!misfits.empty()) {
    os << "      its mapping does not fit: " << misfits.front() << "\n";
    return;
  }
  CostModel model(*op.problem, arch);
  Evaluation evaluation = model.evaluate(*op.mapping);
  if (!evaluation.valid) {
    os << "      its mapping is invalid: " << evaluation.describeInvalid(arch)
       << "\n";
    return;
  }
  indented("mapped: " + mappedOpText(*op.mapping, *op.problem, arch, evaluation,
                                     model.lowerBound()));
}

void printText(const accel::ResolvedTarget &target, ArrayRef<OpSummary> ops,
               unsigned mappable, llvm::raw_ostream &os) {
  os << "target (" << target.source << ") " << formatArch(target.arch);
  os << "linalg ops: " << ops.size() << ", mappable: " << mappable << "\n";
  for (const OpSummary &op : ops) {
    os << "  #" << op.index << " " << op.name << " at " << op.location << ": ";
    if (!op.problem) {
      os << "not mappable: " << op.whyNot << "\n";
      continue;
    }
    unsigned reductions =
        llvm::count_if(op.problem->dims, [](const LoopDim &d) {
          return d.kind == LoopKind::Reduction;
        });
    os << "loops [" << llvm::interleaved(op.problem->bounds()) << "] ("
       << op.problem->dims.size() - reductions << " parallel, " << reductions
       << " reduction)\n";
    if (op.mapping)
      printMapping(op, target.arch, os);
  }
}

void printJson(const accel::ResolvedTarget &target, ArrayRef<OpSummary> ops,
               unsigned mappable, llvm::raw_ostream &os) {
  llvm::json::Array opList;
  for (const OpSummary &op : ops) {
    llvm::json::Object entry{{"index", op.index},
                             {"op", op.name},
                             {"location", op.location},
                             {"mappable", op.problem.has_value()}};
    if (op.problem) {
      llvm::json::Object problem = problemToJson(*op.problem);
      for (auto &field : problem)
        entry[field.first] = std::move(field.second);
    } else {
      entry["reason"] = op.whyNot;
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
    // A nested module is a separate unit with its own target; describing it
    // from a nested pipeline would interleave reports in thread order.
    if (module->getParentOp()) {
      emitError(module.getLoc())
          << "marl-describe describes a whole compilation unit: run it on the "
             "top-level module";
      return signalPassFailure();
    }
    if (format != "text" && format != "json") {
      emitError(module.getLoc())
          << "unknown format '" << format << "' (text or json)";
      return signalPassFailure();
    }
    FailureOr<accel::ResolvedTarget> target =
        accel::resolveTarget(module, arch, constraints);
    if (failed(target))
      return signalPassFailure();

    std::vector<OpSummary> ops;
    for (linalg::LinalgOp op : collectLinalgOps(module))
      ops.push_back(summarize(op, ops.size(), target->arch));
    unsigned mappable = llvm::count_if(
        ops, [](const OpSummary &op) { return op.problem.has_value(); });
    auto write = [&](llvm::raw_ostream &os) {
      if (format == "json")
        printJson(*target, ops, mappable, os);
      else
        printText(*target, ops, mappable, os);
    };
    if (llvm::Error error = writeOutputFile(output, write)) {
      emitError(module.getLoc()) << "cannot write the description: "
                                 << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
