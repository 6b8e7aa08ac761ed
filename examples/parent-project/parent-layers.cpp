//===- parent-layers.cpp - marlmap's core from a parent project -----------===//
//
// The best of a thousand uniformly drawn mappings of a layer, costed with
// marlmap's analytical model: the core layer alone, without MLIR or LibTorch.
//
//   parent-layers eyeriss conv:K=64,C=64,P=56,Q=56,R=3,S=3
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"

#include <cstdio>
#include <iostream>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " PRESET LAYER\n";
    return 1;
  }
  std::optional<marlmap::Arch> arch = marlmap::findPreset(argv[1]);
  if (!arch) {
    std::cerr << "no such preset\n";
    return 1;
  }
  llvm::Expected<marlmap::Problem> problem = marlmap::parseLayer(argv[2]);
  if (!problem) {
    std::cerr << llvm::toString(problem.takeError()) << "\n";
    return 1;
  }
  auto created = marlmap::MapSpace::create(*problem, *arch, {});
  if (!created) {
    std::cerr << llvm::toString(created.takeError()) << "\n";
    return 1;
  }
  std::unique_ptr<marlmap::MapSpace> space = std::move(*created);
  marlmap::Rng rng(1);
  std::vector<int64_t> values(space->parameters().size());
  marlmap::Evaluation best;
  for (int sample = 0; sample < 1000; ++sample) {
    space->sample(rng, values.data());
    marlmap::Evaluation evaluation =
        space->model().evaluate(space->decode(values));
    if (evaluation.valid &&
        (!best.valid ||
         evaluation.energy * evaluation.cycles < best.energy * best.cycles))
      best = evaluation;
  }
  if (!best.valid) {
    std::cout << "no valid mapping among 1000\n";
    return 1;
  }
  std::printf("best of 1000: %lld cycles, %.6e pJ\n",
              static_cast<long long>(best.cycles), best.energy);
  return 0;
}
