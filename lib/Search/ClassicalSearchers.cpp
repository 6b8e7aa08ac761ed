//===- ClassicalSearchers.cpp - Random, exhaustive, genetic, annealing ----===//
//
// The baselines every learned searcher is measured against. All work on the
// map space's parameter vectors only, and are deterministic for a seed.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Search/Searcher.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

namespace {

using Vector = std::vector<int64_t>;

/// Uniform samples of the space, like Timeloop's random mapper.
class RandomSearcher : public Searcher {
public:
  RandomSearcher(const MapSpace &space, uint64_t seed)
      : space(space), rng(seed) {}

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    proposals.resize(count);
    for (Vector &values : proposals) {
      values.resize(space.parameters().size());
      space.sample(rng, values.data());
    }
  }
  void tell(const std::vector<Vector> &,
            const std::vector<Feedback> &) override {}

private:
  const MapSpace &space;
  Rng rng;
};

/// Every point, in the space's order; asks for nothing once done.
class ExhaustiveSearcher : public Searcher {
public:
  explicit ExhaustiveSearcher(const MapSpace &space)
      : space(space), next(space.parameters().size(), 0) {}

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    proposals.clear();
    while (!done && proposals.size() < count) {
      proposals.push_back(next);
      // Advance the mixed-radix counter, last parameter fastest.
      done = true;
      for (size_t i = next.size(); i-- > 0;) {
        if (++next[i] < space.parameters()[i].choices) {
          done = false;
          break;
        }
        next[i] = 0;
      }
    }
  }
  void tell(const std::vector<Vector> &,
            const std::vector<Feedback> &) override {}

private:
  const MapSpace &space;
  Vector next;
  bool done = false;
};

double fitnessOf(const Feedback &feedback) {
  return feedback.valid ? feedback.cost
                        : std::numeric_limits<double>::infinity();
}

/// GAMMA-style: a population of parameter vectors; children from
/// tournament-selected parents by uniform crossover and per-parameter
/// mutation; the best of parents and children survive.
class GeneticSearcher : public Searcher {
public:
  GeneticSearcher(const MapSpace &space, uint64_t seed,
                  const GeneticOptions &options)
      : space(space), rng(seed), options(options) {}

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    proposals.resize(count);
    for (Vector &child : proposals) {
      child.resize(space.parameters().size());
      if (population.size() < options.population) {
        space.sample(rng, child.data());
        continue;
      }
      const Vector &a = tournament(), &b = tournament();
      for (size_t i = 0; i < child.size(); ++i) {
        child[i] = rng.unit() < 0.5 ? a[i] : b[i];
        if (rng.unit() < options.mutationRate)
          child[i] = rng.below(space.parameters()[i].choices);
      }
    }
  }

  void tell(const std::vector<Vector> &proposals,
            const std::vector<Feedback> &feedback) override {
    for (size_t i = 0; i < proposals.size(); ++i)
      population.push_back({fitnessOf(feedback[i]), proposals[i]});
    // Keep the best; stable so that ties keep their arrival order.
    std::stable_sort(
        population.begin(), population.end(),
        [](const auto &x, const auto &y) { return x.first < y.first; });
    if (population.size() > options.population)
      population.resize(options.population);
  }

private:
  const Vector &tournament() {
    size_t best = rng.below(population.size());
    for (unsigned k = 1; k < options.tournament; ++k)
      best = std::min<size_t>(best, rng.below(population.size()));
    return population[best].second; // sorted: lower index, fitter
  }

  const MapSpace &space;
  Rng rng;
  GeneticOptions options;
  std::vector<std::pair<double, Vector>> population;
};

/// SALSA-style simulated annealing on log cost: a neighbour changes a few
/// parameters; worse neighbours are accepted with probability
/// exp(-(log new - log current) / temperature); the temperature falls
/// geometrically from `initialTemperature` to `finalTemperature` over the
/// budget (its samples, or its time when that runs out first). Invalid
/// neighbours are rejected.
class AnnealingSearcher : public Searcher {
public:
  AnnealingSearcher(const MapSpace &space, uint64_t seed,
                    const SearchBudget &budget, const AnnealingOptions &options)
      : space(space), rng(seed), options(options), clock(budget),
        cooling(std::pow(options.finalTemperature / options.initialTemperature,
                         1.0 / double(std::max<int64_t>(budget.samples, 1)))),
        temperature(options.initialTemperature),
        current(space.parameters().size()) {
    space.sample(rng, current.data());
  }

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    proposals.resize(count);
    for (Vector &neighbour : proposals) {
      neighbour = current;
      if (!haveCurrent) {
        space.sample(rng, neighbour.data());
        continue;
      }
      unsigned changes = 1 + unsigned(rng.below(options.maxChanges));
      for (unsigned c = 0; c < changes && !neighbour.empty(); ++c) {
        size_t i = rng.below(neighbour.size());
        neighbour[i] = rng.below(space.parameters()[i].choices);
      }
    }
  }

  void tell(const std::vector<Vector> &proposals,
            const std::vector<Feedback> &feedback) override {
    for (size_t i = 0; i < proposals.size(); ++i) {
      ++told;
      // By samples, one factor per sample (the schedule exactly); by time,
      // from where the clock says the search is.
      temperature = clock.followsTime()
                        ? options.initialTemperature *
                              std::pow(options.finalTemperature /
                                           options.initialTemperature,
                                       clock.fraction(told))
                        : temperature * cooling;
      if (!feedback[i].valid)
        continue;
      double cost = std::log(std::max(feedback[i].cost, 1e-300));
      bool accept = !haveCurrent || cost <= currentCost ||
                    rng.unit() < std::exp(-(cost - currentCost) / temperature);
      if (accept) {
        current = proposals[i];
        currentCost = cost;
        haveCurrent = true;
      }
    }
  }

private:
  const MapSpace &space;
  Rng rng;
  AnnealingOptions options;
  BudgetClock clock;
  int64_t told = 0;
  double cooling, temperature;
  Vector current;
  double currentCost = 0.0;
  bool haveCurrent = false;
};

} // namespace

std::unique_ptr<Searcher> makeRandomSearcher(const MapSpace &space,
                                             uint64_t seed) {
  return std::make_unique<RandomSearcher>(space, seed);
}

llvm::Expected<std::unique_ptr<Searcher>>
makeExhaustiveSearcher(const MapSpace &space, int64_t samples) {
  int64_t size = 1;
  for (const Parameter &param : space.parameters())
    size = saturatingMul(size, param.choices);
  if (size > kMaxExhaustivePoints) {
    return makeError("the space has 10^" +
                     std::to_string(int(std::ceil(space.log10Size()))) +
                     " points; exhaustive search takes at most " +
                     std::to_string(kMaxExhaustivePoints));
  }
  if (samples > 0 && size > samples) {
    return makeError("exhaustive search of " + std::to_string(size) +
                     " points needs a budget of at least that, not " +
                     std::to_string(samples));
  }
  return std::make_unique<ExhaustiveSearcher>(space);
}

std::unique_ptr<Searcher> makeGeneticSearcher(const MapSpace &space,
                                              uint64_t seed,
                                              const GeneticOptions &options) {
  return std::make_unique<GeneticSearcher>(space, seed, options);
}

std::unique_ptr<Searcher>
makeAnnealingSearcher(const MapSpace &space, uint64_t seed,
                      const SearchBudget &budget,
                      const AnnealingOptions &options) {
  return std::make_unique<AnnealingSearcher>(space, seed, budget, options);
}

} // namespace marlmap
