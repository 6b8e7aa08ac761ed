//===- OptimalSearcher.cpp - Branch and bound to a proven optimum ---------===//
//
// Two walks of the same tree of partial mappings (OptimalTree) share the
// best mapping found and take turns, a fixed number of steps each:
//  - the dive, one depth-first pass: it reaches complete mappings at once
//    and keeps improving on them, wherever its first choices led it;
//  - the passes, under a threshold that grows from pass to pass, which
//    start once a mapping of the dive's is reported valid (and only when
//    the model's floor is positive): they propose mappings in order of
//    their bounds and raise the proved lower bound pass by pass.
// Either proves the optimum when it ends; the lower bound is the higher of
// theirs. The neighbours of each better mapping found are evaluated before
// the walks go on, and kicks from the best share the time with them
// (Polish): local search that finds good mappings sooner so that the walks
// prune more; the walks alone make the proof.
// Complete mappings are proposed to the driver, which evaluates and counts
// them like any searcher's.
//
//===----------------------------------------------------------------------===//

#include "OptimalPolish.h"
#include "OptimalTree.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace marlmap {
namespace {

class OptimalSearcher : public Searcher {
public:
  OptimalSearcher(const MapSpace &space, Objective objective,
                  const SearchBudget &budget, const OptimalOptions &options)
      : bounds(space, objective), clock(budget),
        dive(space, bounds, objective, best, kRemembered),
        passes(space, bounds, objective, best, kRemembered),
        polish(space, bounds, options.seed), polishing(options.polish) {}

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    proposals.clear();
    if (finished() || timeUp)
      return;
    takePolished(count, proposals);
    // Whole subtrees can go by without a proposal: a time budget is
    // checked here too, and once spent the search proposes nothing more.
    for (unsigned steps = 0; proposals.size() < count && !finished(); ++steps) {
      if (steps % 1024 == 1023 && outOfTime())
        break;
      // The turn carries over from one ask to the next: small batches
      // would otherwise leave the passes none.
      const bool diveTurn = !passesStarted || (turn / kTurn) % kDiveShare != 0;
      if (!takeStep(diveTurn ? dive : passes, proposals))
        break;
      if (passesStarted)
        ++turn;
      takePolished(count, proposals);
    }
  }

  void tell(const std::vector<std::vector<int64_t>> &points,
            const std::vector<Feedback> &feedback) override {
    for (size_t i = 0; i < feedback.size(); ++i)
      if (feedback[i].valid) {
        if (feedback[i].cost < best) {
          kickPrice = 1.0;
          kicksAtThisPrice = 0;
        }
        best = std::min(best, feedback[i].cost);
        if (polishing)
          polish.report(points[i], feedback[i].cost,
                        std::isnan(untold[i].bound));
      }
    // Proposals the driver did not evaluate (its budget ended inside the
    // batch) stay open: a walk's count against the certificate; the
    // polish's are the walks' to propose again.
    for (size_t i = feedback.size(); i < untold.size(); ++i) {
      if (std::isnan(untold[i].bound))
        polished.erase(untold[i].polished);
      else
        unevaluated = std::min(unevaluated, untold[i].bound);
    }
    untold.clear();
    // Thresholds only help when bounds tell nodes apart.
    if (!passesStarted && best < kNone && bounds.floor() > 0.0) {
      passesStarted = true;
      passes.usePasses(bounds.floor() * 1.05);
    }
  }

  std::optional<SearchCertificate> certificate() const override {
    SearchCertificate certificate;
    certificate.complete = finished() && untold.empty() && unevaluated == kNone;
    double open = std::min(best, unevaluated);
    for (const Untold &proposal : untold)
      if (!std::isnan(proposal.bound))
        open = std::min(open, proposal.bound);
    double walks = dive.lowerBound();
    if (passesStarted)
      walks = std::max(walks, passes.lowerBound());
    certificate.lowerBound = std::min(open, walks);
    return certificate;
  }

private:
  /// Adds the polish's proposals up to `count`: the descent from a new
  /// best first; kicks and the descents they start share the time with the
  /// walks, a proposal for every `kickPrice` nodes they bounded. The price
  /// doubles after every kKicksAtAPrice proposals that found no better
  /// mapping (once the optimum is found, kicks only slow the proof down),
  /// and falls back to 1 with a better mapping. Kicks wait for the walks'
  /// first kBoundsBeforeKicks nodes: small spaces are proved before.
  void takePolished(unsigned count, std::vector<std::vector<int64_t>> &out) {
    if (!polishing)
      return;
    if (bounds.calls() < kBoundsBeforeKicks)
      boundsPaid = bounds.calls();
    kickCredit =
        std::min(kickCredit + double(bounds.calls() - boundsPaid) / kickPrice,
                 kMostKickCredit);
    boundsPaid = bounds.calls();
    std::vector<int64_t> neighbour;
    while (out.size() < count) {
      const bool fromBest = polish.queued() && !polish.afterKick();
      if (!fromBest && kickCredit < 1.0)
        return;
      if (!polish.next(neighbour, /*mayKick=*/true))
        return;
      if (!fromBest) {
        kickCredit -= 1.0;
        if (++kicksAtThisPrice == kKicksAtAPrice) {
          kickPrice *= 2.0;
          kicksAtThisPrice = 0;
        }
      }
      if (proposed.count(neighbour) || polished.count(neighbour))
        continue;
      if (polished.size() == kMostPolished)
        polished.clear(); // at worst, a mapping evaluated twice
      polished.insert(neighbour);
      out.push_back(neighbour);
      untold.push_back({kPolished, neighbour});
    }
  }

  /// Either walk has ended: what it proposed holds the optimum.
  bool finished() const {
    return dive.finished() || (passesStarted && passes.finished());
  }

  /// One step of `tree`; false when the search has nothing more to
  /// propose in this ask. A mapping proposed before (by the other walk,
  /// or by an earlier pass) is not proposed again: its cost is already
  /// counted in the best.
  bool takeStep(OptimalTree &tree, std::vector<std::vector<int64_t>> &out) {
    std::vector<int64_t> point;
    double bound = 0.0;
    switch (tree.step(point, bound, out.empty(), unevaluated)) {
    case OptimalTree::Step::Proposed:
      if (polished.count(point)) {
        // Proposed by the polish in this batch: should the driver not
        // evaluate it, it counts against the certificate like the walk's.
        for (Untold &proposal : untold)
          if (std::isnan(proposal.bound) && proposal.polished == point) {
            proposal.bound = bound;
            proposal.polished.clear();
            break;
          }
        return true;
      }
      if (!proposed.insert(point).second)
        return true;
      out.push_back(std::move(point));
      untold.push_back({bound, {}});
      return true;
    case OptimalTree::Step::Moved:
      return true;
    case OptimalTree::Step::PassEnded:
      // Its next pass waits for the evaluation of what was proposed.
      return false;
    case OptimalTree::Step::Finished:
      return false;
    }
    return false;
  }

  bool outOfTime() {
    timeUp = timeUp || clock.secondsSpent();
    return timeUp;
  }

  static constexpr double kNone = OptimalTree::kNone;
  /// A polish's proposal's bound in `untold`: no walk's.
  static constexpr double kPolished = std::numeric_limits<double>::quiet_NaN();
  /// Steps each walk takes in its turn, and the dive's turns in every
  /// kDiveShare (the better the mappings found, the more every later node
  /// is pruned; the passes' lower bound grows only with the logarithm of
  /// their work).
  static constexpr unsigned kTurn = 256, kDiveShare = 4;
  /// Proposals of the kicks' descents at one price (at the first, a node
  /// bounded pays for one: the kicks get about a third of the time), and
  /// the most proposals saved up.
  static constexpr unsigned kKicksAtAPrice = 4096;
  static constexpr uint64_t kBoundsBeforeKicks = 10'000;
  static constexpr size_t kMostPolished = size_t(1) << 18;
  static constexpr double kMostKickCredit = 4096;
  /// States each walk's Dominance may remember: with both full, about
  /// 450 MB.
  static constexpr size_t kRemembered = size_t(1) << 19;

  PartialBound bounds;
  const BudgetClock clock;
  bool timeUp = false;
  double best = kNone;
  OptimalTree dive, passes;
  Polish polish;
  const bool polishing;
  double kickCredit = 0.0, kickPrice = 1.0;
  unsigned kicksAtThisPrice = 0;
  uint64_t boundsPaid = 0;
  bool passesStarted = false;
  /// Steps taken since the passes started: whose turn it is.
  uint64_t turn = 0;
  /// Every mapping the walks proposed (one per evaluation the budget
  /// counts), and the latest ones the polish did (its kicks' descents
  /// propose about one per node the walks bound: it forgets them all past
  /// kMostPolished, about 100 MB).
  std::set<std::vector<int64_t>> proposed, polished;
  /// A proposal of the last ask: a walk's bound on it, or kPolished and
  /// the point for the polish's (the walks may propose it again if the
  /// driver leaves it out).
  struct Untold {
    double bound;
    std::vector<int64_t> polished;
  };
  /// The proposals of the last ask, and the least bound of the walks'
  /// proposals never evaluated.
  std::vector<Untold> untold;
  double unevaluated = kNone;
};

} // namespace

std::unique_ptr<Searcher> makeOptimalSearcher(const MapSpace &space,
                                              Objective objective,
                                              const SearchBudget &budget,
                                              const OptimalOptions &options) {
  return std::make_unique<OptimalSearcher>(space, objective, budget, options);
}

} // namespace marlmap
