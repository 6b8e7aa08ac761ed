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

#include <cmath>
#include <limits>
#include <mutex>

namespace marlmap {

namespace {

using Vector = std::vector<int64_t>;

/// [1, progress through the budget's learning part].
constexpr int64_t kObservation = 2;

class Agent {
public:
  Agent(std::vector<unsigned> owned, const std::vector<Decision> &all,
        unsigned hidden, double learningRate, Rng &rng)
      : owned(std::move(owned)) {
    for (unsigned d : this->owned) {
      offsets.push_back(totalLogits);
      sizes.push_back(all[d].choices);
      totalLogits += all[d].choices;
    }
    first = torch::nn::Linear(kObservation, hidden);
    second = torch::nn::Linear(hidden, hidden);
    head = torch::nn::Linear(hidden, totalLogits);
    initialize(first, rng, 1.0);
    initialize(second, rng, 1.0);
    // A zero head: the first policy is uniform, as random search is.
    initialize(head, rng, 0.0);
    std::vector<torch::Tensor> weights;
    for (auto *layer : {&first, &second, &head})
      for (const torch::Tensor &t : (*layer)->parameters())
        weights.push_back(t);
    optimizer = std::make_unique<torch::optim::Adam>(
        weights, torch::optim::AdamOptions(learningRate));
  }

  static int64_t weightCount(int64_t hidden, int64_t logits) {
    return (kObservation + 1) * hidden + (hidden + 1) * hidden +
           (hidden + 1) * logits;
  }
  int64_t weightCount() const {
    return weightCount(first->weight.size(0), totalLogits);
  }

  torch::Tensor logits(const torch::Tensor &observation) {
    torch::Tensor h = torch::tanh(first->forward(observation));
    h = torch::tanh(second->forward(h));
    return head->forward(h); // [1, totalLogits]
  }

  /// Samples `count` actions per owned decision into `batch` (indexed by
  /// global decision).
  void sample(const torch::Tensor &observation, unsigned count, Rng &rng,
              std::vector<Vector> &batch) {
    torch::NoGradGuard noGrad;
    torch::Tensor probabilities =
        torch::softmax(logits(observation).view({-1}), 0);
    std::vector<double> p(totalLogits);
    auto accessor = probabilities.accessor<float, 1>();
    for (int64_t k = 0; k < totalLogits; ++k)
      p[k] = accessor[k];
    for (unsigned i = 0; i < owned.size(); ++i) {
      // Probabilities of this decision, renormalised over its slice.
      double total = 0.0;
      for (int64_t c = 0; c < sizes[i]; ++c)
        total += p[offsets[i] + c];
      for (Vector &proposal : batch) {
        double u = rng.unit() * total, acc = 0.0;
        int64_t choice = sizes[i] - 1;
        for (int64_t c = 0; c < sizes[i]; ++c) {
          acc += p[offsets[i] + c];
          if (u < acc) {
            choice = c;
            break;
          }
        }
        proposal[owned[i]] = choice;
      }
    }
    (void)count;
  }

  /// Clipped policy-gradient steps on the batch's actions and advantages.
  void learn(const torch::Tensor &observation, const std::vector<Vector> &batch,
             const torch::Tensor &advantages, const PolicyOptions &options) {
    const int64_t n = int64_t(batch.size());
    // Action index into the flat logits, per sample and owned decision.
    std::vector<int64_t> picks;
    picks.reserve(n * owned.size());
    for (const Vector &proposal : batch)
      for (unsigned i = 0; i < owned.size(); ++i)
        picks.push_back(offsets[i] + proposal[owned[i]]);
    torch::Tensor index =
        torch::from_blob(picks.data(), {n, int64_t(owned.size())},
                         torch::kInt64)
            .clone();
    torch::Tensor oldLogProb;
    {
      torch::NoGradGuard noGrad;
      oldLogProb = logProbabilities(observation, index).detach();
    }
    for (unsigned epoch = 0; epoch < options.epochs; ++epoch) {
      torch::Tensor logProb = logProbabilities(observation, index);
      torch::Tensor ratio = torch::exp(logProb - oldLogProb);
      torch::Tensor clipped =
          torch::clamp(ratio, 1.0 - options.clip, 1.0 + options.clip);
      torch::Tensor surrogate =
          torch::min(ratio * advantages, clipped * advantages).mean();
      torch::Tensor loss = -surrogate - options.entropy * entropy(observation);
      optimizer->zero_grad();
      loss.backward();
      optimizer->step();
    }
  }

  const std::vector<unsigned> &decisions() const { return owned; }

private:
  static void initialize(torch::nn::Linear &layer, Rng &rng, double scale) {
    torch::NoGradGuard noGrad;
    double bound = scale / std::sqrt(double(layer->weight.size(1)));
    for (torch::Tensor *t : {&layer->weight, &layer->bias}) {
      std::vector<float> values(t->numel());
      for (float &v : values)
        v = float((2.0 * rng.unit() - 1.0) * bound);
      t->copy_(torch::from_blob(values.data(), t->sizes(), torch::kFloat32));
    }
  }

  /// Per sample: the sum over owned decisions of log pi(action).
  torch::Tensor logProbabilities(const torch::Tensor &observation,
                                 const torch::Tensor &index) {
    torch::Tensor flat = logits(observation).view({-1});
    std::vector<torch::Tensor> pieces;
    for (unsigned i = 0; i < owned.size(); ++i)
      pieces.push_back(
          torch::log_softmax(flat.narrow(0, offsets[i], sizes[i]), 0));
    torch::Tensor logSoftmax = torch::cat(pieces); // [totalLogits]
    return logSoftmax.index_select(0, index.view({-1}))
        .view(index.sizes())
        .sum(1);
  }

  torch::Tensor entropy(const torch::Tensor &observation) {
    torch::Tensor flat = logits(observation).view({-1});
    torch::Tensor total = torch::zeros({});
    for (unsigned i = 0; i < owned.size(); ++i) {
      torch::Tensor logP =
          torch::log_softmax(flat.narrow(0, offsets[i], sizes[i]), 0);
      total = total - (torch::exp(logP) * logP).sum();
    }
    return total;
  }

  std::vector<unsigned> owned;
  std::vector<int64_t> offsets, sizes;
  int64_t totalLogits = 0;
  torch::nn::Linear first{nullptr}, second{nullptr}, head{nullptr};
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
    if (agents.empty()) {
      // Warm-up: uniform over every decision.
      for (Vector &proposal : pending)
        for (size_t d = 0; d < decisions.size(); ++d)
          proposal[d] = rng.below(decisions[d].choices);
    } else {
      torch::Tensor obs = observation();
      for (Agent &agent : agents)
        agent.sample(obs, count, rng, pending);
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
    if (agents.empty()) {
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
    torch::Tensor r =
        torch::from_blob(rewards.data(), {int64_t(rewards.size())},
                         torch::kFloat32)
            .clone();
    torch::Tensor advantages = (r - r.mean()) / (r.std(false) + 1e-6);
    torch::Tensor obs = observation();
    for (Agent &agent : agents)
      agent.learn(obs, pending, advantages, options);
  }

  std::vector<std::vector<unsigned>> clusters() const {
    std::vector<std::vector<unsigned>> out;
    for (const Agent &agent : agents)
      out.push_back(agent.decisions());
    return out;
  }

private:
  torch::Tensor observation() const {
    float progress = float(
        std::min(1.0, double(told) / double(std::max<int64_t>(budget, 1))));
    return torch::tensor({1.0f, progress}).view({1, kObservation});
  }

  void startLearning() {
    unsigned n = decisionSpace.decisions().size();
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
        target += Agent::weightCount(options.hidden, clusterLogits);
        logits += clusterLogits;
      }
      int64_t best = std::numeric_limits<int64_t>::max();
      for (unsigned h = 4; h <= 1024; ++h) {
        int64_t gap = std::abs(Agent::weightCount(h, logits) - target);
        if (gap < best) {
          best = gap;
          hidden = h;
        }
      }
      break;
    }
    }
    for (std::vector<unsigned> &cluster : chosen)
      agents.emplace_back(std::move(cluster), decisionSpace.decisions(), hidden,
                          options.learningRate, rng);
  }

  const MapSpace &space;
  DecisionSpace decisionSpace;
  Rng rng;
  int64_t budget;
  PolicyOptions options;
  std::vector<Agent> agents;
  std::vector<Vector> pending;
  std::vector<Vector> warmupDecisions;
  std::vector<double> warmupCosts;
  int64_t told = 0;
  double worstReward = std::numeric_limits<double>::infinity();
};

} // namespace

std::unique_ptr<Searcher> makePolicySearcher(const MapSpace &space,
                                             uint64_t seed, int64_t budget,
                                             const PolicyOptions &options) {
  return std::make_unique<PolicySearcher>(space, seed, budget, options);
}

std::vector<std::vector<unsigned>> agentClusters(const Searcher &searcher) {
  if (auto *policy = dynamic_cast<const PolicySearcher *>(&searcher))
    return policy->clusters();
  return {};
}

} // namespace marlmap
