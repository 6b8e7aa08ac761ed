//===- MarlMap.cpp - Search and attach a mapping for every linalg op ------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/PolicyLibrary.h"
#include "marlmap/Search/SearcherConfig.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>
#include <functional>
#include <map>

namespace marlmap {
#define GEN_PASS_DEF_MARLMAP
#include "marlmap/Transforms/Passes.h.inc"
} // namespace marlmap

using namespace mlir;
using namespace marlmap;

namespace {

/// One distinct problem of the module and what was found for it.
struct Job {
  Problem problem;
  /// Ops that compute it and carry no mapping of their own.
  SmallVector<Operation *> ops;
  std::string error;
  SearchResult result;
  LowerBound bound;
  CacheKey key;
  /// Found in the cache: not searched.
  bool cached = false;
};

/// A seed per problem that depends on its content only, so that results do
/// not depend on the order or the thread problems are searched in.
uint64_t seedFor(uint64_t seed, const std::string &key) {
  uint64_t hash = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : key)
    hash = (hash ^ c) * 1099511628211ull;
  return hash ^ (seed * 0x9e3779b97f4a7c15ull);
}

DictionaryAttr costAttr(MLIRContext *context, const Evaluation &evaluation,
                        double boundRatio, int64_t samples) {
  Builder b(context);
  return b.getDictionaryAttr({
      b.getNamedAttr("cycles", b.getI64IntegerAttr(evaluation.cycles)),
      b.getNamedAttr("energy_pj", b.getF64FloatAttr(evaluation.energy)),
      b.getNamedAttr("edp", b.getF64FloatAttr(evaluation.edp)),
      b.getNamedAttr("utilization", b.getF64FloatAttr(evaluation.utilization)),
      b.getNamedAttr("bound_ratio", b.getF64FloatAttr(boundRatio)),
      b.getNamedAttr("samples", b.getI64IntegerAttr(samples)),
  });
}

/// "1x64x56x56" style loop bounds.
std::string shapeOf(const Problem &problem) {
  std::string text;
  for (const LoopDim &dim : problem.dims)
    text += (text.empty() ? "" : "x") + std::to_string(dim.bound);
  return text;
}

/// What every problem is searched with.
struct SearchPlan {
  const Arch &arch;
  const SearcherConfig &searcher;
  SearchOptions options;
  uint64_t seed;
};

/// Where searches run: `count` tasks at once on the context's thread
/// pool, or one after another on this thread when threading is off.
struct Workers {
  llvm::ThreadPoolInterface *pool;
  unsigned count;

  /// Runs task(0), ..., task(count - 1); returns when all are done.
  void run(const std::function<void(unsigned)> &task) const {
    if (!pool) {
      for (unsigned i = 0; i < count; ++i)
        task(i);
      return;
    }
    llvm::ThreadPoolTaskGroup group(*pool);
    for (unsigned i = 0; i < count; ++i)
      group.async([&task, i] { task(i); });
    group.wait();
  }
};

/// Each job searched on its own; returns when all are done.
void searchOneByOne(const std::vector<Job *> &jobs, const SearchPlan &plan,
                    const Workers &workers,
                    const std::function<void(size_t)> &searched) {
  std::atomic<size_t> next{0};
  workers.run([&](unsigned) {
    for (size_t i; (i = next++) < jobs.size();) {
      Job *job = jobs[i];
      std::unique_ptr<MapSpace> space =
          MapSpace::create(job->problem, plan.arch, {}, job->error);
      if (space) {
        std::unique_ptr<Searcher> instance = makeSearcher(
            plan.searcher, *space, seedFor(plan.seed, job->key.problem),
            plan.options.budget, job->result.error);
        if (instance) {
          job->result = runSearch(*space, *instance, plan.options);
          job->bound = space->model().lowerBound();
        }
      }
      searched(1);
    }
  });
}

/// The jobs split into one pack per worker, each pack searched in
/// lockstep (one set of networks for all its problems: fewer, larger
/// LibTorch operations). A problem's result does not depend on its pack.
/// Returns when all are done.
void searchInPacks(const std::vector<Job *> &jobs, const SearchPlan &plan,
                   const Workers &workers,
                   const std::function<void(size_t)> &searched) {
  struct Pack {
    std::vector<Job *> jobs;
    std::vector<std::unique_ptr<MapSpace>> spaces;
    /// The decisions its agents draw: about what a round costs it.
    size_t decisions = 0;
  };
  std::vector<Pack> packs(
      std::max<size_t>(1, std::min<size_t>(workers.count, jobs.size())));
  size_t withoutSpace = 0;
  for (Job *job : jobs) {
    std::unique_ptr<MapSpace> space =
        MapSpace::create(job->problem, plan.arch, {}, job->error);
    if (!space) {
      ++withoutSpace;
      continue;
    }
    // To the pack with the least work so far, so that packs finish
    // together (any split gives the same results).
    Pack &pack = *std::min_element(
        packs.begin(), packs.end(),
        [](const Pack &a, const Pack &b) { return a.decisions < b.decisions; });
    pack.decisions += DecisionSpace(*space).decisions().size();
    pack.jobs.push_back(job);
    pack.spaces.push_back(std::move(space));
  }
  if (withoutSpace)
    searched(withoutSpace);
  Workers perPack = workers;
  perPack.count = unsigned(packs.size());
  perPack.run([&](unsigned index) {
    Pack &pack = packs[index];
    if (pack.jobs.empty())
      return;
    std::vector<const MapSpace *> spaces;
    std::vector<uint64_t> seeds;
    for (size_t p = 0; p < pack.jobs.size(); ++p) {
      spaces.push_back(pack.spaces[p].get());
      seeds.push_back(seedFor(plan.seed, pack.jobs[p]->key.problem));
    }
    std::string error;
    std::unique_ptr<NetworkSearcher> searcher = makeNetworkSearcher(
        plan.searcher, spaces, seeds, plan.options.budget, error);
    std::vector<SearchResult> results(pack.jobs.size());
    if (searcher)
      results = runNetworkSearch(spaces, *searcher, plan.options);
    for (size_t p = 0; p < pack.jobs.size(); ++p) {
      Job &job = *pack.jobs[p];
      job.result = std::move(results[p]);
      if (!searcher)
        job.result.error = error;
      job.bound = pack.spaces[p]->model().lowerBound();
    }
    searched(pack.jobs.size());
  });
}

struct MarlMapPass : public marlmap::impl::MarlMapBase<MarlMapPass> {
  using MarlMapBase::MarlMapBase;

  void runOnOperation() override;
};

void MarlMapPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *context = &getContext();
  auto fail = [&](const Twine &message) {
    emitError(module.getLoc()) << message;
    signalPassFailure();
  };
  std::optional<Objective> goal = parseObjective(objective);
  if (!goal)
    return fail("marl-map: objective must be latency, energy or edp, not '" +
                objective + "'");
  for (const std::string &error : {checkBudget(budget), checkThreads(threads)})
    if (!error.empty())
      return fail("marl-map: " + error);
  SearcherConfig searcherConfig;
  searcherConfig.name = searcher;
  std::string searcherError;
  if (!parseAgents(agents, searcherConfig.policy, searcherError))
    return fail("marl-map: " + searcherError);
  searcherConfig.policy.learningRate = policyLearningRate;
  searcherConfig.policy.epochs = policyEpochs;
  searcherConfig.policy.entropy = policyEntropy;
  searcherConfig.policy.warmup = policyWarmup;
  searcherConfig.policy.hidden = policyHidden;
  searcherConfig.policy.replay = policyReplay;
  searcherConfig.policy.stall = policyStall;
  searcherConfig.policy.testThrowAfter = policyTestThrowAfter;
  searcherConfig.policyLibrary = policyLibrary;
  if (!parsePolicyAdvantage(policyAdvantage, searcherConfig.policy,
                            searcherError) ||
      !parsePolicyHead(policyHead, searcherConfig.policy, searcherError))
    return fail("marl-map: " + searcherError);
  searcherError = checkSearcherConfig(searcherConfig);
  if (!searcherError.empty())
    return fail("marl-map: " + searcherError);
  // Loaded here, on the pass's own thread, before any search starts.
  if (searcherLearns(searcherConfig.name) &&
      !loadPolicyLibrary(policyLibrary, searcherError))
    return fail("marl-map: " + searcherError);
  // Caches and reports name the searcher with its options.
  const std::string searcherText = describeSearcher(searcherConfig);
  FailureOr<accel::ResolvedTarget> target = accel::resolveTarget(module, arch);
  if (failed(target))
    return signalPassFailure();
  const Arch &archValue = target->arch;

  // Mappings verify against the module's target: make it the one used.
  std::optional<Arch> preset = findPreset(archValue.name);
  module->setAttr(accel::AccelDialect::kTargetAttrName,
                  preset && *preset == archValue
                      ? Attribute(StringAttr::get(context, archValue.name))
                      : Attribute(accel::fromCore(context, archValue)));

  // Distinct problems, in the order they first appear.
  std::vector<Job> jobs;
  std::map<std::string, size_t> jobOf;
  const std::string archText = cacheText(archValue);
  struct Override {
    Operation *op;
    Problem problem;
    Mapping mapping;
    accel::MappingAttr attr;
  };
  std::vector<Override> overrides;
  // Program order of every op, for reports.
  DenseMap<Operation *, unsigned> position;
  for (linalg::LinalgOp linalgOp : collectLinalgOps(module)) {
    Operation *op = linalgOp;
    position[op] = position.size();
    // Fills compute nothing: not worth a remark each.
    if (readsNoTensor(linalgOp))
      continue;
    std::string whyNot;
    std::optional<Problem> problem = extractProblem(linalgOp, &whyNot);
    if (!problem) {
      emitRemark(op->getLoc()) << "not mapped: " << whyNot;
      continue;
    }
    if (auto given = op->getAttrOfType<accel::MappingAttr>(
            accel::AccelDialect::kMappingAttrName)) {
      Mapping mapping =
          accel::toCore(given, problem->dims.size(), problem->operands.size());
      overrides.push_back({op, std::move(*problem), std::move(mapping), given});
      continue;
    }
    std::string key = problem->key();
    auto [it, inserted] = jobOf.emplace(key, jobs.size());
    if (inserted) {
      CacheKey cacheKey{key, archText, objective, searcherText, budget, seed};
      jobs.push_back({std::move(*problem), {}, "", {}, {}, cacheKey, false});
    }
    jobs[it->second].ops.push_back(op);
  }

  // Problems the cache knows are not searched again. A cache that cannot be
  // read is reported and left aside; the compile goes on without it.
  std::unique_ptr<MappingCache> mappingCache;
  if (!cache.empty()) {
    std::string error;
    mappingCache = MappingCache::open(cache, error);
    if (!mappingCache)
      emitWarning(module.getLoc())
          << "marl-map: " << error << "; searching without the cache";
  }
  if (mappingCache)
    for (Job &job : jobs) {
      std::string error;
      std::optional<CacheEntry> entry = mappingCache->find(job.key, error);
      if (!error.empty())
        emitWarning(module.getLoc()) << "marl-map: " << error;
      if (!entry ||
          !checkMappingShape(entry->mapping, job.problem, archValue).empty())
        continue;
      CostModel model(job.problem, archValue);
      Evaluation evaluation = model.evaluate(entry->mapping);
      if (!evaluation.valid)
        continue;
      job.cached = true;
      job.result.found = true;
      job.result.best = entry->mapping;
      job.result.bestEvaluation = evaluation;
      job.result.bestCost = objectiveValue(evaluation, *goal);
      job.result.samples = entry->samples;
      job.bound = model.lowerBound();
    }

  // Search every distinct problem, in parallel; each result depends only on
  // its problem and the options.
  bool showProgress = llvm::errs().is_displayed();
  std::atomic<size_t> finished{0};
  auto searched = [&](size_t count) {
    size_t done = finished += count;
    if (showProgress)
      llvm::errs() << llvm::formatv("\rmarl-map: {0}/{1} problems searched",
                                    done, jobs.size());
  };
  auto start = std::chrono::steady_clock::now();
  {
    std::vector<Job *> pending;
    for (Job &job : jobs)
      if (!job.cached)
        pending.push_back(&job);
    SearchOptions options;
    options.objective = *goal;
    options.budget = budget;
    SearchPlan plan{archValue, searcherConfig, options, seed};
    // The context's threads (none with --mlir-disable-threading), at most
    // `threads` of them when it is set.
    Workers workers{nullptr, 1};
    if (context->isMultithreadingEnabled()) {
      workers.pool = &context->getThreadPool();
      workers.count = workers.pool->getMaxConcurrency();
      if (threads > 0)
        workers.count = std::min<unsigned>(workers.count, threads);
    }
    if (searcherLearns(searcherConfig.name))
      searchInPacks(pending, plan, workers, searched);
    else
      searchOneByOne(pending, plan, workers, searched);
  }
  if (showProgress && !jobs.empty())
    llvm::errs() << "\n";
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  if (mappingCache)
    for (Job &job : jobs) {
      std::string error;
      if (!job.cached && job.result.found && job.result.error.empty() &&
          !mappingCache->store(job.key, job.result.best, job.result.bestCost,
                               job.result.samples, error))
        emitWarning(module.getLoc()) << "marl-map: " << error;
    }

  // Attach the results, in op order.
  struct Row {
    Operation *op;
    const Problem *problem;
    Evaluation evaluation;
    double boundRatio;
    int64_t samples;
    double seconds;
    bool userMapping;
    bool cached;
  };
  std::vector<Row> rows;
  bool anyFailed = false;
  for (Job &job : jobs) {
    if (!job.result.error.empty()) {
      // A searcher that failed leaves no result worth keeping.
      for (Operation *op : job.ops)
        emitError(op->getLoc())
            << "marl-map: cannot map this op: " << job.result.error;
      anyFailed = true;
      continue;
    }
    if (!job.result.found) {
      for (Operation *op : job.ops)
        emitRemark(op->getLoc())
            << "not mapped: "
            << (job.error.empty()
                    ? "no valid mapping among " +
                          std::to_string(job.result.samples) + " samples"
                    : job.error);
      continue;
    }
    double ratio = boundRatio(job.result.bestEvaluation, job.bound, *goal);
    accel::MappingAttr mapping =
        accel::fromCore(context, job.result.best, archValue);
    DictionaryAttr cost =
        costAttr(context, job.result.bestEvaluation, ratio, job.result.samples);
    for (Operation *op : job.ops) {
      op->setAttr(accel::AccelDialect::kMappingAttrName, mapping);
      op->setAttr(accel::AccelDialect::kCostAttrName, cost);
      rows.push_back({op, &job.problem, job.result.bestEvaluation, ratio,
                      job.result.samples, job.result.seconds, false,
                      job.cached});
    }
  }
  for (Override &given : overrides) {
    // Mapped for other levels: another accelerator's mapping.
    SmallVector<StringRef> levelNames, archNames;
    for (accel::LevelMappingAttr level : given.attr.getLevels())
      levelNames.push_back(level.getName());
    for (const StorageLevel &level : archValue.levels)
      archNames.push_back(level.name);
    if (levelNames != archNames) {
      emitError(given.op->getLoc())
          << "the mapping it carries is for the levels ("
          << llvm::join(levelNames, ", ") << "), not for those of '"
          << archValue.name << "' (" << llvm::join(archNames, ", ") << ")";
      anyFailed = true;
      continue;
    }
    std::vector<std::string> misfits =
        checkMappingShape(given.mapping, given.problem, archValue);
    if (!misfits.empty()) {
      emitError(given.op->getLoc())
          << "the mapping it carries does not fit '" << archValue.name
          << "': " << misfits.front();
      anyFailed = true;
      continue;
    }
    CostModel model(given.problem, archValue);
    Evaluation evaluation = model.evaluate(given.mapping);
    if (!evaluation.valid) {
      emitError(given.op->getLoc()) << "the mapping it carries is invalid: "
                                    << evaluation.describeInvalid(archValue);
      anyFailed = true;
      continue;
    }
    double ratio = boundRatio(evaluation, model.lowerBound(), *goal);
    given.op->setAttr(accel::AccelDialect::kCostAttrName,
                      costAttr(context, evaluation, ratio, 0));
    rows.push_back(
        {given.op, &given.problem, evaluation, ratio, 0, 0.0, true, false});
  }
  llvm::sort(rows, [&](const Row &a, const Row &b) {
    return position[a.op] < position[b.op];
  });

  if (summary || llvm::errs().is_displayed()) {
    llvm::errs() << llvm::formatv(
        "{0,-28} {1,-22} {2,12} {3,12} {4,12} {5,8} {6,8} {7,8}\n", "op",
        "loops", "cycles", "energy pJ", "EDP", "x bound", "samples", "seconds");
    for (const Row &row : rows)
      llvm::errs() << llvm::formatv(
          "{0,-28} {1,-22} {2,12} {3,12:e2} {4,12:e2} {5,8:f2} {6,8} "
          "{7,8:f3}\n",
          row.op->getName().getStringRef(), shapeOf(*row.problem),
          row.evaluation.cycles, row.evaluation.energy, row.evaluation.edp,
          row.boundRatio,
          row.userMapping ? "given"
          : row.cached    ? "cached"
                          : std::to_string(row.samples),
          row.seconds);
    llvm::errs() << llvm::formatv(
        "marl-map: {0} ops mapped, {1} distinct problems searched in {2:f2} s "
        "({3}, budget {4}, {5}), {6} from the cache\n",
        rows.size(),
        llvm::count_if(jobs, [](const Job &job) { return !job.cached; }),
        seconds, searcherText, int64_t(budget), objective,
        llvm::count_if(jobs, [](const Job &job) { return job.cached; }));
  }

  if (!report.empty()) {
    llvm::json::Array entries;
    for (const Row &row : rows) {
      llvm::json::Object entry =
          evaluationToJson(row.evaluation, *row.problem, archValue);
      entry["op"] = row.op->getName().getStringRef();
      std::string location;
      llvm::raw_string_ostream os(location);
      row.op->getLoc().print(os);
      entry["location"] = location;
      entry["bound_ratio"] = row.boundRatio;
      entry["samples"] = row.samples;
      entry["user_mapping"] = row.userMapping;
      entry["cached"] = row.cached;
      entries.push_back(std::move(entry));
    }
    llvm::json::Object root{{"target", archToJson(archValue)},
                            {"searcher", searcherText},
                            {"objective", std::string(objective)},
                            {"budget", int64_t(budget)},
                            {"seed", int64_t(seed)},
                            {"distinct_problems", int64_t(jobs.size())},
                            {"ops", std::move(entries)}};
    std::string error;
    auto write = [&](llvm::raw_ostream &os) {
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
    };
    if (!writeOutputFile(report, write, error))
      return fail("marl-map: cannot write the report: " + error);
  }
  if (anyFailed)
    signalPassFailure();
}

} // namespace
