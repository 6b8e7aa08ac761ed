//===- map-layers.cpp - marlmap's C++ API from another program ------------===//
//
// Maps layers onto an accelerator preset and prints each layer's mapping
// and figures, then the network's:
//
//   map-layers eyeriss conv:K=64,C=64,P=56,Q=56,R=3,S=3 gemm:M=512,N=768,K=768
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Report/TextView.h"

#include <cstdio>
#include <iostream>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::cerr << "usage: " << argv[0] << " PRESET LAYER...\n";
    return 1;
  }
  std::optional<marlmap::Arch> arch = marlmap::findPreset(argv[1]);
  if (!arch) {
    std::cerr << "no preset named '" << argv[1] << "'\n";
    return 1;
  }

  // The problems, one per layer.
  std::vector<marlmap::MapperProblem> problems;
  for (int i = 2; i < argc; ++i) {
    llvm::Expected<marlmap::Problem> problem = marlmap::parseLayer(argv[i]);
    if (!problem) {
      std::cerr << argv[i] << ": " << llvm::toString(problem.takeError())
                << "\n";
      return 1;
    }
    problems.push_back({*problem, std::nullopt});
  }

  // A Mapper with the defaults but the searcher, on two threads.
  marlmap::MapperOptions options;
  options.searcher = "annealing";
  options.budget = 3000;
  llvm::Expected<std::unique_ptr<marlmap::Mapper>> mapper =
      marlmap::makeMapper(options, *arch);
  if (!mapper) {
    std::cerr << marlmap::errorText(mapper.takeError()) << "\n";
    return 1;
  }
  std::unique_ptr<marlmap::Executor> executor = marlmap::makeThreadExecutor(2);
  marlmap::MapperResult result = (*mapper)->map(problems, *executor);

  for (size_t i = 0; i < problems.size(); ++i) {
    const marlmap::ProblemOutcome &outcome =
        result.problems[result.distinctOf[i]];
    std::cout << "== " << argv[i + 2] << "\n";
    if (!outcome.error.empty() || !outcome.found) {
      std::cout << "not mapped: "
                << (outcome.error.empty() ? outcome.notFound : outcome.error)
                << "\n";
      continue;
    }
    std::cout << marlmap::loopNestText(outcome.mapping, outcome.problem, *arch,
                                       outcome.evaluation)
              << marlmap::figuresText(outcome.evaluation, outcome.bound)
              << "\n";
  }
  const marlmap::NetworkTotals &totals = result.totals;
  std::printf("network: %zu layers mapped, %.6e pJ, %lld cycles, EDP %.6e\n",
              totals.opsMapped, totals.energy,
              static_cast<long long>(totals.cycles), totals.edp);
  return totals.opsNotMapped == 0 ? 0 : 1;
}
