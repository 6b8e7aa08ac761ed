//===- Explore.h - marlmap-explore's parts ----------------------*- C++ -*-===//
//
// The command line (marlmap-explore.cpp) checks the flags into Options;
// Sources.cpp loads what they name; each mode is a file of its own
// (Evaluate.cpp, SearchOne.cpp, MapNetworks.cpp); Output.cpp writes.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_TOOLS_EXPLORE_EXPLORE_H
#define MARLMAP_TOOLS_EXPLORE_EXPLORE_H

#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Mapper/Progress.h"
#include "marlmap/Report/NetworkReport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>
#include <vector>

namespace marlmap::explore {

enum class Format { Auto, Text, Json };

/// The flags, checked: contradictory or meaningless ones never get here.
struct Options {
  // What to work on: exactly one of the three.
  std::string timeloopProblem, timeloopMapping;
  /// A Timeloop constraints file for the accelerators (--timeloop-constraints).
  std::string timeloopConstraints;
  std::string input;
  std::optional<unsigned> opIndex;
  std::string layer;
  /// The accelerators to map onto; one empty name for the default.
  std::vector<std::string> archs;
  /// Search rather than evaluate a mapping (--searcher given).
  bool search = false;
  /// The searcher, budgets, seed, objective, cache and --jobs (as
  /// `threads`), checked: what makes each accelerator's Mapper.
  MapperOptions mapper;
  ProgressStyle progress = ProgressStyle::Auto;
  std::string timeloopOut;
  std::string jsonOutput;
  /// --report: HTML when it ends in .html, else JSON.
  std::string report;
  Format format = Format::Auto;

  /// A whole --input module, or several accelerators: a network's table.
  bool network() const {
    return (!input.empty() && !opIndex) || archs.size() > 1;
  }
};

/// Prints the error and exits with 1.
[[noreturn]] void fail(const llvm::Twine &message);
/// Prints the error, its option spelt as this tool's flag, and exits
/// with 1.
[[noreturn]] void fail(llvm::Error error);

/// One problem the tool works on.
struct Job {
  Problem problem;
  Arch arch;
  std::optional<Mapping> mapping;
  std::string source;
};

/// --input, parsed into `context`, or the tool fails with the parser's
/// diagnostics.
mlir::OwningOpRef<mlir::ModuleOp> parseInput(const Options &options,
                                             mlir::MLIRContext &context,
                                             llvm::SourceMgr &sourceMgr);
/// The accelerator `choice` names (a preset, a .mlir or Timeloop .yaml
/// file; empty: the module's target, else the default), for ops of
/// `module`, with the constraints of --timeloop-constraints.
Arch archFor(const Options &options, mlir::ModuleOp module,
             const std::string &choice);
/// The one problem the options name (the op --op-index picks from
/// `module`, the layer, or the Timeloop problem) on the accelerator
/// `choice` names.
Job loadJob(const Options &options, mlir::MLIRContext &context,
            mlir::ModuleOp module, const std::string &choice);

int evaluate(const Options &options, const Job &job);
int searchOne(const Options &options, const Job &job);
int mapNetworks(const Options &options, mlir::MLIRContext &context);

/// A Mapper for `arch` with the options' searcher and budgets.
std::unique_ptr<Mapper> mapperFor(const Options &options, const Arch &arch);
/// Where progress goes: stderr, in the options' style.
ProgressCallback progressPrinter(const Options &options);

/// Writes what a mode found: the JSON to --json's file, and to stdout the
/// text or the JSON as --format says (by default the text on a terminal,
/// else the JSON; nothing when --json names a file and no --format is
/// given).
void emit(const Options &options, const llvm::json::Object &json,
          const std::string &text);
/// The Mapper's warnings, on stderr.
void printWarnings(const MapperResult &result);
/// The report of `rows` on `networks` to --report, when given.
void writeReport(const Options &options, const std::vector<OpRow> &rows,
                 const std::vector<MappedNetwork> &networks);
/// The Timeloop inputs for `mapping` (if any) of `problem` on `arch`, when
/// --timeloop-out asks for them.
void writeTimeloop(const Options &options, const Problem &problem,
                   const Arch &arch, const Mapping *mapping);

} // namespace marlmap::explore

#endif // MARLMAP_TOOLS_EXPLORE_EXPLORE_H
