//===- CoordinateSearcher.cpp - A searcher of the downstream project ------===//

#include "CoordinateSearcher.h"

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Random.h"

#include <limits>

namespace {

/// Asks for `starts` random points, then, from the best valid one so far,
/// redraws one parameter per proposal, the parameters in turn.
class CoordinateSearcher : public marlmap::Searcher {
public:
  CoordinateSearcher(const marlmap::MapSpace &space, uint64_t seed,
                     int64_t starts)
      : space(space), rng(seed), starts(starts) {}

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    const size_t numParams = space.parameters().size();
    proposals.assign(count, std::vector<int64_t>(numParams));
    for (std::vector<int64_t> &point : proposals) {
      if (asked++ < starts || best.empty()) {
        space.sample(rng, point.data());
        continue;
      }
      point = best;
      const size_t p = next++ % numParams;
      point[p] = rng.below(space.parameters()[p].choices);
    }
  }

  void tell(const std::vector<std::vector<int64_t>> &proposals,
            const std::vector<marlmap::Feedback> &feedback) override {
    for (size_t i = 0; i < feedback.size(); ++i)
      if (feedback[i].valid && feedback[i].cost < bestCost) {
        bestCost = feedback[i].cost;
        best = proposals[i];
      }
  }

private:
  const marlmap::MapSpace &space;
  marlmap::Rng rng;
  const int64_t starts;
  int64_t asked = 0;
  size_t next = 0;
  std::vector<int64_t> best;
  double bestCost = std::numeric_limits<double>::infinity();
};

} // namespace

marlmap::SearcherEntry coordinateSearcherEntry() {
  marlmap::SearcherEntry entry;
  entry.name = "coordinate";
  entry.help = "Coordinate descent: random starts, then one parameter at a "
               "time redrawn, keeping what improves";
  // Its options are named after it, as every registered searcher's are.
  entry.options = {marlmap::integerOption(
      "coordinate-starts", "random points drawn before the descent", 64, 1,
      1000000)};
  entry.make = [](const marlmap::SearcherRequest &request,
                  const marlmap::MapSpace &space,
                  uint64_t seed) -> std::unique_ptr<marlmap::Searcher> {
    return std::make_unique<CoordinateSearcher>(
        space, seed, request.options.integer("coordinate-starts"));
  };
  return entry;
}
