//===- AgentNetworks.cpp - Every agent's policy, batched ------------------===//
//
// The autoregressive masks follow MADE (Germain et al., 2015): the input of
// an agent's j-th decision has degree j + 1 (the observation degree 0), each
// hidden unit a degree in [0, m) for an agent of m decisions, and a weight is
// kept only from lower-or-equal to higher-or-equal degree; the j-th
// decision's logits see only hidden units of degree <= j. So one forward pass
// scores a whole proposal, and sampling takes one pass per position.
//
// LibTorch runs the networks (stacked affine maps and tanh) and their
// gradients, taken by hand (setGradients: autograd's engine cost more than
// the arithmetic). The rest is cheaper outside it, on the tensors' own
// storage: the loss's gradient with respect to the logits (PolicyLoss.h),
// and Adam, one pass over the weights. As LibTorch operations they were
// most of the update's time on these small tensors.
//
// This file lays the agents' weights out, shares them and keeps them;
// AgentSampling.cpp draws and scores decisions, AgentLearning.cpp learns.
//
//===----------------------------------------------------------------------===//

#include "AgentNetworks.h"
#include "PolicyLoss.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace marlmap {
namespace {

/// The stacked width of an agent with `logits` choices in all: the next of
/// 4, 6, 8, 12, 16, 24, ... (at most a third is padding), so that an
/// agent's shapes never depend on which others are stacked with it.
int64_t paddedWidth(int64_t logits) {
  for (int64_t power = 4;; power *= 2) {
    if (logits <= power)
      return power;
    if (logits <= power / 2 * 3)
      return power / 2 * 3;
  }
}

/// MADE degree of hidden unit `unit` of `hidden` in an agent of `m`
/// decisions: spread evenly over [0, m). With fewer units than decisions some
/// degrees have no unit, and a decision then sees fewer of the earlier ones
/// (still a valid, only coarser, autoregressive model).
int64_t degree(int64_t unit, int64_t hidden, int64_t m) {
  return unit * m / hidden;
}

} // namespace

int64_t AgentNetworks::weightCount(int64_t hidden, int64_t logits) {
  return (kObservation + logits + 1) * hidden + (hidden + 1) * hidden +
         (hidden + 1) * logits;
}

AgentNetworks::AgentNetworks(Clusters clusters,
                             const std::vector<Decision> &all, unsigned hidden,
                             double learningRate, bool autoregressive, Rng &rng)
    : AgentNetworks({Member{std::move(clusters), all, hidden, &rng}},
                    learningRate, autoregressive) {}

AgentNetworks::AgentNetworks(std::vector<Member> membersIn, double learningRate,
                             bool autoregressive)
    : members(std::move(membersIn)), learningRate(learningRate),
      autoregressive(autoregressive) {
  agentsOf.resize(members.size());
  std::map<GroupKey, size_t> groupWith;
  for (unsigned m = 0; m < members.size(); ++m)
    for (const std::vector<unsigned> &cluster : members[m].clusters) {
      Agent agent;
      agent.member = m;
      agent.decisions = cluster;
      for (unsigned d : cluster) {
        agent.offsets.push_back(agent.logits);
        agent.choices.push_back(members[m].decisions[d].choices);
        agent.logits += agent.choices.back();
      }
      const int64_t logits = agent.logits;
      const bool observationOnly = cluster.size() == 1 || !autoregressive;
      GroupKey key{paddedWidth(logits), int64_t(members[m].hidden),
                   observationOnly};
      auto [it, added] = groupWith.emplace(key, groupWith.size());
      agent.group = it->second;
      agentsOf[m].push_back(agents.size());
      agents.push_back(std::move(agent));
    }
  const size_t features = members.empty() ? 0 : members[0].features.size();
  for (const Member &member : members)
    TORCH_CHECK(member.features.size() == features,
                "every member observes as many features");
  groups.resize(groupWith.size());
  for (const auto &[key, index] : groupWith) {
    groups[index].key = key;
    groups[index].observation = kObservation + int64_t(features);
  }
  for (size_t a = 0; a < agents.size(); ++a)
    groups[agents[a].group].agents.push_back(a);
  for (Group &group : groups) {
    std::stable_sort(
        group.agents.begin(), group.agents.end(), [&](size_t x, size_t y) {
          return agents[x].decisions.size() > agents[y].decisions.size();
        });
    for (size_t slot = 0; slot < group.agents.size(); ++slot)
      agents[group.agents[slot]].slot = int64_t(slot);
  }
  steps.assign(agents.size(), 0);
  findSharedAgents();
  placeParameters(autoregressive);
}

AgentWeights AgentNetworks::shapeOf(size_t a) const {
  const Agent &agent = agents[a];
  const Member &member = members[agent.member];
  const Group &group = groups[agent.group];
  AgentWeights shape;
  shape.key = member.scope;
  for (unsigned d : agent.decisions)
    shape.key += "|" + member.decisions[d].name + "/" +
                 std::to_string(member.decisions[d].choices);
  shape.input = group.inputWidth();
  shape.hidden = group.key.hidden;
  shape.width = group.key.width;
  shape.autoregressive = autoregressive;
  return shape;
}

template <typename Visit>
void AgentNetworks::forEachRunOf(size_t a, Visit visit) const {
  // A group's leaves come in AgentWeights' order, each [agents, ...].
  for (const Leaf &leaf : leaves)
    if (leaf.group == agents[a].group) {
      const int64_t block = leaf.tensor.numel() / leaf.tensor.size(0);
      visit(leaf.start + agents[a].slot * block, block);
    }
}

std::vector<size_t> AgentNetworks::startFrom(const PolicyWeights &weights,
                                             double temperature) {
  const float scale = float(1.0 / temperature);
  std::vector<size_t> started(members.size(), 0);
  for (size_t a = 0; a < agents.size(); ++a) {
    const AgentWeights shape = shapeOf(a);
    const AgentWeights *kept = weights.find(shape.key);
    if (!kept || !kept->sameShape(shape) ||
        int64_t(kept->values.size()) != kept->weightCount())
      continue;
    const float *from = kept->values.data();
    // The runs come in AgentWeights' order: the output layer's weights and
    // biases are the last two.
    int run = 0;
    forEachRunOf(a, [&](int64_t start, int64_t count) {
      const bool output = run++ >= 4;
      std::transform(from, from + count, this->weights.begin() + start,
                     [&](float w) { return output ? w * scale : w; });
      from += count;
    });
    ++started[agents[a].member];
  }
  return started;
}

void AgentNetworks::restart(const std::vector<size_t> &restarted) {
  for (size_t member : restarted)
    for (size_t a : agentsOf[member]) {
      // The runs come in AgentWeights' order: the output layer last.
      int run = 0;
      forEachRunOf(a, [&](int64_t start, int64_t count) {
        if (run++ >= 4)
          std::fill_n(weights.begin() + start, count, 0.0f);
        std::fill_n(firstMoment.begin() + start, count, 0.0f);
        std::fill_n(secondMoment.begin() + start, count, 0.0f);
      });
      steps[a] = 0;
    }
}

void AgentNetworks::keep(size_t member, PolicyWeights &into) const {
  for (size_t a : agentsOf[member]) {
    AgentWeights agent = shapeOf(a);
    if (into.find(agent.key))
      continue;
    forEachRunOf(a, [&](int64_t start, int64_t count) {
      agent.values.insert(agent.values.end(), weights.begin() + start,
                          weights.begin() + start + count);
    });
    into.add(std::move(agent));
  }
}

void AgentNetworks::findSharedAgents() {
  // By class and by the names and choices of the decisions owned; a group
  // holds agents of one width, so copies are always in the same group.
  std::map<std::tuple<int, size_t, std::vector<std::string>>,
           std::vector<size_t>>
      copiesOf;
  for (size_t a = 0; a < agents.size(); ++a) {
    const Agent &agent = agents[a];
    const Member &member = members[agent.member];
    if (member.shareClass < 0)
      continue;
    std::vector<std::string> owned;
    for (unsigned d : agent.decisions)
      owned.push_back(member.decisions[d].name + "/" +
                      std::to_string(member.decisions[d].choices));
    copiesOf[{member.shareClass, agent.group, owned}].push_back(a);
  }
  for (auto &[key, copies] : copiesOf)
    if (copies.size() > 1)
      sharedAgents.push_back(std::move(copies));
}

/// Where each of a group's six weight tensors starts, and their sizes.
struct AgentNetworks::GroupLayout {
  int64_t in, w1, b1, w2, b2, w3, b3, end;
  GroupLayout(int64_t base, int64_t count, int64_t in, int64_t width,
              int64_t hidden)
      : in(in) {
    w1 = base;
    b1 = w1 + count * in * hidden;
    w2 = b1 + count * hidden;
    b2 = w2 + count * hidden * hidden;
    w3 = b2 + count * hidden;
    b3 = w3 + count * hidden * width;
    end = b3 + count * width;
  }
};

void AgentNetworks::placeParameters(bool autoregressive) {
  std::vector<GroupLayout> layouts;
  int64_t total = 0;
  for (const Group &group : groups) {
    layouts.emplace_back(total, int64_t(group.agents.size()),
                         group.inputWidth(), group.key.width, group.key.hidden);
    total = layouts.back().end;
  }
  InitialWeights initial;
  initial.values.assign(total, 0.0f);
  initial.trainable.assign(total, 0);
  initial.ownerOf.assign(total, 0);
  firstMoment.assign(total, 0.0f);
  secondMoment.assign(total, 0.0f);
  // The first layer's initial scale: as if the member's agents all took the
  // widest one's input (a small start for the narrow ones).
  std::vector<int64_t> widestOf(members.size(), 1);
  for (const Agent &agent : agents)
    widestOf[agent.member] = std::max(widestOf[agent.member], agent.logits);
  // Each member's weights are drawn from its own generator, agent by agent
  // in its clusters' order: the same values whoever else is stacked.
  for (const std::vector<size_t> &memberAgents : agentsOf)
    for (size_t a : memberAgents)
      drawAgentWeights(a, layouts[agents[a].group], widestOf[agents[a].member],
                       autoregressive, initial);
  weights = std::move(initial.values);
  makeLeaves(layouts, initial);
  equaliseSharedAgents();
}

void AgentNetworks::drawAgentWeights(size_t a, const GroupLayout &at,
                                     int64_t widest, bool autoregressive,
                                     InitialWeights &initial) const {
  const Agent &agent = agents[a];
  const Group &group = groups[agent.group];
  Rng &rng = *members[agent.member].rng;
  const int64_t h = group.key.hidden, width = group.key.width;
  const int64_t s = agent.slot;
  const int64_t logits = agent.logits;
  // A factorised agent gives every hidden unit degree 0: no decision's
  // value reaches a hidden unit, so every decision sees only the
  // observation.
  const int64_t m =
      autoregressive ? int64_t(agent.decisions.size()) : int64_t(1);
  auto place = [&](int64_t index, bool kept, double bound) {
    initial.ownerOf[index] = uint32_t(a);
    if (!kept)
      return;
    initial.trainable[index] = 1;
    initial.values[index] = float((2.0 * rng.unit() - 1.0) * bound);
  };
  // The decision each input row or output column of the agent is for.
  std::vector<int64_t> positionOf(logits);
  for (size_t j = 0; j < agent.decisions.size(); ++j)
    for (int64_t c = 0; c < agent.choices[j]; ++c)
      positionOf[agent.offsets[j] + c] = int64_t(j);
  const int64_t observation = group.observation;
  const double inBound = 1.0 / std::sqrt(double(observation + widest));
  const double hiddenBound = 1.0 / std::sqrt(double(h));
  for (int64_t row = 0; row < at.in; ++row)
    for (int64_t u = 0; u < h; ++u) {
      const int64_t logit = row - observation;
      bool kept = row < observation ||
                  (logit < logits && degree(u, h, m) >= positionOf[logit] + 1);
      place(at.w1 + (s * at.in + row) * h + u, kept, inBound);
    }
  for (int64_t u = 0; u < h; ++u)
    place(at.b1 + s * h + u, true, inBound);
  for (int64_t k = 0; k < h; ++k)
    for (int64_t l = 0; l < h; ++l)
      place(at.w2 + (s * h + k) * h + l, degree(l, h, m) >= degree(k, h, m),
            hiddenBound);
  for (int64_t u = 0; u < h; ++u)
    place(at.b2 + s * h + u, true, hiddenBound);
  // A zero head: the first policy is uniform, as random search is.
  for (int64_t u = 0; u < h; ++u)
    for (int64_t c = 0; c < width; ++c)
      place(at.w3 + (s * h + u) * width + c,
            c < logits && degree(u, h, m) <= positionOf[c], 0.0);
  for (int64_t c = 0; c < width; ++c)
    place(at.b3 + s * width + c, c < logits, 0.0);
}

void AgentNetworks::makeLeaves(const std::vector<GroupLayout> &layouts,
                               const InitialWeights &initial) {
  // Each tensor is a leaf of its own over `weights`: setGradients gives
  // each its gradient, and Adam reads them in place.
  for (size_t g = 0; g < groups.size(); ++g) {
    Group &group = groups[g];
    const GroupLayout &at = layouts[g];
    const int64_t count = int64_t(group.agents.size()), h = group.key.hidden;
    auto view = [&](int64_t start, std::vector<int64_t> sizes) {
      Leaf leaf;
      leaf.tensor =
          torch::from_blob(weights.data() + start, sizes, torch::kFloat32)
              .requires_grad_(true);
      leaf.start = start;
      leaf.group = g;
      // Runs of trainable weights of one agent: all Adam looks at.
      const int64_t end = start + leaf.tensor.numel();
      for (int64_t k = start; k < end; ++k) {
        if (!initial.trainable[k])
          continue;
        if (leaf.spans.empty() || leaf.spans.back().end != k ||
            leaf.spans.back().agent != initial.ownerOf[k])
          leaf.spans.push_back({k, k, initial.ownerOf[k]});
        leaf.spans.back().end = k + 1;
      }
      leaves.push_back(leaf);
      return leaf.tensor;
    };
    group.w1 = view(at.w1, {count, at.in, h});
    group.b1 = view(at.b1, {count, 1, h});
    group.w2 = view(at.w2, {count, h, h});
    group.b2 = view(at.b2, {count, 1, h});
    group.w3 = view(at.w3, {count, h, group.key.width});
    group.b3 = view(at.b3, {count, 1, group.key.width});
  }
}

template <typename Visit>
void AgentNetworks::forEachSharedBlock(const Leaf &leaf, float *data,
                                       Visit visit) const {
  const int64_t block = leaf.tensor.numel() / leaf.tensor.size(0);
  std::vector<float *> starts;
  for (const std::vector<size_t> &copies : sharedAgents) {
    if (agents[copies[0]].group != leaf.group)
      continue;
    starts.clear();
    for (size_t a : copies)
      starts.push_back(data + agents[a].slot * block);
    visit(starts, block);
  }
}

void AgentNetworks::equaliseSharedAgents() {
  for (const Leaf &leaf : leaves)
    forEachSharedBlock(leaf, weights.data() + leaf.start,
                       [](const std::vector<float *> &copies, int64_t block) {
                         for (size_t k = 1; k < copies.size(); ++k)
                           std::copy(copies[0], copies[0] + block, copies[k]);
                       });
}

void AgentNetworks::sumSharedGradients() {
  if (sharedAgents.empty())
    return;
  std::vector<float> sum;
  for (Leaf &leaf : leaves) {
    torch::Tensor &gradient = leaf.tensor.mutable_grad();
    if (!gradient.defined())
      continue;
    forEachSharedBlock(leaf, gradient.data_ptr<float>(),
                       [&](const std::vector<float *> &copies, int64_t block) {
                         // In member order, so that the sum's rounding is
                         // always the same.
                         sum.assign(block, 0.0f);
                         for (const float *own : copies)
                           for (int64_t k = 0; k < block; ++k)
                             sum[k] += own[k];
                         for (float *own : copies)
                           std::copy(sum.begin(), sum.end(), own);
                       });
  }
}

} // namespace marlmap
