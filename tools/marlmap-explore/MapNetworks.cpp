//===- MapNetworks.cpp - A network on one accelerator or several ----------===//

#include "Explore.h"

#include "marlmap/Report/NetworkReport.h"
#include "marlmap/Transforms/ModuleProblems.h"

namespace marlmap::explore {

namespace {

/// Fails when a distinct problem's search failed or a given mapping was
/// refused.
void failOnErrors(const MapperResult &result, const std::vector<OpRow> &rows) {
  if (!result.error.empty())
    fail(result.error);
  for (const OpRow &row : rows)
    if (const ProblemOutcome *outcome = outcomeOf(row, result);
        outcome && !outcome->error.empty())
      fail(row.location + ": " + row.op + ": " + outcome->error);
}

} // namespace

int mapNetworks(const Options &options, mlir::MLIRContext &context) {
  if (!options.timeloopOut.empty())
    fail("--timeloop-out writes one problem's files: give --op-index, "
         "--layer or --timeloop-problem, and one accelerator");
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!options.input.empty())
    module = parseInput(options, context, sourceMgr);
  std::unique_ptr<Executor> executor =
      makeThreadExecutor(options.mapper.threads);
  ProgressCallback progress = progressPrinter(options);

  std::vector<std::unique_ptr<Mapper>> mappers;
  std::vector<MapperResult> results;
  std::vector<OpRow> rows;
  for (const std::string &choice : options.archs) {
    std::vector<MapperProblem> problems;
    Arch arch;
    if (module && !options.opIndex) {
      arch = archFor(options, *module, choice);
      ModuleProblems loaded =
          loadModuleProblems(*module, arch, /*remarks=*/false);
      if (loaded.failed)
        return 1;
      problems = std::move(loaded.problems);
      rows = std::move(loaded.rows);
    } else {
      Job job = loadJob(options, context, module ? *module : mlir::ModuleOp(),
                        choice);
      arch = job.arch;
      rows = {{job.source, "", 0, ""}};
      // With --searcher the op is searched, as with one accelerator.
      problems.push_back(
          {std::move(job.problem),
           options.search ? std::nullopt : std::move(job.mapping)});
    }
    mappers.push_back(mapperFor(options, arch));
    results.push_back(mappers.back()->map(problems, *executor, progress));
    printWarnings(results.back());
    failOnErrors(results.back(), rows);
  }

  std::vector<MappedNetwork> networks;
  for (size_t a = 0; a < mappers.size(); ++a)
    networks.push_back({&mappers[a]->request(), &results[a]});
  writeReport(options, rows, networks);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (networks.size() == 1) {
    printSummary(os, rows, *networks[0].request, *networks[0].result, "total");
    emit(options, reportToJson(rows, *networks[0].request, *networks[0].result),
         text);
  } else {
    printComparison(os, rows, networks);
    emit(options, comparisonToJson(rows, networks), text);
  }
  return 0;
}

} // namespace marlmap::explore
