//===- PolicySearchers.cpp - Multi- and single-agent policy gradient ------===//
//
// Each agent is a small network (LibTorch, AgentNetworks.h) that draws the
// decisions it owns jointly, given an observation of the search. A round: every
// agent samples its decisions for a batch of proposals, the proposals are
// evaluated, every agent gets the same reward, and each takes clipped
// policy-gradient (PPO-style) steps on the batch. marl gives each cluster of
// interacting decisions its own agent; sarl gives one agent everything.
//
// All randomness comes from marlmap's Rng (weights included), LibTorch runs
// on one thread, and matrix products go through a BlasGuard, so a seed fixes
// the search whatever else runs. No exception leaves this library: a failure
// underneath ends the search and is reported by failure().
//
//===----------------------------------------------------------------------===//

#include "Advantages.h"
#include "AgentNetworks.h"
#include "BlasGuard.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

namespace {

using Vector = std::vector<int64_t>;

class PolicySearcher : public Searcher {
public:
  PolicySearcher(const MapSpace &space, uint64_t seed, int64_t budget,
                 const PolicyOptions &options)
      : space(space), decisionSpace(space), rng(seed), budget(budget),
        options(options) {}

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    if (failed.empty())
      guarded([&] { propose(count, proposals); });
    if (!failed.empty())
      proposals.clear();
  }

  void tell(const std::vector<Vector> &proposals,
            const std::vector<Feedback> &feedback) override {
    if (failed.empty())
      guarded([&] { learnFrom(proposals, feedback); });
  }

  Clusters clusters() const override {
    return agents ? agents->owners() : Clusters();
  }

  std::string failure() const override { return failed; }

private:
  /// Runs `work` with the BLAS guarded; an exception becomes the failure.
  template <typename Work> void guarded(Work &&work) {
    try {
      BlasGuard guard;
      work();
    } catch (const c10::Error &e) {
      failed = std::string("LibTorch: ") + e.what_without_backtrace();
    } catch (const std::exception &e) {
      failed = e.what();
    } catch (...) {
      failed = "an unknown exception";
    }
  }

  void propose(unsigned count, std::vector<Vector> &proposals) {
    const std::vector<Decision> &decisions = decisionSpace.decisions();
    pending.assign(count, Vector(decisions.size(), 0));
    if (!agents) {
      // Warm-up: uniform over every decision.
      for (Vector &proposal : pending)
        for (size_t d = 0; d < decisions.size(); ++d)
          proposal[d] = rng.below(decisions[d].choices);
    } else {
      askProgress = progress();
      agents->sample(askProgress, rng, pending);
    }
    proposals.resize(count);
    for (unsigned i = 0; i < count; ++i) {
      proposals[i].resize(space.parameters().size());
      decisionSpace.toParameters(pending[i].data(), proposals[i].data());
    }
  }

  void learnFrom(const std::vector<Vector> &proposals,
                 const std::vector<Feedback> &feedback) {
    told += int64_t(proposals.size());
    TORCH_CHECK(options.testThrowAfter == 0 || told < options.testThrowAfter,
                "policy-test-throw-after: a failure made on purpose after ",
                told, " samples");
    if (!agents) {
      for (size_t i = 0; i < proposals.size(); ++i) {
        if (feedback[i].valid)
          remember(pending[i], rewardOf(feedback[i].cost));
        warmupDecisions.push_back(pending[i]);
        warmupCosts.push_back(feedback[i].valid
                                  ? feedback[i].cost
                                  : std::numeric_limits<double>::infinity());
      }
      if (warmupDecisions.size() >= options.warmup) {
        startLearning();
        // Only the clustering reads them.
        warmupDecisions = {};
        warmupCosts = {};
      }
      return;
    }
    // One shared reward: -log cost; an invalid proposal ranks below every
    // valid one (only the order counts, see Advantages.h). Before any valid
    // proposal there is nothing to prefer.
    std::vector<float> rewards(proposals.size(),
                               -std::numeric_limits<float>::infinity());
    bool anyValid = bestReward > -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < proposals.size(); ++i)
      if (feedback[i].valid) {
        rewards[i] = float(rewardOf(feedback[i].cost));
        anyValid = true;
      }
    if (!anyValid)
      return;
    // Replay: the best proposals so far are ranked with the batch, so the
    // agents keep being pulled towards what worked (self-imitation) while
    // the batch says where to go next. The stop rule may have cut the batch
    // short: only what was evaluated is learnt from.
    std::vector<Vector> learning(pending.begin(),
                                 pending.begin() + proposals.size());
    for (const Elite &elite : elites) {
      learning.push_back(elite.decisions);
      rewards.push_back(float(elite.reward));
    }
    const double bestBefore = bestReward;
    for (size_t i = 0; i < proposals.size(); ++i)
      if (feedback[i].valid)
        remember(pending[i], rewardOf(feedback[i].cost));
    sinceImprovement = bestReward > bestBefore
                           ? 0
                           : sinceImprovement + int64_t(proposals.size());
    // Rows padded to what the batch and the replay can hold, so the
    // networks' shapes are the same at every update.
    AgentNetworks::Lesson lesson{askProgress, &learning,
                                 shapeAdvantages(rewards, options.advantage),
                                 stallEntropy()};
    agents->learn({lesson}, int64_t(proposals.size()) + options.replay,
                  options);
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

  /// The entropy bonus for an update: with `stall` set, it doubles for
  /// every `stall` samples in a row without a new best (up to 8x), so a
  /// policy that has settled spreads out again; a new best brings it back.
  double stallEntropy() const {
    if (options.stall == 0)
      return options.entropy;
    return options.entropy *
           double(int64_t(1)
                  << std::min<int64_t>(sinceImprovement / options.stall, 3));
  }

  /// How far through the budget the search is, for the observation.
  float progress() const {
    return float(
        std::min(1.0, double(told) / double(std::max<int64_t>(budget, 1))));
  }

  void startLearning() {
    unsigned n = decisionSpace.decisions().size();
    // A space without choices has nothing to learn: keep sampling it.
    if (n == 0)
      return;
    // Random clusters come as many as the automatic ones, and sarl is sized
    // on them; only one agent per decision does without.
    Clusters automatic;
    if (options.clustering != PolicyOptions::Clustering::PerDecision) {
      ClusteringOptions clustering;
      clustering.clusters = options.agents;
      automatic = clusterDecisions(warmupDecisions, warmupCosts, n, clustering);
    }
    Clusters chosen;
    unsigned hidden = options.hidden;
    switch (options.clustering) {
    case PolicyOptions::Clustering::Automatic:
      chosen = automatic;
      break;
    case PolicyOptions::Clustering::PerDecision:
      chosen = singletonClusters(n);
      break;
    case PolicyOptions::Clustering::Random:
      chosen = randomClusters(n, automatic.size(), rng);
      break;
    case PolicyOptions::Clustering::Single: {
      chosen = {std::vector<unsigned>()};
      for (unsigned d = 0; d < n; ++d)
        chosen[0].push_back(d);
      // As many weights as marl's agents would have together.
      int64_t target = 0, logits = 0;
      for (const std::vector<unsigned> &cluster : automatic) {
        int64_t clusterLogits = 0;
        for (unsigned d : cluster)
          clusterLogits += decisionSpace.decisions()[d].choices;
        target += AgentNetworks::weightCount(options.hidden, clusterLogits);
        logits += clusterLogits;
      }
      int64_t best = std::numeric_limits<int64_t>::max();
      for (unsigned h = 4; h <= 1024; ++h) {
        int64_t gap = std::abs(AgentNetworks::weightCount(h, logits) - target);
        if (gap < best) {
          best = gap;
          hidden = h;
        }
      }
      break;
    }
    }
    agents = std::make_unique<AgentNetworks>(
        std::move(chosen), decisionSpace.decisions(), hidden,
        options.learningRate, options.autoregressive, rng);
  }

  const MapSpace &space;
  DecisionSpace decisionSpace;
  Rng rng;
  int64_t budget;
  PolicyOptions options;
  std::unique_ptr<AgentNetworks> agents;
  std::vector<Vector> pending;
  std::vector<Vector> warmupDecisions;
  struct Elite {
    double reward;
    Vector decisions;
  };
  /// The best distinct proposals so far, best first.
  std::vector<Elite> elites;
  std::vector<double> warmupCosts;
  int64_t told = 0;
  /// The best reward so far, and the samples learnt from since it last
  /// improved.
  double bestReward = -std::numeric_limits<double>::infinity();
  int64_t sinceImprovement = 0;
  /// The progress the pending batch was drawn at: what it is learnt with.
  float askProgress = 0.0f;
  /// Why the search stopped, when something failed underneath.
  std::string failed;
};

} // namespace

} // namespace marlmap

// The entry points PolicyLoader.cpp looks up after loading this library.

/// Run once, by the thread that loads the library. One intra-op thread, in
/// LibTorch and in the BLAS under it: a search's results do not depend on
/// the machine's cores (LibTorch's reductions split by thread), and
/// searches of different problems run side by side instead.
extern "C" __attribute__((visibility("default"))) void
marlmapInitPolicyLibrary() {
  torch::set_num_threads(1);
  marlmap::multiplyOnCallingThreads();
}

/// A new searcher, or nullptr with the reason in `error`.
extern "C" __attribute__((visibility("default"))) marlmap::Searcher *
marlmapMakePolicySearcher(const marlmap::MapSpace *space, uint64_t seed,
                          int64_t budget, const marlmap::PolicyOptions *options,
                          std::string *error) {
  try {
    return new marlmap::PolicySearcher(*space, seed, budget, *options);
  } catch (const std::exception &e) {
    *error = std::string("cannot make the policy searcher: ") + e.what();
  } catch (...) {
    *error = "cannot make the policy searcher";
  }
  return nullptr;
}
