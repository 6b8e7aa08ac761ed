//===- PolicySearchers.cpp - Multi- and single-agent policy gradient ------===//
//
// Each agent is a small network (LibTorch) from an observation of the search
// to one categorical distribution per decision it owns. A round: every agent
// samples its decisions for a batch of proposals, the proposals are
// evaluated, every agent gets the same reward, and each takes clipped
// policy-gradient (PPO-style) steps on the batch. marl gives each cluster of
// interacting decisions its own agent; sarl gives one agent everything.
//
// All randomness comes from marlmap's Rng (weights included) and LibTorch
// runs on one thread, so a seed fixes the search whatever else runs.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/Searcher.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>

namespace marlmap {

namespace {

using Vector = std::vector<int64_t>;

/// [1, progress through the budget's learning part].
constexpr int64_t kObservation = 2;

/// Every agent's network at once: agent a is an MLP from the observation
/// to one logit per choice of each decision it owns. The agents' weights are
/// stacked so that one batched multiply runs them all; their losses add, and
/// since no weight is shared each agent still learns from its own loss alone
/// (Adam works weight by weight).
class Agents {
public:
  Agents(Clusters clusters, const std::vector<Decision> &all, unsigned hidden,
         double learningRate, Rng &rng)
      : clusters(std::move(clusters)) {
    const int64_t numAgents = this->clusters.size();
    std::vector<int64_t> segments;
    for (int64_t a = 0; a < numAgents; ++a) {
      int64_t logits = 0;
      for (unsigned d : this->clusters[a]) {
        segmentsOf.push_back({d, int64_t(segments.size()), all[d].choices, a});
        for (int64_t c = 0; c < all[d].choices; ++c)
          segments.push_back(int64_t(segmentsOf.size() - 1));
        logits += all[d].choices;
      }
      agentLogits.push_back(logits);
    }
    int64_t widest = std::max<int64_t>(
        1, *std::max_element(agentLogits.begin(), agentLogits.end()));
    // Where each flat logit sits in the [agents, widest] output.
    std::vector<int64_t> positions;
    for (int64_t a = 0; a < numAgents; ++a)
      for (int64_t j = 0; j < agentLogits[a]; ++j)
        positions.push_back(a * widest + j);
    flatPositions = tensorOf(positions);
    segmentOfLogit = tensorOf(segments);
    std::vector<float> owner(segmentsOf.size() * numAgents, 0.0f);
    for (size_t k = 0; k < segmentsOf.size(); ++k)
      owner[k * numAgents + segmentsOf[k].agent] = 1.0f;
    ownership =
        torch::from_blob(owner.data(), {int64_t(segmentsOf.size()), numAgents},
                         torch::kFloat32)
            .clone();

    w1 = weights({numAgents, kObservation, hidden}, kObservation, rng, 1.0);
    b1 = weights({numAgents, 1, hidden}, kObservation, rng, 1.0);
    w2 = weights({numAgents, hidden, hidden}, hidden, rng, 1.0);
    b2 = weights({numAgents, 1, hidden}, hidden, rng, 1.0);
    // A zero head: the first policy is uniform, as random search is.
    w3 = torch::zeros({numAgents, hidden, widest}).requires_grad_(true);
    b3 = torch::zeros({numAgents, 1, widest}).requires_grad_(true);
    optimizer = std::make_unique<torch::optim::Adam>(
        std::vector<torch::Tensor>{w1, b1, w2, b2, w3, b3},
        torch::optim::AdamOptions(learningRate));
  }

  /// Weights of one agent with `hidden` units and `logits` outputs.
  static int64_t weightCount(int64_t hidden, int64_t logits) {
    return (kObservation + 1) * hidden + (hidden + 1) * hidden +
           (hidden + 1) * logits;
  }

  /// Samples one value per decision for every proposal of `batch`.
  void sample(const torch::Tensor &observation, Rng &rng,
              std::vector<Vector> &batch) {
    torch::NoGradGuard noGrad;
    torch::Tensor probabilities = torch::exp(logProbabilities(observation));
    auto p = probabilities.accessor<float, 1>();
    for (const Segment &segment : segmentsOf)
      for (Vector &proposal : batch) {
        double u = rng.unit(), acc = 0.0, total = 0.0;
        for (int64_t c = 0; c < segment.choices; ++c)
          total += p[segment.start + c];
        u *= total;
        int64_t choice = segment.choices - 1;
        for (int64_t c = 0; c < segment.choices; ++c) {
          acc += p[segment.start + c];
          if (u < acc) {
            choice = c;
            break;
          }
        }
        proposal[segment.decision] = choice;
      }
  }

  /// Clipped policy-gradient steps, every agent on its own ratio.
  void learn(const torch::Tensor &observation, const std::vector<Vector> &batch,
             const torch::Tensor &advantages, const PolicyOptions &options) {
    const int64_t n = int64_t(batch.size()), k = int64_t(segmentsOf.size());
    std::vector<int64_t> picks;
    picks.reserve(n * k);
    for (const Vector &proposal : batch)
      for (const Segment &segment : segmentsOf)
        picks.push_back(segment.start + proposal[segment.decision]);
    torch::Tensor index = tensorOf(picks);
    torch::Tensor oldLogProb;
    {
      torch::NoGradGuard noGrad;
      oldLogProb = agentLogProbabilities(observation, index, n);
    }
    torch::Tensor weight = advantages.unsqueeze(1); // [n, 1]
    for (unsigned epoch = 0; epoch < options.epochs; ++epoch) {
      torch::Tensor logProb = logProbabilities(observation);
      torch::Tensor perAgent =
          logProb.index_select(0, index).view({n, k}).matmul(ownership);
      torch::Tensor ratio = torch::exp(perAgent - oldLogProb); // [n, agents]
      torch::Tensor clipped =
          torch::clamp(ratio, 1.0 - options.clip, 1.0 + options.clip);
      torch::Tensor surrogate =
          torch::min(ratio * weight, clipped * weight).mean(0).sum();
      torch::Tensor entropy = -(torch::exp(logProb) * logProb).sum();
      torch::Tensor loss = -surrogate - options.entropy * entropy;
      optimizer->zero_grad();
      loss.backward();
      optimizer->step();
    }
  }

  const Clusters &owners() const { return clusters; }

private:
  struct Segment {
    unsigned decision;
    int64_t start, choices, agent;
  };

  static torch::Tensor tensorOf(const std::vector<int64_t> &values) {
    return torch::from_blob(const_cast<int64_t *>(values.data()),
                            {int64_t(values.size())}, torch::kInt64)
        .clone();
  }

  static torch::Tensor weights(torch::IntArrayRef sizes, int64_t fanIn,
                               Rng &rng, double scale) {
    double bound = scale / std::sqrt(double(fanIn));
    int64_t count = 1;
    for (int64_t size : sizes)
      count *= size;
    std::vector<float> values(count);
    for (float &v : values)
      v = float((2.0 * rng.unit() - 1.0) * bound);
    return torch::from_blob(values.data(), sizes, torch::kFloat32)
        .clone()
        .requires_grad_(true);
  }

  /// Log-probability of every choice of every decision, flat.
  torch::Tensor logProbabilities(const torch::Tensor &observation) {
    const int64_t numAgents = int64_t(clusters.size());
    torch::Tensor x = observation.view({1, 1, kObservation})
                          .expand({numAgents, 1, kObservation});
    torch::Tensor h = torch::tanh(torch::bmm(x, w1) + b1);
    h = torch::tanh(torch::bmm(h, w2) + b2);
    torch::Tensor out = torch::bmm(h, w3) + b3; // [agents, 1, widest]
    torch::Tensor flat = out.reshape({-1}).index_select(0, flatPositions);
    // Softmax within each decision: subtract the decision's largest logit
    // (a constant for the gradient), then its log-sum-exp.
    torch::Tensor values = flat.detach().contiguous();
    const float *raw = values.data_ptr<float>();
    std::vector<float> largest(segmentsOf.size());
    for (size_t k = 0; k < segmentsOf.size(); ++k)
      largest[k] =
          *std::max_element(raw + segmentsOf[k].start,
                            raw + segmentsOf[k].start + segmentsOf[k].choices);
    torch::Tensor max =
        torch::from_blob(largest.data(), {int64_t(largest.size())},
                         torch::kFloat32)
            .clone();
    torch::Tensor shifted = flat - max.index_select(0, segmentOfLogit);
    torch::Tensor sums =
        torch::zeros({int64_t(segmentsOf.size())})
            .scatter_add(0, segmentOfLogit, torch::exp(shifted));
    return shifted - torch::log(sums).index_select(0, segmentOfLogit);
  }

  /// Per proposal and agent: the log-probability of its chosen values.
  torch::Tensor agentLogProbabilities(const torch::Tensor &observation,
                                      const torch::Tensor &index, int64_t n) {
    return logProbabilities(observation)
        .index_select(0, index)
        .view({n, int64_t(segmentsOf.size())})
        .matmul(ownership);
  }

  Clusters clusters;
  std::vector<Segment> segmentsOf;
  std::vector<int64_t> agentLogits;
  torch::Tensor flatPositions, segmentOfLogit, ownership;
  torch::Tensor w1, b1, w2, b2, w3, b3;
  std::unique_ptr<torch::optim::Adam> optimizer;
};

class PolicySearcher : public Searcher {
public:
  PolicySearcher(const MapSpace &space, uint64_t seed, int64_t budget,
                 const PolicyOptions &options)
      : space(space), decisionSpace(space), rng(seed), budget(budget),
        options(options) {
    // One thread per search: results do not depend on the machine, and
    // searches of different problems run side by side.
    static std::once_flag singleThreaded;
    std::call_once(singleThreaded, [] { torch::set_num_threads(1); });
  }

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    const std::vector<Decision> &decisions = decisionSpace.decisions();
    pending.assign(count, Vector(decisions.size(), 0));
    if (!agents) {
      // Warm-up: uniform over every decision.
      for (Vector &proposal : pending)
        for (size_t d = 0; d < decisions.size(); ++d)
          proposal[d] = rng.below(decisions[d].choices);
    } else {
      agents->sample(observation(), rng, pending);
    }
    proposals.resize(count);
    for (unsigned i = 0; i < count; ++i) {
      proposals[i].resize(space.parameters().size());
      decisionSpace.toParameters(pending[i].data(), proposals[i].data());
    }
  }

  void tell(const std::vector<Vector> &proposals,
            const std::vector<Feedback> &feedback) override {
    told += int64_t(proposals.size());
    if (!agents) {
      for (size_t i = 0; i < proposals.size(); ++i) {
        warmupDecisions.push_back(pending[i]);
        warmupCosts.push_back(feedback[i].valid
                                  ? feedback[i].cost
                                  : std::numeric_limits<double>::infinity());
      }
      if (warmupDecisions.size() >= options.warmup)
        startLearning();
      return;
    }
    // One shared reward: -log cost; an invalid proposal scores one below
    // the worst valid reward seen so far. Before any valid one there is
    // nothing to prefer.
    std::vector<float> rewards(proposals.size(), 0.0f);
    for (size_t i = 0; i < proposals.size(); ++i)
      if (feedback[i].valid) {
        rewards[i] = float(-std::log(std::max(feedback[i].cost, 1e-300)));
        worstReward = std::min(worstReward, double(rewards[i]));
      }
    if (!std::isfinite(worstReward))
      return;
    for (size_t i = 0; i < proposals.size(); ++i)
      if (!feedback[i].valid)
        rewards[i] = float(worstReward - 1.0);
    // Centred ranks (ties share their mean rank): how much better a
    // proposal is than the batch, not by how many orders of magnitude.
    std::vector<size_t> byReward(rewards.size());
    std::iota(byReward.begin(), byReward.end(), 0);
    std::sort(byReward.begin(), byReward.end(),
              [&](size_t a, size_t b) { return rewards[a] < rewards[b]; });
    std::vector<float> ranks(rewards.size());
    for (size_t first = 0; first < byReward.size();) {
      size_t last = first;
      while (last + 1 < byReward.size() &&
             rewards[byReward[last + 1]] == rewards[byReward[first]])
        ++last;
      for (size_t i = first; i <= last; ++i)
        ranks[byReward[i]] = float(first + last) / 2.0f;
      first = last + 1;
    }
    torch::Tensor r =
        torch::from_blob(ranks.data(), {int64_t(ranks.size())}, torch::kFloat32)
            .clone();
    torch::Tensor advantages = (r - r.mean()) / (r.std(false) + 1e-6);
    agents->learn(observation(), pending, advantages, options);
  }

  Clusters clusters() const override {
    return agents ? agents->owners() : Clusters();
  }

private:
  torch::Tensor observation() const {
    float progress = float(
        std::min(1.0, double(told) / double(std::max<int64_t>(budget, 1))));
    return torch::tensor({1.0f, progress}).view({1, kObservation});
  }

  void startLearning() {
    unsigned n = decisionSpace.decisions().size();
    // A space without choices has nothing to learn: keep sampling it.
    if (n == 0)
      return;
    ClusteringOptions clustering;
    clustering.clusters = options.agents;
    Clusters automatic =
        clusterDecisions(warmupDecisions, warmupCosts, n, clustering);
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
        target += Agents::weightCount(options.hidden, clusterLogits);
        logits += clusterLogits;
      }
      int64_t best = std::numeric_limits<int64_t>::max();
      for (unsigned h = 4; h <= 1024; ++h) {
        int64_t gap = std::abs(Agents::weightCount(h, logits) - target);
        if (gap < best) {
          best = gap;
          hidden = h;
        }
      }
      break;
    }
    }
    agents =
        std::make_unique<Agents>(std::move(chosen), decisionSpace.decisions(),
                                 hidden, options.learningRate, rng);
  }

  const MapSpace &space;
  DecisionSpace decisionSpace;
  Rng rng;
  int64_t budget;
  PolicyOptions options;
  std::unique_ptr<Agents> agents;
  std::vector<Vector> pending;
  std::vector<Vector> warmupDecisions;
  std::vector<double> warmupCosts;
  int64_t told = 0;
  double worstReward = std::numeric_limits<double>::infinity();
};

} // namespace

} // namespace marlmap

/// The entry point PolicyLoader.cpp looks up after loading this library.
extern "C" __attribute__((visibility("default"))) marlmap::Searcher *
marlmapMakePolicySearcher(const marlmap::MapSpace *space, uint64_t seed,
                          int64_t budget,
                          const marlmap::PolicyOptions *options) {
  return new marlmap::PolicySearcher(*space, seed, budget, *options);
}
