//===- PolishedSearcher.cpp - A searcher with the exact one's polish ------===//
//
// A hybrid: another searcher's proposals (marl's, for `marl-polish`) with
// the exact searcher's polish (OptimalPolish.h) descending from every
// better mapping found. Batches take turns: the polish's when the batch
// before was the inner searcher's and it has neighbours queued, else the
// inner searcher's, whole (marl learns once per batch it is told of, and
// a sliver of a batch would cost it a whole update; giving the polish
// every batch while a descent lasted starved marl, docs/Search.md). The
// inner searcher is told only of its own proposals; under a sample budget
// its own clock, which counts them, runs slower than the search's. The
// polish starts no kicks: the inner searcher explores. Once the inner
// searcher has nothing left to propose, the polish's queue is emptied.
//
//===----------------------------------------------------------------------===//

#include "OptimalPolish.h"

#include <cassert>
#include <set>

namespace marlmap {
namespace {

class PolishedSearcher : public Searcher {
public:
  PolishedSearcher(const MapSpace &space, Objective objective,
                   std::unique_ptr<Searcher> inner, uint64_t seed)
      : inner(std::move(inner)), bounds(space, objective),
        polish(space, bounds, seed) {}

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    proposals.clear();
    if (fromInner && !innerDone)
      takePolished(count, proposals);
    fromInner = proposals.empty();
    if (!fromInner)
      return;
    inner->ask(count, proposals);
    if (proposals.empty()) {
      innerDone = true;
      fromInner = false;
      takePolished(count, proposals);
    }
  }

  void tell(const std::vector<std::vector<int64_t>> &points,
            const std::vector<Feedback> &feedback) override {
    if (fromInner)
      inner->tell(points, feedback);
    for (size_t i = 0; i < feedback.size(); ++i)
      if (feedback[i].valid)
        polish.report(points[i], feedback[i].cost, !fromInner);
    // Neighbours the driver did not evaluate (its budget ended inside the
    // batch) may be proposed again.
    if (!fromInner)
      for (size_t i = feedback.size(); i < points.size(); ++i)
        polished.erase(points[i]);
  }

  std::string failure() const override { return inner->failure(); }
  const AgentView *agentView() const override { return inner->agentView(); }

private:
  /// The polish's queued neighbours not proposed before, up to `count`.
  void takePolished(unsigned count, std::vector<std::vector<int64_t>> &out) {
    out.clear();
    std::vector<int64_t> neighbour;
    while (out.size() < count && polish.next(neighbour, /*mayKick=*/false)) {
      if (!polished.insert(neighbour).second)
        continue;
      if (polished.size() > kMostRemembered)
        polished.clear(); // at worst, a mapping evaluated twice
      out.push_back(neighbour);
    }
  }

  /// Polished points remembered so as not to propose them twice (about
  /// 100 MB at the most).
  static constexpr size_t kMostRemembered = size_t(1) << 18;

  std::unique_ptr<Searcher> inner;
  PartialBound bounds;
  Polish polish;
  std::set<std::vector<int64_t>> polished;
  /// Whether the last batch was the inner searcher's; whether it has
  /// nothing left to propose.
  bool fromInner = true, innerDone = false;
};

} // namespace

std::unique_ptr<Searcher> makePolishedSearcher(const MapSpace &space,
                                               Objective objective,
                                               std::unique_ptr<Searcher> inner,
                                               uint64_t seed) {
  assert(space.factorSpace() == FactorSpace::Perfect &&
         "the polish walks the perfect space's factor slots");
  return std::make_unique<PolishedSearcher>(space, objective, std::move(inner),
                                            seed);
}

} // namespace marlmap
