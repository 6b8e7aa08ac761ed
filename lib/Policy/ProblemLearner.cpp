//===- ProblemLearner.cpp - One problem's side of a policy search ---------===//

#include "ProblemLearner.h"

#include "Advantages.h"

namespace marlmap {

void ProblemLearner::refineBatch(unsigned count) {
  const std::vector<Decision> &decisions = decisionSpace.decisions();
  std::vector<unsigned> open;
  for (unsigned d = 0; d < decisions.size(); ++d)
    if (decisions[d].choices > 1)
      open.push_back(d);
  pending.assign(count, Vector());
  askProgress = progress();
  const int64_t elitesHeld = int64_t(eliteRows.size());
  for (Vector &proposal : pending) {
    const size_t e =
        size_t(std::min(rng.below(elitesHeld), rng.below(elitesHeld)));
    proposal = eliteRows[e];
    if (open.empty())
      continue;
    for (int64_t redraws = 1 + rng.below(2); redraws > 0; --redraws) {
      const unsigned d = open[size_t(rng.below(int64_t(open.size())))];
      const std::vector<float> &probabilities = eliteConditionals[e][d];
      const int64_t current = eliteRows[e][d];
      double others = 0.0;
      for (int64_t c = 0; c < int64_t(probabilities.size()); ++c)
        others += c == current ? 0.0 : probabilities[c];
      // A settled decision: any other value, uniformly.
      if (others < 1e-12) {
        int64_t value = rng.below(decisions[d].choices - 1);
        proposal[d] = value >= current ? value + 1 : value;
        continue;
      }
      double u = rng.unit() * others;
      int64_t value = current == 0 ? 1 : 0;
      for (int64_t c = 0; c < int64_t(probabilities.size()); ++c) {
        if (c == current)
          continue;
        value = c;
        if ((u -= probabilities[c]) < 0)
          break;
      }
      proposal[d] = value;
    }
  }
}

AgentNetworks::Member ProblemLearner::agentsFromWarmup() {
  const std::vector<Decision> &decisions = decisionSpace.decisions();
  const unsigned n = decisions.size();
  AgentNetworks::Member member{{}, decisions, options.hidden, &rng};
  // A space without choices has nothing to learn: no agents.
  if (n == 0)
    return member;
  // Random clusters come as many as the automatic ones, and sarl is sized
  // on them; one agent per decision and the correlation clusters do
  // without.
  Clusters automatic;
  if (options.clustering != PolicyOptions::Clustering::PerDecision &&
      options.clustering != PolicyOptions::Clustering::Correlation) {
    ClusteringOptions clustering;
    clustering.clusters = options.agents;
    automatic = clusterDecisions(warmupDecisions, warmupCosts, n, clustering);
  }
  switch (options.clustering) {
  case PolicyOptions::Clustering::Automatic:
    member.clusters = automatic;
    break;
  case PolicyOptions::Clustering::Correlation:
    member.clusters =
        correlationClusters(warmupDecisions, warmupCosts, n, options.agents);
    break;
  case PolicyOptions::Clustering::PerDecision:
    member.clusters = singletonClusters(n);
    break;
  case PolicyOptions::Clustering::Random:
    member.clusters = randomClusters(n, automatic.size(), rng);
    break;
  case PolicyOptions::Clustering::Single: {
    member.clusters = {std::vector<unsigned>()};
    for (unsigned d = 0; d < n; ++d)
      member.clusters[0].push_back(d);
    // As many weights as marl's agents would have together.
    int64_t target = 0, logits = 0;
    for (const std::vector<unsigned> &cluster : automatic) {
      int64_t clusterLogits = 0;
      for (unsigned d : cluster)
        clusterLogits += decisions[d].choices;
      target += AgentNetworks::weightCount(options.hidden, clusterLogits);
      logits += clusterLogits;
    }
    int64_t best = std::numeric_limits<int64_t>::max();
    for (unsigned h = 4; h <= 1024; ++h) {
      int64_t gap = std::abs(AgentNetworks::weightCount(h, logits) - target);
      if (gap < best) {
        best = gap;
        member.hidden = h;
      }
    }
    break;
  }
  }
  // Only the clustering reads them.
  warmupDecisions = {};
  warmupCosts = {};
  return member;
}

AgentNetworks::Lesson
ProblemLearner::lessonFrom(const std::vector<Feedback> &feedback) {
  told += int64_t(feedback.size());
  // One shared reward: -log cost; an invalid proposal ranks below every
  // valid one (only the order counts, see Advantages.h). Before any valid
  // proposal there is nothing to prefer.
  std::vector<float> rewards(feedback.size(),
                             -std::numeric_limits<float>::infinity());
  bool anyValid = bestReward > -std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < feedback.size(); ++i)
    if (feedback[i].valid) {
      rewards[i] = float(rewardOf(feedback[i].cost));
      anyValid = true;
    }
  if (!anyValid)
    return {};
  // Replay: the best proposals so far are ranked with the batch, so the
  // agents keep being pulled towards what worked (self-imitation) while
  // the batch says where to go next. Only what was evaluated is learnt
  // from.
  learning.assign(pending.begin(), pending.begin() + feedback.size());
  for (const Elite &elite : elites) {
    learning.push_back(elite.decisions);
    rewards.push_back(float(elite.reward));
  }
  rememberBatch(feedback);
  return {askProgress, &learning, shapeAdvantages(rewards, options.advantage),
          stallEntropy()};
}

} // namespace marlmap
