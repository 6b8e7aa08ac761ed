//===- SearchBench.cpp - Seconds per 10,000-sample search -----------------===//
//
// The search speed target: a full 10,000-sample marl search of one layer in
// under 5 seconds on one core. Each benchmark runs one whole search of the
// ResNet-50 3x3 conv (K=C=64, 56x56) on eyeriss, minimising EDP, and
// reports the search's own wall time (runSearch: making the searcher, and
// so loading libMarlmapPolicy.so, is not counted).
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Search/SearcherConfig.h"

#include <benchmark/benchmark.h>

using namespace marlmap;

namespace {

constexpr int64_t kBudget = 10000;

void search(benchmark::State &state, const char *name) {
  std::string error;
  std::unique_ptr<MapSpace> space = MapSpace::create(
      makeConv({1, 64, 64, 56, 56, 3, 3}), *findPreset("eyeriss"), {}, error);
  if (!space) {
    state.SkipWithError(error.c_str());
    return;
  }
  SearcherConfig config;
  config.name = name;
  uint64_t seed = 1;
  for (auto _ : state) {
    std::unique_ptr<Searcher> searcher =
        makeSearcher(config, *space, seed++, kBudget, error);
    if (!searcher) {
      state.SkipWithError(error.c_str());
      return;
    }
    SearchOptions options;
    options.objective = Objective::EDP;
    options.budget = kBudget;
    SearchResult result = runSearch(*space, *searcher, options);
    state.SetIterationTime(result.seconds);
    state.counters["best_edp"] = result.bestCost;
  }
  state.SetItemsProcessed(state.iterations() * kBudget);
}

} // namespace

BENCHMARK_CAPTURE(search, random, "random")
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search, genetic, "genetic")
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search, annealing, "annealing")
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(search, marl, "marl")
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(search, sarl, "sarl")
    ->UseManualTime()
    ->Unit(benchmark::kSecond)
    ->Iterations(3);

BENCHMARK_MAIN();
