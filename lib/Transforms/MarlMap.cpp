//===- MarlMap.cpp - Search and attach a mapping for every linalg op ------===//
//
// Load, solve, save: the module's linalg ops become the Mapper's problems,
// the Mapper searches them (Mapper.h), and its outcomes become attributes.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Mapper/HtmlReport.h"
#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Mapper/Progress.h"
#include "marlmap/Mapper/Report.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Transforms/ModuleProblems.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

namespace marlmap {
#define GEN_PASS_DEF_MARLMAP
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

/// Searches on the context's thread pool, at most `count` at once; on the
/// calling thread when threading is off (no pool).
class ContextExecutor : public Executor {
public:
  ContextExecutor(llvm::ThreadPoolInterface *pool, unsigned count)
      : pool(pool), count(count) {}

  unsigned concurrency() const override { return count; }

  void run(unsigned tasks, const std::function<void(unsigned)> &task) override {
    if (!pool) {
      for (unsigned i = 0; i < tasks; ++i)
        task(i);
      return;
    }
    llvm::ThreadPoolTaskGroup group(*pool);
    for (unsigned i = 0; i < tasks; ++i)
      group.async([&task, i] { task(i); });
    group.wait();
  }

private:
  llvm::ThreadPoolInterface *pool;
  unsigned count;
};

DictionaryAttr costAttr(MLIRContext *context, const ProblemOutcome &outcome) {
  Builder b(context);
  const Evaluation &evaluation = outcome.evaluation;
  return b.getDictionaryAttr({
      b.getNamedAttr("cycles", b.getI64IntegerAttr(evaluation.cycles)),
      b.getNamedAttr("energy_pJ", b.getF64FloatAttr(evaluation.energy)),
      b.getNamedAttr("edp", b.getF64FloatAttr(evaluation.edp)),
      b.getNamedAttr("utilization", b.getF64FloatAttr(evaluation.utilization)),
      b.getNamedAttr("bound_ratio", b.getF64FloatAttr(outcome.boundRatio)),
      b.getNamedAttr("samples",
                     b.getI64IntegerAttr(outcome.source == Source::Given
                                             ? 0
                                             : outcome.samples)),
  });
}

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
  /// Every registered searcher option, as an option of this pass.
  void addSearcherOptions();
  /// The request the options make, or the reason they cannot.
  FailureOr<MapperRequest> requestFor(const Arch &arch);
  void save(ModuleOp module, const ModuleProblems &loaded,
            const MapperRequest &request, const MapperResult &result);

  std::vector<std::unique_ptr<Option<std::string>>> searcherOptionValues;
};

void MarlMapPass::addSearcherOptions() {
  for (const SharedOption &shared : searcherOptions()) {
    const SearcherOption &option = *shared.option;
    searcherOptionValues.push_back(std::make_unique<Option<std::string>>(
        *this, option.name, llvm::cl::desc(shared.help),
        llvm::cl::init(option.defaultValue),
        option.hidden ? llvm::cl::ReallyHidden : llvm::cl::NotHidden));
  }
}

FailureOr<MapperRequest> MarlMapPass::requestFor(const Arch &arch) {
  ModuleOp module = getOperation();
  auto fail = [&](const Twine &message) {
    emitError(module.getLoc()) << "marl-map: " << message;
    return failure();
  };
  MapperRequest request;
  request.arch = arch;
  std::optional<Objective> goal = parseObjective(objective);
  if (!goal)
    return fail("objective must be " + objectiveNameList() + ", not '" +
                objective + "'");
  request.objective = *goal;
  if (std::string error = checkThreads(threads); !error.empty())
    return fail(error);
  request.searcher.name = searcher;
  request.searcher.policyLibrary = policyLibrary;
  for (const auto &value : searcherOptionValues)
    if (value->hasValue())
      request.searcher.options[value->getArgStr().str()] = value->getValue();
  // Not given: the default, or no cap under a time budget.
  if (budget.hasValue())
    if (std::string error = checkBudget(budget); !error.empty())
      return fail(error);
  request.samples = budget.hasValue() ? int64_t(budget) : 0;
  request.seconds = time;
  request.seed = seed;
  request.cache = cache;
  return request;
}

void MarlMapPass::save(ModuleOp module, const ModuleProblems &loaded,
                       const MapperRequest &request,
                       const MapperResult &result) {
  MLIRContext *context = &getContext();
  for (const std::string &warning : result.warnings)
    emitWarning(module.getLoc()) << "marl-map: " << warning;
  bool failed = loaded.failed;
  if (!result.error.empty()) {
    emitError(module.getLoc()) << "marl-map: " << result.error;
    failed = true;
  }
  for (const ProblemOutcome &outcome : result.problems) {
    // Equal problems share one attribute of each kind.
    accel::MappingAttr mapping;
    DictionaryAttr cost;
    if (outcome.found) {
      mapping = accel::fromCore(context, outcome.mapping, request.arch);
      cost = costAttr(context, outcome);
    }
    for (size_t input : outcome.inputs) {
      Operation *op = loaded.ops[input];
      if (!outcome.error.empty()) {
        InFlightDiagnostic diagnostic = emitError(op->getLoc());
        if (outcome.source != Source::Given)
          diagnostic << "marl-map: cannot map this op: ";
        diagnostic << outcome.error;
        failed = true;
      } else if (!outcome.found && outcome.noMapSpace) {
        emitWarning(op->getLoc())
            << "not mapped: no mapping of this op on '" << request.arch.name
            << "': " << outcome.notFound;
      } else if (!outcome.found) {
        emitRemark(op->getLoc()) << "not mapped: " << outcome.notFound;
      } else {
        if (outcome.source != Source::Given)
          op->setAttr(accel::AccelDialect::kMappingAttrName, mapping);
        op->setAttr(accel::AccelDialect::kCostAttrName, cost);
      }
    }
  }
  if (summary || llvm::errs().is_displayed())
    printSummary(llvm::errs(), loaded.rows, request, result, "marl-map");
  if (!report.empty()) {
    // FILE.html: the page for people; anything else: the JSON.
    std::string error;
    auto write = [&](llvm::raw_ostream &os) {
      if (isHtmlPath(report))
        writeHtmlReport(os, loaded.rows, {{&request, &result}});
      else
        os << llvm::formatv("{0:2}", llvm::json::Value(reportToJson(
                                         loaded.rows, request, result)))
           << "\n";
    };
    if (!writeOutputFile(report, write, error)) {
      emitError(module.getLoc())
          << "marl-map: cannot write the report: " << error;
      failed = true;
    }
  }
  if (failed)
    signalPassFailure();
}

void MarlMapPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  std::optional<ProgressStyle> style = parseProgressStyle(progress);
  if (!style) {
    emitError(module.getLoc())
        << "marl-map: progress must be " << kProgressStyles << ", not '"
        << progress << "'";
    return signalPassFailure();
  }
  FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(module, arch, constraints);
  if (failed(target))
    return signalPassFailure();
  FailureOr<MapperRequest> request = requestFor(target->arch);
  if (failed(request))
    return signalPassFailure();
  std::string error;
  std::unique_ptr<Mapper> mapper = Mapper::create(*request, error);
  if (!mapper) {
    emitError(module.getLoc()) << "marl-map: " << error;
    return signalPassFailure();
  }

  // Mappings verify against the module's target: make it the one used.
  const Arch &archValue = target->arch;
  std::optional<Arch> preset = findPreset(archValue.name);
  module->setAttr(accel::AccelDialect::kTargetAttrName,
                  preset && *preset == archValue
                      ? Attribute(StringAttr::get(context, archValue.name))
                      : Attribute(accel::fromCore(context, archValue)));

  ModuleProblems loaded =
      loadModuleProblems(module, archValue, /*remarks=*/true);
  // An op mapped for another accelerator fails the compile: no search.
  if (loaded.failed)
    return signalPassFailure();
  // The context's threads (none with --mlir-disable-threading), at most
  // `threads` of them when it is set.
  ContextExecutor executor(nullptr, 1);
  if (context->isMultithreadingEnabled()) {
    llvm::ThreadPoolInterface &pool = context->getThreadPool();
    unsigned count = pool.getMaxConcurrency();
    if (threads > 0)
      count = std::min<unsigned>(count, threads);
    executor = ContextExecutor(&pool, count);
  }
  MapperResult result =
      mapper->map(loaded.problems, executor,
                  makeProgressPrinter(*style, llvm::errs(),
                                      llvm::errs().is_displayed(), "marl-map"));
  save(module, loaded, mapper->request(), result);
}

} // namespace
