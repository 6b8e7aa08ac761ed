//===- CostModelBench.cpp - Evaluations per second ------------------------===//
//
// The cost model is the inner loop of every search. Each benchmark cycles
// through 256 valid mappings drawn from the map space with a fixed seed and
// reports evaluations per second on one core (items_per_second).
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include <benchmark/benchmark.h>

using namespace marlmap;

namespace {

std::vector<Mapping> validMappings(const MapSpace &space, size_t count) {
  Rng rng(42);
  std::vector<int64_t> values(space.parameters().size());
  std::vector<Mapping> mappings;
  Evaluation scratch;
  Mapping mapping;
  while (mappings.size() < count) {
    space.sample(rng, values.data());
    space.decode(values.data(), mapping);
    if (space.model().evaluate(mapping, scratch))
      mappings.push_back(mapping);
  }
  return mappings;
}

void evaluate(benchmark::State &state, Problem problem, const char *preset) {
  auto created = MapSpace::create(std::move(problem), *findPreset(preset), {});
  if (!created) {
    state.SkipWithError(llvm::toString(created.takeError()).c_str());
    return;
  }
  std::unique_ptr<MapSpace> space = std::move(*created);
  std::vector<Mapping> mappings = validMappings(*space, 256);
  Evaluation result;
  size_t next = 0;
  for (auto _ : state) {
    space->model().evaluate(mappings[next], result);
    benchmark::DoNotOptimize(result.edp);
    next = (next + 1) % mappings.size();
  }
  state.SetItemsProcessed(state.iterations());
}

/// `mapping` with partial tiles: each loop's innermost temporal factor one
/// larger, the outermost level's factor the fewest tiles that then cover
/// the bound.
Mapping withPartialTiles(const Problem &problem, Mapping mapping) {
  LevelMapping &top = mapping.levels.back();
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    if (problem.dims[d].bound < 3)
      continue;
    ++mapping.levels.front().temporal[d];
    top.temporal[d] = 1;
    const int64_t inner = factorProduct(mapping, d);
    top.temporal[d] = (problem.dims[d].bound + inner - 1) / inner;
  }
  return mapping;
}

/// Evaluations of mappings whose tiles do not divide their loops: the
/// valid ones among the mappings of evaluate() made partial.
void evaluatePartialTiles(benchmark::State &state, Problem problem,
                          const char *preset) {
  auto created = MapSpace::create(problem, *findPreset(preset), {});
  if (!created) {
    state.SkipWithError(llvm::toString(created.takeError()).c_str());
    return;
  }
  std::unique_ptr<MapSpace> space = std::move(*created);
  std::vector<Mapping> mappings;
  Evaluation result;
  for (const Mapping &mapping : validMappings(*space, 1024)) {
    Mapping partial = withPartialTiles(problem, mapping);
    if (hasImperfectFactors(partial, problem) &&
        space->model().evaluate(partial, result))
      mappings.push_back(partial);
  }
  if (mappings.empty()) {
    state.SkipWithError("no valid mapping with partial tiles");
    return;
  }
  size_t next = 0;
  for (auto _ : state) {
    space->model().evaluate(mappings[next], result);
    benchmark::DoNotOptimize(result.edp);
    next = (next + 1) % mappings.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["mappings"] = double(mappings.size());
}

void decodeAndEvaluate(benchmark::State &state, Problem problem,
                       const char *preset) {
  auto created = MapSpace::create(std::move(problem), *findPreset(preset), {});
  if (!created) {
    state.SkipWithError(llvm::toString(created.takeError()).c_str());
    return;
  }
  std::unique_ptr<MapSpace> space = std::move(*created);
  Rng rng(1);
  std::vector<int64_t> values(space->parameters().size());
  Mapping mapping;
  Evaluation result;
  for (auto _ : state) {
    space->sample(rng, values.data());
    space->decode(values.data(), mapping);
    space->model().evaluate(mapping, result);
    benchmark::DoNotOptimize(result.valid);
  }
  state.SetItemsProcessed(state.iterations());
}

Problem resnet50Conv3x3() { return makeConv({1, 64, 64, 56, 56, 3, 3}); }
Problem gemm512x768x3072() { return makeGemm(512, 768, 3072); }

} // namespace

BENCHMARK_CAPTURE(evaluate, resnet50_3x3_eyeriss, resnet50Conv3x3(), "eyeriss");
BENCHMARK_CAPTURE(evaluate, gemm_512x768x3072_eyeriss, gemm512x768x3072(),
                  "eyeriss");
BENCHMARK_CAPTURE(evaluate, gemm_512x768x3072_simba, gemm512x768x3072(),
                  "simba");
BENCHMARK_CAPTURE(evaluatePartialTiles, resnet50_3x3_eyeriss, resnet50Conv3x3(),
                  "eyeriss");
BENCHMARK_CAPTURE(evaluatePartialTiles, gemm_512x768x3072_simba,
                  gemm512x768x3072(), "simba");
BENCHMARK_CAPTURE(decodeAndEvaluate, resnet50_3x3_eyeriss, resnet50Conv3x3(),
                  "eyeriss");

BENCHMARK_MAIN();
