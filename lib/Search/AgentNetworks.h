//===- AgentNetworks.h - Every agent's policy, batched ----------*- C++ -*-===//
//
// Each agent owns a cluster of decisions and picks them jointly: its network
// is autoregressive over its decisions (a masked MLP, as in MADE), so the
// distribution of the j-th decision depends on the values the agent already
// chose for decisions 0..j-1 of its cluster, plus the observation of the
// search. Decisions of different agents are independent, which is what the
// clustering is for: interacting decisions share an agent, the rest need not
// coordinate. All agents' weights are stacked so that one batched multiply
// runs them all; no weight is shared, so each learns from its own loss.
//
// Private to libMarlmapPolicy (includes LibTorch).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_AGENTNETWORKS_H
#define MARLMAP_LIB_SEARCH_AGENTNETWORKS_H

#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/Searcher.h"

#include <torch/torch.h>

#include <memory>
#include <vector>

namespace marlmap {

class AgentNetworks {
public:
  using Vector = std::vector<int64_t>;

  /// [1, progress through the budget].
  static constexpr int64_t kObservation = 2;

  /// `autoregressive` false: each decision depends on the observation
  /// only (a factorised head, as a multi-discrete PPO agent's).
  AgentNetworks(Clusters clusters, const std::vector<Decision> &all,
                unsigned hidden, double learningRate, bool autoregressive,
                Rng &rng);

  /// Dense weights of one agent with `hidden` units owning decisions with
  /// `logits` choices in all, masked-out weights included (the stacked
  /// tensors also pad each agent to the widest one; that padding is not
  /// counted).
  static int64_t weightCount(int64_t hidden, int64_t logits);

  /// Draws every decision of every proposal of `batch` (already sized),
  /// each agent its decisions in cluster order.
  void sample(float progress, Rng &rng, std::vector<Vector> &batch);

  /// The log-probability of each decision's value in `proposal`, given the
  /// values its agent chose before it, indexed by decision.
  std::vector<double> decisionLogProbabilities(float progress,
                                               const Vector &proposal) const;

  /// Clipped policy-gradient steps on `batch`, drawn at `progress`, with one
  /// advantage per proposal shared by every agent; each agent's ratio is that
  /// of the joint probability of its own decisions.
  void learn(float progress, const std::vector<Vector> &batch,
             std::vector<float> advantages, const PolicyOptions &options);

  /// The clusters as given (the report's order).
  const Clusters &owners() const { return given; }

private:
  struct Segment {
    unsigned decision;
    /// First logit in the flat [all decisions' choices] row.
    int64_t start;
    int64_t choices;
    unsigned agent;
    /// First logit within its agent's input and output.
    int64_t agentOffset;
  };

  /// The networks' input for `batch`: [agents, n, kObservation + widest],
  /// the observation then one-hot choices. The tensor is a view of
  /// `buffer` (writing to `buffer` changes it), so `buffer` must outlive
  /// it.
  torch::Tensor inputs(float progress, const std::vector<Vector> &batch,
                       std::vector<float> &buffer) const;
  /// Agents of similar width run together, each group padded to its widest
  /// only, so small agents do not pay for a large one.
  struct Group {
    int64_t first, count, width;
    /// Where the group's [n, count * width] logits start in the row of
    /// every group's logits.
    int64_t flatBase;
  };
  /// The weights with their masks applied.
  struct Masked {
    torch::Tensor w1, w2, w3;
  };
  Masked masked() const;
  /// The logits of the first `count` agents of `group`:
  /// [count, n, group.width].
  torch::Tensor groupLogits(const torch::Tensor &input, const Group &group,
                            int64_t count, const Masked &weights) const;
  /// Log-probability of every choice of every decision given the earlier
  /// choices of its agent in `input`: [n, all logits].
  torch::Tensor logProbabilities(const torch::Tensor &input,
                                 const Masked &weights) const;

  Clusters given;
  /// Largest first, so that the agents still drawing at any position are a
  /// prefix.
  Clusters clusters;
  std::vector<Segment> segments;
  /// segmentsAt[j]: the segments in position j of their agent's cluster.
  std::vector<std::vector<size_t>> segmentsAt;
  int64_t widest = 1;
  std::vector<Group> groups;
  std::vector<size_t> groupOf;
  torch::Tensor flatPositions, segmentOfLogit, ownership;
  torch::Tensor mask1, mask2, mask3;
  torch::Tensor w1, b1, w2, b2, w3, b3;
  std::unique_ptr<torch::optim::Adam> optimizer;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_AGENTNETWORKS_H
