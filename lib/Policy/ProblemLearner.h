//===- ProblemLearner.h - One problem's side of a policy search -*- C++ -*-===//
//
// What the policy searchers (PolicySearchers.cpp) keep per problem: its
// decisions, its generator, the warm-up, the replayed elites and the
// rewards, and the lessons it gives the pack's stacked networks.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_POLICY_PROBLEMLEARNER_H
#define MARLMAP_LIB_POLICY_PROBLEMLEARNER_H

#include "AgentNetworks.h"

#include "marlmap/Search/Searcher.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

/// One problem's side of a policy search: its decisions, generator,
/// warm-up, replay and rewards. The networks are the pack's.
class ProblemLearner {
public:
  using Vector = std::vector<int64_t>;
  using Proposals = NetworkSearcher::Proposals;

  ProblemLearner(const MapSpace &space, uint64_t seed, const BudgetClock &clock,
                 const PolicyOptions &options)
      : space(space), decisionSpace(space, 64, options.levelSpreads), rng(seed),
        clock(clock), options(options) {}

  /// Fresh proposals (decision values) for the next batch: drawn uniformly
  /// when `uniform` (until the networks exist), else left to draw().
  void startBatch(unsigned count, bool uniform) {
    const std::vector<Decision> &decisions = decisionSpace.decisions();
    pending.assign(count, Vector(decisions.size(), 0));
    if (uniform)
      for (Vector &proposal : pending)
        for (size_t d = 0; d < decisions.size(); ++d)
          proposal[d] = rng.below(decisions[d].choices);
    askProgress = progress();
  }
  AgentNetworks::Draw draw() { return {askProgress, &rng, &pending}; }
  const std::vector<Decision> &decisions() const {
    return decisionSpace.decisions();
  }

  /// A point of the space to try in the next batch.
  void suggest(const std::vector<int64_t> &point) {
    suggested.emplace_back(decisionSpace.decisions().size());
    decisionSpace.fromParameters(point.data(), suggested.back().data());
  }
  /// Puts the suggestions in the first rows of the drawn batch (the oldest
  /// first; what does not fit waits for the next).
  void placeSuggestions() {
    size_t placed = std::min(suggested.size(), pending.size());
    for (size_t i = 0; i < placed; ++i)
      pending[i] = std::move(suggested[i]);
    suggested.erase(suggested.begin(), suggested.begin() + placed);
  }

  /// The pending batch as map-space parameter vectors; with `fit`, fitted
  /// into the fanouts first, the batch with them (what the agents learn
  /// from is what was evaluated).
  void toParameters(Proposals &proposals, bool fit) {
    proposals.resize(pending.size());
    for (size_t i = 0; i < pending.size(); ++i) {
      proposals[i].resize(space.parameters().size());
      decisionSpace.toParameters(pending[i].data(), proposals[i].data());
      if (fit)
        decisionSpace.fitSpread(pending[i].data(), proposals[i].data());
    }
  }

  /// Records a warm-up batch's outcome; true once the warm-up is complete.
  bool warmUp(const std::vector<Feedback> &feedback) {
    told += int64_t(feedback.size());
    for (size_t i = 0; i < feedback.size(); ++i)
      recordWarmUp(pending[i], feedback[i]);
    return warmupDecisions.size() >= options.warmup;
  }

  /// Takes another search's draws (points of the space) as warm-up
  /// samples of its own, drawn before this search's budget began (they do
  /// not count in its progress); true once the warm-up is complete.
  bool warmUpFrom(const SearchHistory &history) {
    Vector decisions(decisionSpace.decisions().size());
    for (size_t i = 0; i < history.points.size(); ++i) {
      decisionSpace.fromParameters(history.points[i].data(), decisions.data());
      recordWarmUp(decisions, history.feedback[i]);
    }
    return warmupDecisions.size() >= options.warmup;
  }

  /// The agents this problem's decisions get, from the warm-up.
  AgentNetworks::Member agentsFromWarmup();

  /// Learns a batch's outcome; the lesson for the networks (without a
  /// batch when there is nothing to prefer yet).
  AgentNetworks::Lesson lessonFrom(const std::vector<Feedback> &feedback);

  /// What to ask the networks after an update, for refinements: the
  /// distributions they now draw each elite's decisions from.
  AgentNetworks::Lookup eliteLookup() {
    eliteRows.clear();
    for (const Elite &elite : elites)
      eliteRows.push_back(elite.decisions);
    eliteConditionals.clear();
    return {progress(), &eliteRows, &eliteConditionals};
  }
  bool canRefine() const { return !eliteConditionals.empty(); }
  bool foundValid() const {
    return bestReward > -std::numeric_limits<double>::infinity();
  }
  /// The samples learnt from since the best last improved.
  int64_t samplesSinceBest() const { return sinceImprovement; }
  /// The samples without a new best after which the agents restart
  /// (PolicyOptions::restart); 0: never.
  int64_t restartWindow() const {
    if (options.restart == 0 || options.restartShare == 0)
      return options.restart;
    const int64_t window =
        std::max(int64_t(options.restart),
                 expectedSamples() / int64_t(options.restartShare));
    if (options.restartMost == 0)
      return window;
    return std::min(window,
                    int64_t(std::max(options.restartMost, options.restart)));
  }
  /// Starts over with the agents restarted: no elites to replay or refine,
  /// no best to beat (the search's best is kept outside).
  void forgetElites() {
    elites.clear();
    eliteRows.clear();
    eliteConditionals.clear();
    bestReward = -std::numeric_limits<double>::infinity();
    sinceImprovement = 0;
  }
  /// A batch of refinements: each an elite (the better of two drawn) with
  /// one or two decisions redrawn from the agents' distribution for them in
  /// that elite, the elite's own value left out.
  void refineBatch(unsigned count);
  /// Records a batch's outcome without learning from it.
  void record(const std::vector<Feedback> &feedback) {
    told += int64_t(feedback.size());
    rememberBatch(feedback);
  }

private:
  void recordWarmUp(const Vector &decisions, const Feedback &feedback) {
    if (feedback.valid)
      remember(decisions, rewardOf(feedback.cost));
    warmupDecisions.push_back(decisions);
    warmupCosts.push_back(feedback.valid
                              ? feedback.cost
                              : std::numeric_limits<double>::infinity());
  }
  static double rewardOf(double cost) {
    return -std::log(std::max(cost, 1e-300));
  }

  /// Keeps the `options.replay` best distinct proposals seen, and the best
  /// reward.
  void remember(const Vector &decisions, double reward) {
    bestReward = std::max(bestReward, reward);
    if (options.replay == 0 ||
        (elites.size() == options.replay && reward <= elites.back().reward))
      return;
    for (const Elite &elite : elites)
      if (elite.decisions == decisions)
        return;
    auto worse =
        std::find_if(elites.begin(), elites.end(),
                     [&](const Elite &e) { return e.reward < reward; });
    elites.insert(worse, {reward, decisions});
    if (elites.size() > options.replay)
      elites.pop_back();
  }

  /// Remembers the pending batch's valid proposals, and counts the samples
  /// since the best last improved.
  void rememberBatch(const std::vector<Feedback> &feedback) {
    const double bestBefore = bestReward;
    for (size_t i = 0; i < feedback.size(); ++i)
      if (feedback[i].valid)
        remember(pending[i], rewardOf(feedback[i].cost));
    sinceImprovement = bestReward > bestBefore
                           ? 0
                           : sinceImprovement + int64_t(feedback.size());
  }

  /// The entropy bonus for an update: with `stall` set, it doubles for
  /// every `stall` samples in a row without a new best (up to 8x), so a
  /// policy that has settled spreads out again; a new best brings it back.
  double stallEntropy() const {
    if (options.stall == 0)
      return options.entropy;
    return options.entropy * double(int64_t(1) << std::min<int64_t>(
                                        sinceImprovement / options.stall, 3));
  }

  /// How far through the budget the search is, for the observation.
  float progress() const { return float(clock.fraction(told)); }
  /// The samples the budget lets this problem draw: its cap, or under
  /// time alone what it draws at its pace so far.
  int64_t expectedSamples() const {
    const double share = clock.fraction(told);
    return share > 0.0 ? std::llround(double(told) / share) : told;
  }

  const MapSpace &space;
  DecisionSpace decisionSpace;
  Rng rng;
  BudgetClock clock;
  PolicyOptions options;
  std::vector<Vector> pending, warmupDecisions, suggested;
  std::vector<double> warmupCosts;
  struct Elite {
    double reward;
    Vector decisions;
  };
  /// The best distinct proposals so far, best first.
  std::vector<Elite> elites;
  /// What the last lesson learns from: the batch, then the replayed elites.
  std::vector<Vector> learning;
  int64_t told = 0;
  /// The best reward so far, and the samples learnt from since it last
  /// improved.
  double bestReward = -std::numeric_limits<double>::infinity();
  int64_t sinceImprovement = 0;
  /// The progress the pending batch was drawn at: what it is learnt with.
  float askProgress = 0.0f;
  /// The elites at the last update and the agents' distributions for
  /// them: what refinements start from.
  std::vector<Vector> eliteRows;
  AgentNetworks::Conditionals eliteConditionals;
};

} // namespace marlmap

#endif // MARLMAP_LIB_POLICY_PROBLEMLEARNER_H
