//===- SearchBench.cpp - What a sample costs each searcher ----------------===//
//
// Every searcher at its default options, minimising EDP on `eyeriss`:
//  - layer/NAME: whole 10,000-sample searches of the ResNet-50 3x3 conv
//    (K=C=64, 56x56);
//  - network/NAME: every distinct problem of examples/resnet50.mlir (44)
//    at 2000 samples each, as `--marl-map` searches them on one thread:
//    marl and sarl in one lockstep pack (their alike problems grouped to
//    share agents as --marl-map groups them), the others one problem
//    after another.
// Each reports `us_per_sample`, the searching thread's CPU time per sample
// over all iterations
// (making the searchers, and so loading libMarlmapPolicy.so, is not
// counted), and the best EDP found (`best_edp`, summed over the network's
// problems). Run on a quiet machine: build/bin/marlmap-bench-search.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Transfer.h"
#include "marlmap/Mapper/Registry.h"
#include "marlmap/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>

#include <ctime>
#include <map>

using namespace marlmap;

namespace {

constexpr int64_t kLayerBudget = 10000, kNetworkBudget = 2000;

double threadSeconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + 1e-9 * double(now.tv_nsec);
}

SearchOptions optionsFor(int64_t budget) {
  SearchOptions options;
  options.objective = Objective::EDP;
  options.budget = budget;
  return options;
}

/// Thread time and samples over every iteration, and the last best EDP.
struct Totals {
  double seconds = 0.0;
  int64_t samples = 0;
  double bestEdp = 0.0;
  void add(benchmark::State &state, double iterationSeconds,
           int64_t iterationSamples, double iterationBest) {
    state.SetIterationTime(iterationSeconds);
    seconds += iterationSeconds;
    samples += iterationSamples;
    bestEdp = iterationBest;
  }
  void report(benchmark::State &state) const {
    state.counters["us_per_sample"] = 1e6 * seconds / double(samples);
    state.counters["best_edp"] = bestEdp;
  }
};

/// What `made` holds, or null with the benchmark skipped for its reason.
template <typename T>
std::unique_ptr<T> madeOrSkip(benchmark::State &state,
                              llvm::Expected<std::unique_ptr<T>> made) {
  if (made)
    return std::move(*made);
  state.SkipWithError(llvm::toString(made.takeError()).c_str());
  return nullptr;
}

void layer(benchmark::State &state, const char *name) {
  auto created = MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                  *findPreset("eyeriss"), {});
  if (!created) {
    state.SkipWithError(llvm::toString(created.takeError()).c_str());
    return;
  }
  std::unique_ptr<MapSpace> space = std::move(*created);
  SearcherConfig config;
  config.name = name;
  uint64_t seed = 1;
  Totals totals;
  for (auto _ : state) {
    std::unique_ptr<Searcher> searcher =
        madeOrSkip(state, makeSearcher(config, *space, seed++, kLayerBudget,
                                       Objective::EDP));
    if (!searcher)
      return;
    const double start = threadSeconds();
    SearchResult result =
        runSearch(*space, *searcher, optionsFor(kLayerBudget));
    totals.add(state, threadSeconds() - start, result.samples, result.bestCost);
  }
  totals.report(state);
}

/// The distinct problems of examples/resnet50.mlir on eyeriss.
const std::vector<std::unique_ptr<MapSpace>> &resnet50Spaces() {
  static const std::vector<std::unique_ptr<MapSpace>> spaces = [] {
    std::vector<std::unique_ptr<MapSpace>> result;
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    registerMarlmapDialects(registry);
    mlir::MLIRContext context(registry);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceFile<mlir::ModuleOp>(
            MARLMAP_SOURCE_DIR "/examples/resnet50.mlir", &context);
    if (!module)
      return result;
    std::map<std::string, bool> seen;
    for (mlir::linalg::LinalgOp op : collectLinalgOps(*module)) {
      llvm::Expected<Problem> problem = extractProblem(op);
      if (!problem) {
        llvm::consumeError(problem.takeError()); // a fill, say: not searched
        continue;
      }
      if (!seen.emplace(problem->key(), true).second)
        continue;
      auto space = MapSpace::create(*problem, *findPreset("eyeriss"), {});
      if (space)
        result.push_back(std::move(*space));
      else
        llvm::consumeError(space.takeError()); // not mappable there: skipped
    }
    return result;
  }();
  return spaces;
}

void network(benchmark::State &state, const char *name) {
  const auto &owned = resnet50Spaces();
  if (owned.empty()) {
    state.SkipWithError("cannot read examples/resnet50.mlir");
    return;
  }
  std::vector<const MapSpace *> spaces;
  std::vector<uint64_t> seeds;
  for (const auto &space : owned) {
    spaces.push_back(space.get());
    seeds.push_back(seeds.size() + 1);
  }
  SearcherConfig config;
  config.name = name;
  const SearchOptions options = optionsFor(kNetworkBudget);
  // The groups of alike problems --marl-map would make (policy-share).
  std::vector<unsigned> groups(spaces.size(), 0);
  if (const unsigned groupSize = networkGroupSize(config)) {
    std::vector<ProblemFeatures> features;
    for (const MapSpace *space : spaces)
      features.push_back(problemFeatures(space->problem()));
    const std::vector<std::vector<size_t>> alike =
        groupSimilarProblems(features, groupSize);
    for (size_t g = 0; g < alike.size(); ++g)
      for (size_t p : alike[g])
        groups[p] = unsigned(g);
  }
  Totals totals;
  for (auto _ : state) {
    std::vector<SearchResult> results;
    double seconds = 0.0;
    if (findSearcher(name)->makeNetwork) {
      std::unique_ptr<NetworkSearcher> pack = madeOrSkip(
          state, makeNetworkSearcher(config, spaces, seeds, groups,
                                     kNetworkBudget, Objective::EDP));
      if (!pack)
        return;
      const double start = threadSeconds();
      results = runNetworkSearch(spaces, *pack, options);
      seconds = threadSeconds() - start;
    } else {
      for (size_t p = 0; p < spaces.size(); ++p) {
        std::unique_ptr<Searcher> searcher =
            madeOrSkip(state, makeSearcher(config, *spaces[p], seeds[p],
                                           kNetworkBudget, Objective::EDP));
        if (!searcher)
          return;
        const double start = threadSeconds();
        results.push_back(runSearch(*spaces[p], *searcher, options));
        seconds += threadSeconds() - start;
      }
    }
    int64_t samples = 0;
    double edp = 0.0;
    for (const SearchResult &result : results) {
      samples += result.samples;
      edp += result.bestCost;
    }
    totals.add(state, seconds, samples, edp);
  }
  totals.report(state);
}

} // namespace

#define MARLMAP_SEARCH_BENCHMARKS(NAME, ITERATIONS)                            \
  BENCHMARK_CAPTURE(layer, NAME, #NAME)                                        \
      ->UseManualTime()                                                        \
      ->Unit(benchmark::kMillisecond)                                          \
      ->Iterations(ITERATIONS);                                                \
  BENCHMARK_CAPTURE(network, NAME, #NAME)                                      \
      ->UseManualTime()                                                        \
      ->Unit(benchmark::kMillisecond)                                          \
      ->Iterations(ITERATIONS)

MARLMAP_SEARCH_BENCHMARKS(random, 10);
MARLMAP_SEARCH_BENCHMARKS(genetic, 10);
MARLMAP_SEARCH_BENCHMARKS(annealing, 10);
MARLMAP_SEARCH_BENCHMARKS(marl, 3);
MARLMAP_SEARCH_BENCHMARKS(sarl, 3);

BENCHMARK_MAIN();
