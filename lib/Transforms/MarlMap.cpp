//===- MarlMap.cpp - Search and attach a mapping for every linalg op ------===//
//
// Load, solve, save: the pass's options become the front end's, the
// module's ops are mapped and their outcomes saved on them (mapModule,
// ModuleMapping.h), and the summary and the report are written.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Mapper/Progress.h"
#include "marlmap/Report/HtmlReport.h"
#include "marlmap/Report/NetworkReport.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Transforms/ModuleMapping.h"
#include "marlmap/Transforms/Passes.h"

#include "llvm/Support/FormatVariadic.h"

namespace marlmap {
#define GEN_PASS_DEF_MARLMAP
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

struct MarlMapPass : public marlmap::impl::MarlMapBase<MarlMapPass> {
  MarlMapPass() { addSearcherOptions(); }
  MarlMapPass(MarlMapOptions options) : MarlMapBase(std::move(options)) {
    addSearcherOptions();
  }
  // Copies (clonePass) add the same options in the same order; their
  // values are copied after.
  MarlMapPass(const MarlMapPass &other) : MarlMapBase(other) {
    addSearcherOptions();
  }

  void runOnOperation() override;

private:
  /// Every registered searcher option, as an option of this pass, and the
  /// registry's names in the help of `searcher` and `objective`.
  void addSearcherOptions();
  /// What the options ask for, by name.
  ModuleMapOptions mapOptions() const;
  /// The summary on stderr and the report, as the options ask; false when
  /// the report cannot be written.
  bool writeReports(const MappedModule &mapped);

  std::vector<std::unique_ptr<Option<std::string>>> searcherOptionValues;
};

void MarlMapPass::addSearcherOptions() {
  // The registry's names, in the help of the options that take them
  // (Passes.td names none).
  static const std::string searcherHelp =
      "The searcher: " + searcherNameList() +
      "; each searcher's own options follow";
  static const std::string objectiveHelp =
      "What to minimise: " + objectiveNameList();
  searcher.setDescription(searcherHelp);
  objective.setDescription(objectiveHelp);
  for (const SharedOption &shared : searcherOptions()) {
    const SearcherOption &option = *shared.option;
    searcherOptionValues.push_back(std::make_unique<Option<std::string>>(
        *this, option.name, llvm::cl::desc(shared.help),
        llvm::cl::init(option.defaultValue),
        option.hidden ? llvm::cl::ReallyHidden : llvm::cl::NotHidden));
  }
}

ModuleMapOptions MarlMapPass::mapOptions() const {
  ModuleMapOptions options;
  options.arch = arch;
  options.constraints = constraints;
  MapperOptions &mapper = options.mapper;
  mapper.objective = objective;
  mapper.factors = factors;
  mapper.searcher = searcher;
  for (const auto &value : searcherOptionValues)
    if (value->hasValue())
      mapper.searcherOptions[value->getArgStr().str()] = value->getValue();
  mapper.policyLibrary = policyLibrary;
  // Not given: the default, or no cap under a time budget.
  if (budget.hasValue())
    mapper.budget = budget;
  // 0, the option's default, is no time budget.
  if (time != 0)
    mapper.seconds = time;
  mapper.seed = seed;
  mapper.cache = cache;
  mapper.threads = threads;
  return options;
}

bool MarlMapPass::writeReports(const MappedModule &mapped) {
  const MapperRequest &request = mapped.mapper->request();
  const std::vector<OpRow> &rows = mapped.loaded.rows;
  if (summary || llvm::errs().is_displayed())
    printSummary(llvm::errs(), rows, request, mapped.result, "marl-map");
  if (report.empty())
    return true;
  // FILE.html: the page for people; anything else: the JSON.
  auto write = [&](llvm::raw_ostream &os) {
    if (isHtmlPath(report))
      writeHtmlReport(os, rows, {{&request, &mapped.result}});
    else
      os << llvm::formatv("{0:2}", llvm::json::Value(reportToJson(
                                       rows, request, mapped.result)))
         << "\n";
  };
  llvm::Error error = writeOutputFile(report, write);
  if (!error)
    return true;
  emitError(getOperation().getLoc()) << "marl-map: cannot write the report: "
                                     << llvm::toString(std::move(error));
  return false;
}

void MarlMapPass::runOnOperation() {
  ModuleOp module = getOperation();
  std::optional<ProgressStyle> style = parseProgressStyle(progress);
  if (!style) {
    emitError(module.getLoc())
        << "marl-map: progress must be " << kProgressStyles << ", not '"
        << progress << "'";
    return signalPassFailure();
  }
  FailureOr<MappedModule> mapped =
      mapModule(module, mapOptions(),
                makeProgressPrinter(*style, llvm::errs(),
                                    llvm::errs().is_displayed(), "marl-map"));
  if (failed(mapped))
    return signalPassFailure();
  bool written = writeReports(*mapped);
  if (mapped->failed || !written)
    signalPassFailure();
}

} // namespace
