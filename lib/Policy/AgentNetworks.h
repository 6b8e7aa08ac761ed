//===- AgentNetworks.h - Every agent's policy, batched ----------*- C++ -*-===//
//
// Each agent owns a cluster of decisions and picks them jointly: its network
// is autoregressive over its decisions (a masked MLP, as in MADE), so the
// distribution of the j-th decision depends on the values the agent already
// chose for decisions 0..j-1 of its cluster, plus the observation of the
// search. Decisions of different agents are independent, which is what the
// clustering is for: interacting decisions share an agent, the rest need not
// coordinate.
//
// The networks of several problems (members) can live in one AgentNetworks
// and step in lockstep: agents of similar width, from every member, are
// stacked so that one batched multiply runs them all, and the per-operation
// cost of LibTorch is paid once for all of them. Every agent's arithmetic
// has the same shapes whatever else is stacked with it (widths padded to a
// power of two, rows to the caller's count), so a member's results are bit
// for bit those it gets alone, unless it shares agents: members of one
// share class, agents owning decisions of the same names and choices, are
// one agent. Each member keeps a copy of it, run on that member's
// observation (which then holds the member's features); the copies start
// equal and every update gives each the sum of all their gradients, so
// they stay equal, bit for bit, and each problem's lessons train the
// others' agents.
//
// Private to libMarlmapPolicy (includes LibTorch).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_POLICY_AGENTNETWORKS_H
#define MARLMAP_LIB_POLICY_AGENTNETWORKS_H

#include "PolicyLoss.h"
#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/PolicyWeights.h"
#include "marlmap/Search/Searcher.h"

#include <torch/torch.h>

#include <tuple>
#include <vector>

namespace marlmap {

class AgentNetworks {
public:
  using Vector = std::vector<int64_t>;

  /// [1, progress through the budget], then the member's features.
  static constexpr int64_t kObservation = 2;

  /// One problem's agents: the clusters of its decisions, each agent's
  /// hidden width, and the generator its initial weights come from.
  struct Member {
    Clusters clusters;
    std::vector<Decision> decisions;
    unsigned hidden;
    Rng *rng;
    /// What its agents observe of the problem (as many for every member).
    std::vector<float> features = {};
    /// Members of one class (>= 0) share the agents of their common
    /// decisions; -1: none shared.
    int shareClass = -1;
    /// What its decisions' names mean in (the accelerator and op kind):
    /// the start of its agents' keys in a PolicyWeights.
    std::string scope = {};
  };

  /// `autoregressive` false: each decision depends on the observation only
  /// (a factorised head, as a multi-discrete PPO agent's).
  AgentNetworks(std::vector<Member> members, double learningRate,
                bool autoregressive);
  /// One member.
  AgentNetworks(Clusters clusters, const std::vector<Decision> &all,
                unsigned hidden, double learningRate, bool autoregressive,
                Rng &rng);
  /// The weight tensors are views of this object's own storage.
  AgentNetworks(const AgentNetworks &) = delete;
  AgentNetworks &operator=(const AgentNetworks &) = delete;

  /// Dense weights of one agent with `hidden` units owning decisions with
  /// `logits` choices in all, masked-out weights included (padding to the
  /// stacked width is not counted).
  static int64_t weightCount(int64_t hidden, int64_t logits);

  /// A member's part of a round of drawing: every decision of every
  /// proposal of `batch` (already sized, or empty to draw nothing), drawn
  /// with `rng` at `progress`.
  struct Draw {
    float progress;
    Rng *rng;
    std::vector<Vector> *batch;
  };
  /// One Draw per member. All non-empty batches have the same size.
  void sample(const std::vector<Draw> &draws);
  void sample(float progress, Rng &rng, std::vector<Vector> &batch);

  /// A member's part of an update: proposals drawn at `progress`, one
  /// advantage each (shared by the member's agents), and the entropy
  /// bonus. A member without proposals does not learn (its weights and
  /// optimiser state stay as they are).
  struct Lesson {
    float progress = 0.0f;
    const std::vector<Vector> *batch = nullptr;
    std::vector<float> advantages;
    double entropy = 0.0;
  };
  /// `options.epochs` clipped policy-gradient (PPO) steps, each agent's
  /// ratio that of the joint probability of its own decisions. `rows` is
  /// the row count every member's batch is padded to (at least the largest
  /// batch): members stepped together must be given the same one.
  void learn(const std::vector<Lesson> &lessons, int64_t rows,
             const PolicyOptions &options);
  void learn(float progress, const std::vector<Vector> &batch,
             std::vector<float> advantages, const PolicyOptions &options);

  /// Each decision's distribution in given proposals, as drawing would
  /// draw it: [proposal][decision] -> probability of each choice, given the
  /// values the decision's agent chose before it in that proposal.
  using Conditionals = std::vector<std::vector<std::vector<float>>>;
  /// A member's part of conditionals(): its proposals (at most the rows),
  /// the progress they are observed at, and where their distributions go.
  struct Lookup {
    float progress = 0.0f;
    const std::vector<Vector> *batch = nullptr;
    Conditionals *conditionals = nullptr;
  };
  /// One Lookup per member (none without a batch); `rows` as in learn.
  void conditionals(const std::vector<Lookup> &lookups, int64_t rows);

  /// The log-probability of each decision's value in `proposal` (of the
  /// first member), given the values its agent chose before it, indexed by
  /// decision.
  std::vector<double> decisionLogProbabilities(float progress,
                                               const Vector &proposal);

  /// Starts every agent whose key (PolicyWeights.h: its member's scope and
  /// the decisions it owns) and shape match an agent of `weights` from its
  /// weights, its output layer divided by `temperature` (above 1: a flatter
  /// first policy than the one saved); how many of each member's did.
  std::vector<size_t> startFrom(const PolicyWeights &weights,
                                double temperature = 1.0);
  /// Gives every agent of `restarted` its first, uniform policy back: its
  /// output layer zero, its optimiser state fresh; what its hidden layers
  /// learnt stays. The members of a share class restart together, or their
  /// shared agents' copies would part.
  void restart(const std::vector<size_t> &restarted);
  /// Adds each of `member`'s agents, as it is now, to `into` unless `into`
  /// holds its key already.
  void keep(size_t member, PolicyWeights &into) const;

  /// A member's clusters as given (the report's order).
  const Clusters &owners(size_t member = 0) const {
    return members[member].clusters;
  }

private:
  /// Its decisions; its logits are the first of its group's width.
  struct Agent : AgentDecisions {
    unsigned member = 0;
    size_t group = 0;
    /// Its index in its group's stacked tensors.
    int64_t slot = 0;
  };
  /// Whether an agent's logits depend on the observation only: one
  /// decision, or a factorised head. Its proposals then share one input
  /// row, and its network runs once per batch instead of once per proposal.
  struct GroupKey {
    int64_t width, hidden;
    bool observationOnly;
    bool operator<(const GroupKey &other) const {
      return std::tie(width, hidden, observationOnly) <
             std::tie(other.width, other.hidden, other.observationOnly);
    }
  };
  /// Agents of one padded width and hidden width, stacked: their weights
  /// are [agents, ...] tensors over `weights`; the largest clusters come
  /// first, so the agents still drawing at any position are a prefix.
  struct Group {
    GroupKey key;
    /// The observation's width: kObservation and the features.
    int64_t observation = kObservation;
    std::vector<size_t> agents;
    torch::Tensor w1, b1, w2, b2, w3, b3;
    /// The networks' input, [agents, rows, observation + width] (one row
    /// when observation-only): the observation, then the one-hot choices.
    /// Reused between calls.
    std::vector<float> input;
    int64_t rowsFor(int64_t rows) const {
      return key.observationOnly ? 1 : rows;
    }
    /// An observation-only agent's choices never reach its network.
    int64_t inputWidth() const {
      return key.observationOnly ? observation : observation + key.width;
    }
  };

  /// Where each group's tensors start in `weights` (AgentNetworks.cpp).
  struct GroupLayout;
  /// The weights as drawn, which of them train (those no mask or padding
  /// keeps at zero), and whose each is.
  struct InitialWeights {
    std::vector<float> values;
    std::vector<uint8_t> trainable;
    std::vector<uint32_t> ownerOf;
  };
  /// Lays out every group's weights, draws them, and makes the tensors.
  void placeParameters(bool autoregressive);
  /// Draws agent `a`'s weights from its member's generator into `initial`;
  /// `widest` is its member's widest agent's logits.
  void drawAgentWeights(size_t a, const GroupLayout &at, int64_t widest,
                        bool autoregressive, InitialWeights &initial) const;
  /// One leaf tensor per group tensor over `weights`, with its runs of
  /// trainable weights.
  void makeLeaves(const std::vector<GroupLayout> &layouts,
                  const InitialWeights &initial);
  /// An agent as PolicyWeights keeps it, its weights left empty.
  AgentWeights shapeOf(size_t agent) const;
  /// Calls `visit(start, count)` for each run of `agent`'s weights in
  /// `weights`, in the order AgentWeights holds them.
  template <typename Visit> void forEachRunOf(size_t agent, Visit visit) const;
  /// Agents that are one (Member::shareClass), each list in member order.
  void findSharedAgents();
  /// Every copy of a shared agent set to its first's weights.
  void equaliseSharedAgents();
  /// Every copy of a shared agent's gradient set to the sum of theirs.
  void sumSharedGradients();
  /// Fills each group's input for `batches` (rows padded to `rows`).
  void fillInputs(const std::vector<float> &progress,
                  const std::vector<const std::vector<Vector> *> &batches,
                  int64_t rows);
  torch::Tensor inputOf(Group &group, int64_t rows, int64_t count);
  /// [count, rows, width] logits of the first `count` agents of `group`:
  /// the first layer before its activation ([count, rows, hidden]), then
  /// the rest of the network from it.
  torch::Tensor logitsOf(Group &group, int64_t rows, int64_t count);
  torch::Tensor firstLayer(Group &group, int64_t rows, int64_t count);
  /// A group's forward pass over all its agents with what its gradient
  /// needs: the input, both hidden layers' outputs and the logits.
  struct Activations {
    torch::Tensor input, hidden1, hidden2, logits;
  };
  /// With `keep`, the hidden layers' outputs and the logits go there too.
  torch::Tensor logitsFrom(Group &group, const torch::Tensor &first,
                           Activations *keep = nullptr);
  Activations activationsOf(Group &group, int64_t rows);
  /// Sets the gradient of each of `group`'s weight tensors from the
  /// logits' (`logitGradient`, shaped as the logits), by hand: on these
  /// small tensors autograd's engine cost more than the arithmetic.
  void setGradients(Group &group, const Activations &forward,
                    const torch::Tensor &logitGradient);
  /// One decision on one row (an observation-only agent's only decision):
  /// its proposals differ only in their choice, and its loss is taken
  /// choice by choice.
  bool byChoice(const Agent &agent) const;
  void adamStep(const std::vector<bool> &learns);

  /// Its arrays are kept between updates.
  PolicyLoss loss;

  std::vector<Member> members;
  std::vector<Agent> agents;
  /// Per member, its agents in the order of its clusters.
  std::vector<std::vector<size_t>> agentsOf;
  /// The copies of each shared agent, two or more, in member order.
  std::vector<std::vector<size_t>> sharedAgents;
  std::vector<Group> groups;
  /// Every weight, trained with Adam, and its moments.
  std::vector<float> weights, firstMoment, secondMoment;
  /// The tensors over `weights`: where each starts, and its runs of
  /// trainable weights (those no mask or padding keeps at zero), each of one
  /// agent.
  struct Span {
    int64_t begin, end;
    uint32_t agent;
  };
  struct Leaf {
    torch::Tensor tensor;
    int64_t start;
    size_t group;
    std::vector<Span> spans;
  };
  std::vector<Leaf> leaves;
  /// Calls `visit(copies, block)` for each shared agent of `leaf`'s group:
  /// where each copy's block of `data` (laid out as `leaf`) starts.
  template <typename Visit>
  void forEachSharedBlock(const Leaf &leaf, float *data, Visit visit) const;
  /// Each agent's Adam steps.
  std::vector<int64_t> steps;
  double learningRate;
  bool autoregressive;
};

} // namespace marlmap

#endif // MARLMAP_LIB_POLICY_AGENTNETWORKS_H
