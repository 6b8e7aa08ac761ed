//===- ClassicalEntries.cpp - random, exhaustive, optimal, genetic, ... ---===//
//
// The registry entries of the searchers that do not learn: their options
// and how each is made from them.
//
//===----------------------------------------------------------------------===//

#include "Entries.h"

namespace marlmap {

SearcherEntry randomSearcherEntry() {
  SearcherEntry entry;
  entry.name = "random";
  entry.help = "Uniform samples of the space, like Timeloop's random mapper";
  entry.make = [](const SearcherRequest &, const MapSpace &space,
                  uint64_t seed) { return makeRandomSearcher(space, seed); };
  return entry;
}

SearcherEntry exhaustiveSearcherEntry() {
  SearcherEntry entry;
  entry.name = "exhaustive";
  entry.help = "Every point in order: the true optimum of a small space "
               "(the budget must cover it)";
  entry.provesOptima = true;
  entry.make = [](const SearcherRequest &request, const MapSpace &space,
                  uint64_t) {
    return makeExhaustiveSearcher(space, request.budget.samples);
  };
  return entry;
}

SearcherEntry optimalSearcherEntry() {
  SearcherEntry entry;
  entry.name = "optimal";
  entry.help = "Branch and bound: the least objective of the space, proved "
               "when it ends within the budget, else the best found and a "
               "lower bound (factors=perfect only)";
  entry.perfectFactorsOnly = true;
  entry.provesOptima = true;
  entry.options = {
      choiceOption("optimal-polish",
                   "evaluate the neighbours of each better mapping found "
                   "(local improvement; the proof is the same)",
                   "on", {"on", "off"}),
      choiceOption("optimal-restarts",
                   "where the polish starts new descents in the walks' "
                   "spare time: a few random moves from the best mapping "
                   "(kicks), the better mappings of a genetic population "
                   "evolved on the side, or both in turn",
                   "both", {"kicks", "genetic", "both"}),
  };
  entry.make = [](const SearcherRequest &request, const MapSpace &space,
                  uint64_t seed) {
    OptimalOptions options;
    options.polish = request.options.text("optimal-polish") == "on";
    const std::string restarts = request.options.text("optimal-restarts");
    options.restarts = restarts == "genetic" ? OptimalRestarts::Genetic
                       : restarts == "both"  ? OptimalRestarts::Both
                                             : OptimalRestarts::Kicks;
    options.seed = seed;
    return makeOptimalSearcher(space, request.objective, request.budget,
                               options);
  };
  return entry;
}

SearcherEntry geneticSearcherEntry() {
  const GeneticOptions defaults;
  SearcherEntry entry;
  entry.name = "genetic";
  entry.help = "GAMMA-style genetic algorithm";
  entry.options = {
      integerOption("genetic-population",
                    "parameter vectors kept between generations",
                    defaults.population, 2, 1'000'000),
      integerOption("genetic-tournament",
                    "candidates drawn to pick each parent", defaults.tournament,
                    1, 1000),
      realOption("genetic-mutation",
                 "chance that a child's parameter is drawn afresh",
                 defaults.mutationRate, 0.0, 1.0),
  };
  entry.make = [](const SearcherRequest &request, const MapSpace &space,
                  uint64_t seed) {
    GeneticOptions options;
    options.population =
        unsigned(request.options.integer("genetic-population"));
    options.tournament =
        unsigned(request.options.integer("genetic-tournament"));
    options.mutationRate = request.options.real("genetic-mutation");
    return makeGeneticSearcher(space, seed, options);
  };
  return entry;
}

SearcherEntry annealingSearcherEntry() {
  const AnnealingOptions defaults;
  SearcherEntry entry;
  entry.name = "annealing";
  entry.help = "SALSA-style simulated annealing on log cost";
  entry.options = {
      realOption("annealing-start",
                 "starting temperature, in units of log cost",
                 defaults.initialTemperature, 0.0, 1000.0, /*openBelow=*/true),
      realOption("annealing-end", "final temperature, in units of log cost",
                 defaults.finalTemperature, 0.0, 1000.0, /*openBelow=*/true),
      integerOption("annealing-changes",
                    "a neighbour redraws 1 to this many parameters",
                    defaults.maxChanges, 1, 1000),
  };
  entry.make = [](const SearcherRequest &request, const MapSpace &space,
                  uint64_t seed) {
    AnnealingOptions options;
    options.initialTemperature = request.options.real("annealing-start");
    options.finalTemperature = request.options.real("annealing-end");
    options.maxChanges = unsigned(request.options.integer("annealing-changes"));
    return makeAnnealingSearcher(space, seed, request.budget, options);
  };
  return entry;
}

} // namespace marlmap
