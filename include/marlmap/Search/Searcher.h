//===- Searcher.h - Searching a map space by asking and telling -*- C++ -*-===//
//
// A searcher proposes parameter vectors (ask) and learns their costs (tell),
// Timeloop's Next/Report. The driver evaluates every proposal with the cost
// model and counts it against the budget, valid or not, so that searchers
// are compared at equal samples.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_SEARCHER_H
#define MARLMAP_SEARCH_SEARCHER_H

#include "marlmap/Core/MapSpace.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

enum class Objective { Latency, Energy, EDP };
const char *objectiveName(Objective objective);
std::optional<Objective> parseObjective(const std::string &name);
/// Lower is better: cycles, pJ, or pJ x cycles.
double objectiveValue(const Evaluation &evaluation, Objective objective);

/// The outcome of one proposal, as a searcher learns it.
struct Feedback {
  bool valid = false;
  /// The objective when valid.
  double cost = 0.0;
};

class Searcher {
public:
  virtual ~Searcher() = default;
  /// Up to `count` proposals into `proposals` (each one value per
  /// parameter of the space).
  virtual void ask(unsigned count,
                   std::vector<std::vector<int64_t>> &proposals) = 0;
  /// The feedback for the proposals of the last ask, in order.
  virtual void tell(const std::vector<std::vector<int64_t>> &proposals,
                    const std::vector<Feedback> &feedback) = 0;
};

/// Uniform samples of the space, like Timeloop's random mapper.
std::unique_ptr<Searcher> makeRandomSearcher(const MapSpace &space,
                                             uint64_t seed);

struct SearchResult {
  bool found = false;
  Mapping best;
  Evaluation bestEvaluation;
  double bestCost = 0.0;
  int64_t samples = 0;
  int64_t validSamples = 0;
  double seconds = 0.0;
  /// (samples so far, best cost so far) after every improvement.
  std::vector<std::pair<int64_t, double>> curve;
};

struct SearchOptions {
  Objective objective = Objective::EDP;
  int64_t budget = 1000;
  /// Proposals asked for at a time.
  unsigned batch = 64;
  /// Called after every batch with (samples, budget).
  std::function<void(int64_t, int64_t)> progress;
};

/// Runs `searcher` on `space` until the budget is spent.
SearchResult runSearch(const MapSpace &space, Searcher &searcher,
                       const SearchOptions &options);

} // namespace marlmap

#endif // MARLMAP_SEARCH_SEARCHER_H
