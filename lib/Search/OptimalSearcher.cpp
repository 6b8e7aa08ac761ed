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
// prune more; the walks alone make the proof. Instead of kicks, or in turn
// with them, a genetic population evolved on the side can pay for the same
// time: each better mapping it finds starts a descent.
// Complete mappings are proposed to the driver, which evaluates and counts
// them like any searcher's.
//
//===----------------------------------------------------------------------===//

#include "OptimalPolish.h"
#include "OptimalTree.h"

#include <algorithm>
#include <cmath>
#include <map>
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
        polish(space, bounds, options.seed), polishing(options.polish),
        kicks(options.restarts != OptimalRestarts::Genetic) {
    if (options.polish && options.restarts != OptimalRestarts::Kicks)
      genetic = makeGeneticSearcher(space, options.seed, GeneticOptions());
  }

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    proposals.clear();
    if (finished() || timeUp)
      return;
    takePolished(count, proposals);
    // Whole subtrees can go by without a proposal: a time budget is
    // checked here too, and once spent the search proposes nothing more.
    // A genetic population waiting for its batch's feedback has the batch
    // told at once.
    for (unsigned steps = 0;
         proposals.size() < count && !finished() && !geneticWaits(); ++steps) {
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
    for (size_t i = 0; i < feedback.size(); ++i) {
      if (untold[i].from == From::Genetic)
        toldGenetic(untold[i].slot, points[i], feedback[i], true);
      if (!feedback[i].valid)
        continue;
      if (feedback[i].cost < best) {
        kickPrice = 1.0;
        kicksAtThisPrice = 0;
      }
      best = std::min(best, feedback[i].cost);
      if (polishing)
        polish.report(points[i], feedback[i].cost,
                      untold[i].from == From::Polish);
    }
    // Proposals the driver did not evaluate (its budget ended inside the
    // batch) stay open: a walk's count against the certificate; the
    // polish's are the walks' to propose again; the genetic population
    // takes them as invalid.
    for (size_t i = feedback.size(); i < untold.size(); ++i) {
      if (untold[i].from == From::Polish)
        polished.erase(untold[i].point);
      else if (untold[i].from == From::Genetic)
        toldGenetic(untold[i].slot, untold[i].point, Feedback(), false);
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
      if (proposal.from == From::Walk)
        open = std::min(open, proposal.bound);
    double walks = dive.lowerBound();
    if (passesStarted)
      walks = std::max(walks, passes.lowerBound());
    certificate.lowerBound = std::min(open, walks);
    return certificate;
  }

  /// The walks, the polish and the best found stay as they were when the
  /// time ran out: the search goes on where it stopped.
  bool canResume() const override { return !finished(); }
  bool resume(double seconds) override {
    if (!canResume() || !(seconds > 0.0))
      return false;
    clock = BudgetClock(SearchBudget(0, seconds));
    timeUp = false;
    return true;
  }

private:
  /// Adds the polish's proposals up to `count`: the descent from a new
  /// best first; restarts (kicks and the descents they start, the genetic
  /// population's proposals) share the time with the walks, a proposal for
  /// every `kickPrice` nodes they bounded. The price doubles after every
  /// kKicksAtAPrice proposals that found no better mapping (once the
  /// optimum is found, restarts only slow the proof down), and falls back
  /// to 1 with a better mapping. Restarts wait for the walks' first
  /// kBoundsBeforeKicks nodes: small spaces are proved before.
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
      // Genetic proposals take every other restart when both are on; a
      // kick's descent runs to its end before.
      const bool descending = polish.queued();
      if (!fromBest && genetic && !descending && (!kicks || geneticTurn)) {
        geneticTurn = false;
        size_t slot = 0;
        if (!nextGenetic(neighbour, slot))
          return;
        payForRestart();
        untold.push_back({From::Genetic, 0.0, neighbour, slot});
        out.push_back(neighbour);
        continue;
      }
      if (!fromBest && !descending)
        geneticTurn = true;
      if (!polish.next(neighbour, /*mayKick=*/kicks))
        return;
      if (!fromBest)
        payForRestart();
      if (proposed.count(neighbour) || polished.count(neighbour))
        continue;
      if (polished.size() == kMostPolished)
        polished.clear(); // at worst, a mapping evaluated twice
      polished.insert(neighbour);
      out.push_back(neighbour);
      untold.push_back({From::Polish, 0.0, neighbour, 0});
    }
  }

  /// A restart's proposal spends one credit; every kKicksAtAPrice of them
  /// that found nothing better double the price of the next.
  void payForRestart() {
    kickCredit -= 1.0;
    if (++kicksAtThisPrice == kKicksAtAPrice) {
      kickPrice *= 2.0;
      kicksAtThisPrice = 0;
    }
  }

  /// The genetic population's next proposal and its slot in the batch it
  /// was asked for; false while that batch waits for its feedback, or when
  /// the credit runs out. A mapping it proposed before is answered from
  /// memory, not proposed, for a share of a proposal's credit: a population
  /// that only repeats itself costs the walks no more than one that does
  /// not.
  bool nextGenetic(std::vector<int64_t> &point, size_t &slot) {
    for (;;) {
      if (geneticHanded == geneticBatch.size()) {
        if (geneticTold < geneticBatch.size())
          return false;
        if (!geneticBatch.empty())
          genetic->tell(geneticBatch, geneticFeedback);
        genetic->ask(kGeneticBatch, geneticBatch);
        geneticFeedback.assign(geneticBatch.size(), Feedback());
        geneticHanded = geneticTold = 0;
        if (geneticBatch.empty())
          return false;
      }
      slot = geneticHanded++;
      auto known = geneticSeen.find(geneticBatch[slot]);
      if (known == geneticSeen.end()) {
        point = geneticBatch[slot];
        return true;
      }
      geneticFeedback[slot] = known->second;
      ++geneticTold;
      kickCredit -= 1.0 / kGeneticBatch;
      if (kickCredit < 1.0)
        return false;
    }
  }

  /// Whether the genetic population has proposed its whole batch and waits
  /// for the feedback.
  bool geneticWaits() const {
    return genetic && geneticHanded == geneticBatch.size() &&
           geneticTold < geneticBatch.size();
  }

  /// The feedback for the genetic population's proposal in `slot`; one the
  /// driver left unevaluated is invalid to the population but not
  /// remembered.
  void toldGenetic(size_t slot, const std::vector<int64_t> &point,
                   const Feedback &feedback, bool evaluated) {
    geneticFeedback[slot] = feedback;
    ++geneticTold;
    if (!evaluated)
      return;
    if (geneticSeen.size() == kMostPolished)
      geneticSeen.clear(); // at worst, a mapping evaluated twice
    geneticSeen.emplace(point, feedback);
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
          if (proposal.from == From::Polish && proposal.point == point) {
            proposal.from = From::Walk;
            proposal.bound = bound;
            proposal.point.clear();
            break;
          }
        return true;
      }
      if (!proposed.insert(point).second)
        return true;
      out.push_back(std::move(point));
      untold.push_back({From::Walk, bound, {}, 0});
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
  /// Proposals the genetic population is asked for at a time.
  static constexpr unsigned kGeneticBatch = 16;
  /// States each walk's Dominance may remember: with both full, about
  /// 450 MB.
  static constexpr size_t kRemembered = size_t(1) << 19;

  PartialBound bounds;
  BudgetClock clock;
  bool timeUp = false;
  double best = kNone;
  OptimalTree dive, passes;
  Polish polish;
  const bool polishing, kicks;
  /// The genetic population (null unless its restarts are on), the batch
  /// it was last asked for, how much of it was proposed and told, and the
  /// feedback for what it proposed (up to kMostPolished, then forgotten).
  std::unique_ptr<Searcher> genetic;
  std::vector<std::vector<int64_t>> geneticBatch;
  std::vector<Feedback> geneticFeedback;
  size_t geneticHanded = 0, geneticTold = 0;
  std::map<std::vector<int64_t>, Feedback> geneticSeen;
  /// With both restarts on: whether the genetic population's turn is next.
  bool geneticTurn = true;
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
  /// Who made a proposal of the last ask: a walk, with its bound; the
  /// polish, with the point (the walks may propose it again if the driver
  /// leaves it out); or the genetic population, with the point and its
  /// slot in the population's batch.
  enum class From { Walk, Polish, Genetic };
  struct Untold {
    From from;
    double bound;
    std::vector<int64_t> point;
    size_t slot;
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
