//===- AgentNetworks.cpp - Every agent's policy, batched ------------------===//
//
// The autoregressive masks follow MADE (Germain et al., 2015): the input of
// an agent's j-th decision has degree j + 1 (the observation degree 0), each
// hidden unit a degree in [0, m) for an agent of m decisions, and a weight is
// kept only from lower-or-equal to higher-or-equal degree; the j-th
// decision's logits see only hidden units of degree <= j. So one forward pass
// scores a whole proposal, and sampling takes one pass per position.
//
// LibTorch runs the networks (stacked affine maps, tanh, autograd through
// them). The rest is cheaper outside it, on the tensors' own storage: the
// loss's gradient with respect to the logits (PolicyLoss.h), and Adam, one
// pass over the weights. As LibTorch operations they were most of the
// update's time on these small tensors.
//
//===----------------------------------------------------------------------===//

#include "AgentNetworks.h"
#include "PolicyLoss.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace marlmap {

namespace {

constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;

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

/// Where each of a group's six weight tensors starts, and their sizes.
struct GroupLayout {
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

/// The unnormalised probabilities of a categorical over `logits`, for
/// drawFrom; their sum. In single precision, as the logits are: this and
/// the softmax below are a large share of a policy search's arithmetic.
double weightsOf(const float *logits, int64_t choices,
                 std::vector<float> &weights) {
  const float largest = *std::max_element(logits, logits + choices);
  weights.resize(choices);
  double total = 0.0;
  for (int64_t c = 0; c < choices; ++c)
    total += weights[c] = std::exp(logits[c] - largest);
  return total;
}

/// A draw, with `rng`, from the categorical weightsOf gave.
int64_t drawFrom(const std::vector<float> &weights, double total, Rng &rng) {
  double u = rng.unit() * total, acc = 0.0;
  for (size_t c = 0; c < weights.size(); ++c) {
    acc += weights[c];
    if (u < acc)
      return int64_t(c);
  }
  return int64_t(weights.size()) - 1;
}

/// Adam on `n` weights `w` with gradient `g` and moments `m`, `v`. Wider
/// vectors where the processor has them: each operation is exactly rounded
/// (no fused multiply-add), so every variant gives the same bits.
__attribute__((target_clones("avx2", "default"))) void
adamRun(const float *g, float *m, float *v, float *w, int64_t n, float step,
        float scale) {
  const float beta1 = float(kBeta1), beta2 = float(kBeta2);
  const float epsilon = float(kEpsilon);
  for (int64_t k = 0; k < n; ++k) {
    m[k] = beta1 * m[k] + (1.0f - beta1) * g[k];
    v[k] = beta2 * v[k] + (1.0f - beta2) * g[k] * g[k];
    w[k] -= step * m[k] / (std::sqrt(v[k]) * scale + epsilon);
  }
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

void AgentNetworks::placeParameters(bool autoregressive) {
  std::vector<GroupLayout> layouts;
  int64_t total = 0;
  for (const Group &group : groups) {
    layouts.emplace_back(total, int64_t(group.agents.size()),
                         group.inputWidth(), group.key.width, group.key.hidden);
    total = layouts.back().end;
  }
  std::vector<float> initial(total, 0.0f);
  // Which weights a mask or padding keeps at zero, and whose each is: the
  // runs Adam updates are made from them.
  std::vector<uint8_t> trainable(total, 0);
  std::vector<uint32_t> ownerOf(total, 0);
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
    for (size_t a : memberAgents) {
      const Agent &agent = agents[a];
      const Group &group = groups[agent.group];
      const GroupLayout &at = layouts[agent.group];
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
        ownerOf[index] = uint32_t(a);
        if (!kept)
          return;
        trainable[index] = 1;
        initial[index] = float((2.0 * rng.unit() - 1.0) * bound);
      };
      // The decision each input row or output column of the agent is for.
      std::vector<int64_t> positionOf(logits);
      for (size_t j = 0; j < agent.decisions.size(); ++j)
        for (int64_t c = 0; c < agent.choices[j]; ++c)
          positionOf[agent.offsets[j] + c] = int64_t(j);
      const int64_t observation = group.observation;
      const double inBound =
          1.0 / std::sqrt(double(observation + widestOf[agent.member]));
      const double hiddenBound = 1.0 / std::sqrt(double(h));
      for (int64_t row = 0; row < at.in; ++row)
        for (int64_t u = 0; u < h; ++u) {
          const int64_t logit = row - observation;
          bool kept =
              row < observation ||
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
  // Each tensor is a leaf of its own over `weights`: autograd fills one
  // gradient per tensor, and Adam reads them in place.
  weights = std::move(initial);
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
        if (!trainable[k])
          continue;
        if (leaf.spans.empty() || leaf.spans.back().end != k ||
            leaf.spans.back().agent != ownerOf[k])
          leaf.spans.push_back({k, k, ownerOf[k]});
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
  equaliseSharedAgents();
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
    forEachSharedBlock(
        leaf, gradient.data_ptr<float>(),
        [&](const std::vector<float *> &copies, int64_t block) {
          // In member order, so that the sum's rounding is always the same.
          sum.assign(block, 0.0f);
          for (const float *own : copies)
            for (int64_t k = 0; k < block; ++k)
              sum[k] += own[k];
          for (float *own : copies)
            std::copy(sum.begin(), sum.end(), own);
        });
  }
}

void AgentNetworks::fillInputs(
    const std::vector<float> &progress,
    const std::vector<const std::vector<Vector> *> &batches, int64_t rows) {
  for (Group &group : groups) {
    const int64_t in = group.inputWidth(), groupRows = group.rowsFor(rows);
    group.input.assign(group.agents.size() * groupRows * in, 0.0f);
    for (size_t a : group.agents) {
      const Agent &agent = agents[a];
      const std::vector<Vector> *batch = batches[agent.member];
      if (!batch)
        continue;
      for (int64_t i = 0; i < std::min<int64_t>(groupRows, batch->size());
           ++i) {
        float *row = group.input.data() + (agent.slot * groupRows + i) * in;
        row[0] = 1.0f;
        row[1] = progress[agent.member];
        const std::vector<float> &features = members[agent.member].features;
        std::copy(features.begin(), features.end(), row + kObservation);
        if (group.key.observationOnly)
          continue;
        for (size_t j = 0; j < agent.decisions.size(); ++j) {
          int64_t value = (*batch)[i][agent.decisions[j]];
          if (value >= 0)
            row[group.observation + agent.offsets[j] + value] = 1.0f;
        }
      }
    }
  }
}

torch::Tensor AgentNetworks::inputOf(Group &group, int64_t rows,
                                     int64_t count) {
  return torch::from_blob(group.input.data(),
                          {int64_t(group.agents.size()), group.rowsFor(rows),
                           group.inputWidth()},
                          torch::kFloat32)
      .narrow(0, 0, count);
}

namespace {

/// bias + x w for stacked agents: x [agents, rows, in], w [agents, in, out].
/// LibTorch's CPU batched multiply dispatches one product per agent; with
/// one row per agent, a broadcast product summed over `in` is one operation
/// for all of them (and its gradient two).
torch::Tensor affine(const torch::Tensor &bias, const torch::Tensor &x,
                     const torch::Tensor &w) {
  if (x.size(1) != 1)
    return torch::baddbmm(bias, x, w);
  return bias + (x.transpose(1, 2) * w).sum(1, /*keepdim=*/true);
}

/// The first `count` agents of a stacked tensor. All of them is the tensor
/// itself: a view's gradient would cost a zeroed copy of the whole.
torch::Tensor firstAgents(const torch::Tensor &stacked, int64_t count) {
  return count == stacked.size(0) ? stacked : stacked.narrow(0, 0, count);
}

} // namespace

torch::Tensor AgentNetworks::firstLayer(Group &group, int64_t rows,
                                        int64_t count) {
  return affine(firstAgents(group.b1, count), inputOf(group, rows, count),
                firstAgents(group.w1, count));
}

torch::Tensor AgentNetworks::logitsFrom(Group &group,
                                        const torch::Tensor &first) {
  const int64_t count = first.size(0);
  auto part = [&](const torch::Tensor &t) { return firstAgents(t, count); };
  torch::Tensor h =
      torch::tanh(affine(part(group.b2), torch::tanh(first), part(group.w2)));
  return affine(part(group.b3), h, part(group.w3));
}

torch::Tensor AgentNetworks::logitsOf(Group &group, int64_t rows,
                                      int64_t count) {
  return logitsFrom(group, firstLayer(group, rows, count));
}

void AgentNetworks::sample(float progress, Rng &rng,
                           std::vector<Vector> &batch) {
  sample({Draw{progress, &rng, &batch}});
}

void AgentNetworks::sample(const std::vector<Draw> &draws) {
  torch::NoGradGuard noGrad;
  int64_t rows = 0;
  size_t positions = 0;
  std::vector<float> progress(members.size(), 0.0f);
  std::vector<const std::vector<Vector> *> batches(members.size(), nullptr);
  for (size_t m = 0; m < draws.size(); ++m) {
    if (!draws[m].batch || draws[m].batch->empty())
      continue;
    TORCH_CHECK(rows == 0 || rows == int64_t(draws[m].batch->size()),
                "members drawn together draw as many proposals each");
    rows = int64_t(draws[m].batch->size());
    for (Vector &proposal : *draws[m].batch)
      std::fill(proposal.begin(), proposal.end(), -1);
    progress[m] = draws[m].progress;
    batches[m] = draws[m].batch;
    for (size_t a : agentsOf[m])
      positions = std::max(positions, agents[a].decisions.size());
  }
  fillInputs(progress, batches, rows);
  // Position by position: what an agent draws at j is input for j + 1;
  // only agents with a decision at j run. The first layer is computed once
  // from the observation; each value drawn then adds its weights' row to
  // it, instead of a multiply over the whole input at every position.
  std::vector<torch::Tensor> firstLayers(groups.size()), logits(groups.size());
  for (size_t g = 0; g < groups.size(); ++g)
    firstLayers[g] =
        firstLayer(groups[g], rows, int64_t(groups[g].agents.size()))
            .contiguous();
  std::vector<float> scratch;
  for (size_t j = 0; j < positions; ++j) {
    for (size_t g = 0; g < groups.size(); ++g) {
      Group &group = groups[g];
      int64_t active = 0;
      while (active < int64_t(group.agents.size()) &&
             agents[group.agents[active]].decisions.size() > j)
        ++active;
      logits[g] = active
                      ? logitsFrom(group, firstLayers[g].narrow(0, 0, active))
                            .contiguous()
                      : torch::Tensor();
    }
    // Each member draws with its own generator, in its own agents' order.
    for (size_t m = 0; m < draws.size(); ++m) {
      if (!batches[m])
        continue;
      for (size_t a : agentsOf[m]) {
        const Agent &agent = agents[a];
        if (agent.decisions.size() <= j)
          continue;
        Group &group = groups[agent.group];
        const int64_t width = group.key.width, groupRows = group.rowsFor(rows);
        const float *first = logits[agent.group].data_ptr<float>() +
                             agent.slot * groupRows * width + agent.offsets[j];
        // An observation-only agent draws every row from one distribution.
        double total = 0.0;
        for (int64_t i = 0; i < rows; ++i) {
          if (i == 0 || !group.key.observationOnly)
            total = weightsOf(first + i * width, agent.choices[j], scratch);
          int64_t choice = drawFrom(scratch, total, *draws[m].rng);
          (*draws[m].batch)[i][agent.decisions[j]] = choice;
          if (group.key.observationOnly)
            continue;
          const int64_t h = group.key.hidden;
          float *sum = firstLayers[agent.group].data_ptr<float>() +
                       (agent.slot * rows + i) * h;
          const float *weight = group.w1.data_ptr<float>() +
                                (agent.slot * group.inputWidth() +
                                 group.observation + agent.offsets[j] +
                                 choice) *
                                    h;
          for (int64_t u = 0; u < h; ++u)
            sum[u] += weight[u];
        }
      }
    }
  }
}

std::vector<double>
AgentNetworks::decisionLogProbabilities(float progress,
                                        const Vector &proposal) {
  torch::NoGradGuard noGrad;
  const std::vector<Vector> batch = {proposal};
  std::vector<const std::vector<Vector> *> batches(members.size(), nullptr);
  batches[0] = &batch;
  fillInputs(std::vector<float>(members.size(), progress), batches, 1);
  std::vector<torch::Tensor> logits;
  for (Group &group : groups)
    logits.push_back(
        logitsOf(group, 1, int64_t(group.agents.size())).contiguous());
  std::vector<double> result(proposal.size(), 0.0);
  std::vector<float> logProbabilities, probabilities;
  for (size_t a : agentsOf[0]) {
    const Agent &agent = agents[a];
    const float *row = logits[agent.group].data_ptr<float>() +
                       agent.slot * groups[agent.group].key.width;
    for (size_t j = 0; j < agent.decisions.size(); ++j) {
      logProbabilities.resize(agent.choices[j]);
      probabilities.resize(agent.choices[j]);
      softmax(row + agent.offsets[j], agent.choices[j], logProbabilities.data(),
              probabilities.data());
      result[agent.decisions[j]] =
          logProbabilities[proposal[agent.decisions[j]]];
    }
  }
  return result;
}

void AgentNetworks::conditionals(const std::vector<Lookup> &lookups,
                                 int64_t rows) {
  torch::NoGradGuard noGrad;
  std::vector<float> progress(members.size(), 0.0f);
  std::vector<const std::vector<Vector> *> batches(members.size(), nullptr);
  for (size_t m = 0; m < lookups.size(); ++m) {
    if (!lookups[m].batch || lookups[m].batch->empty())
      continue;
    TORCH_CHECK(int64_t(lookups[m].batch->size()) <= rows,
                "conditionals of at most ", rows, " proposals");
    progress[m] = lookups[m].progress;
    batches[m] = lookups[m].batch;
  }
  fillInputs(progress, batches, rows);
  // Every position at once: an agent's network sees, for each decision,
  // only the values chosen before it (the masks).
  std::vector<torch::Tensor> logits;
  for (Group &group : groups)
    logits.push_back(
        logitsOf(group, rows, int64_t(group.agents.size())).contiguous());
  std::vector<float> logProbabilities;
  for (size_t m = 0; m < lookups.size(); ++m) {
    if (!batches[m])
      continue;
    Conditionals &out = *lookups[m].conditionals;
    out.assign(batches[m]->size(),
               std::vector<std::vector<float>>(members[m].decisions.size()));
    for (size_t a : agentsOf[m]) {
      const Agent &agent = agents[a];
      const Group &group = groups[agent.group];
      const int64_t width = group.key.width, groupRows = group.rowsFor(rows);
      for (size_t i = 0; i < out.size(); ++i) {
        const float *row =
            logits[agent.group].data_ptr<float>() +
            (agent.slot * groupRows + (groupRows == 1 ? 0 : int64_t(i))) *
                width;
        for (size_t j = 0; j < agent.decisions.size(); ++j) {
          std::vector<float> &probabilities = out[i][agent.decisions[j]];
          probabilities.resize(agent.choices[j]);
          logProbabilities.resize(agent.choices[j]);
          softmax(row + agent.offsets[j], agent.choices[j],
                  logProbabilities.data(), probabilities.data());
        }
      }
    }
  }
}

void AgentNetworks::learn(float progress, const std::vector<Vector> &batch,
                          std::vector<float> advantages,
                          const PolicyOptions &options) {
  Lesson lesson{progress, &batch, std::move(advantages), options.entropy};
  learn({lesson}, int64_t(batch.size()), options);
}

void AgentNetworks::learn(const std::vector<Lesson> &lessons, int64_t rows,
                          const PolicyOptions &options) {
  if (groups.empty())
    return;
  std::vector<float> progress(members.size(), 0.0f);
  std::vector<const std::vector<Vector> *> batches(members.size(), nullptr);
  std::vector<bool> learns(members.size(), false);
  for (size_t m = 0; m < lessons.size(); ++m) {
    const Lesson &lesson = lessons[m];
    if (!lesson.batch || lesson.batch->empty())
      continue;
    TORCH_CHECK(int64_t(lesson.batch->size()) <= rows &&
                    lesson.advantages.size() == lesson.batch->size(),
                "a lesson needs one advantage per proposal, at most ", rows);
    progress[m] = lesson.progress;
    batches[m] = lesson.batch;
    learns[m] = true;
  }
  fillInputs(progress, batches, rows);
  // A one-decision agent's loss depends on a proposal only through its
  // choice: the advantages are summed per choice once, and each epoch's
  // gradient costs its choices, not the batch's rows.
  std::vector<int64_t> choiceStart(agents.size() + 1, 0);
  for (size_t a = 0; a < agents.size(); ++a)
    choiceStart[a + 1] =
        choiceStart[a] + (byChoice(agents[a]) ? agents[a].logits : 0);
  std::vector<double> gains(choiceStart.back(), 0.0),
      losses(choiceStart.back(), 0.0), drawnByChoice(choiceStart.back(), 0.0);
  for (size_t m = 0; m < members.size(); ++m)
    if (learns[m])
      for (size_t a : agentsOf[m])
        if (byChoice(agents[a]))
          sumByChoice(agents[a].decisions[0], *lessons[m].batch,
                      lessons[m].advantages.data(),
                      gains.data() + choiceStart[a],
                      losses.data() + choiceStart[a]);
  // Each agent's log-probability of its proposals when they were drawn
  // (the weights have not moved since): [group][slot * rows + row].
  std::vector<std::vector<double>> drawnLogProbability(groups.size());
  std::vector<std::vector<float>> gradients(groups.size());
  for (unsigned epoch = 0; epoch < options.epochs; ++epoch) {
    std::vector<torch::Tensor> outputs, outputGradients;
    for (size_t g = 0; g < groups.size(); ++g) {
      Group &group = groups[g];
      const int64_t count = int64_t(group.agents.size());
      outputs.push_back(logitsOf(group, rows, count));
      gradients[g].assign(count * group.rowsFor(rows) * group.key.width, 0.0f);
      if (epoch == 0)
        drawnLogProbability[g].assign(count * rows, 0.0);
    }
    for (size_t m = 0; m < members.size(); ++m) {
      if (!learns[m])
        continue;
      const LossTerms terms{options.clip, lessons[m].entropy, epoch == 0};
      for (size_t a : agentsOf[m]) {
        const Agent &agent = agents[a];
        const Group &group = groups[agent.group];
        const int64_t width = group.key.width,
                      start = agent.slot * group.rowsFor(rows) * width;
        const float *logits =
            outputs[agent.group].data_ptr<float>() + start;
        float *gradient = gradients[agent.group].data() + start;
        if (byChoice(agent))
          loss.addChoiceGradient(agent.logits, logits,
                                 gains.data() + choiceStart[a],
                                 losses.data() + choiceStart[a], terms,
                                 drawnByChoice.data() + choiceStart[a],
                                 gradient);
        else
          loss.addRowGradient(
              agent, logits, width, group.key.observationOnly,
              *lessons[m].batch, lessons[m].advantages.data(), terms,
              drawnLogProbability[agent.group].data() + agent.slot * rows,
              gradient);
      }
    }
    for (size_t g = 0; g < groups.size(); ++g)
      outputGradients.push_back(torch::from_blob(
          gradients[g].data(), outputs[g].sizes(), torch::kFloat32));
    torch::autograd::backward(outputs, outputGradients);
    adamStep(learns);
  }
}

bool AgentNetworks::byChoice(const Agent &agent) const {
  return agent.decisions.size() == 1 && groups[agent.group].key.observationOnly;
}

void AgentNetworks::adamStep(const std::vector<bool> &learns) {
  // Per agent: its step size and second-moment correction; 0 when its
  // member does not learn, so its weights and moments stay as they are.
  std::vector<float> stepSize(agents.size(), 0.0f), correction(agents.size());
  std::vector<char> stepping(agents.size(), 0);
  for (size_t a = 0; a < agents.size(); ++a)
    stepping[a] = learns[agents[a].member];
  // A shared agent's copies step together when any of them learns.
  for (const std::vector<size_t> &copies : sharedAgents) {
    const bool any = std::any_of(copies.begin(), copies.end(),
                                 [&](size_t a) { return stepping[a]; });
    for (size_t a : copies)
      stepping[a] = any;
  }
  sumSharedGradients();
  for (size_t a = 0; a < agents.size(); ++a) {
    if (!stepping[a])
      continue;
    const double t = double(++steps[a]);
    stepSize[a] = float(learningRate / (1.0 - std::pow(kBeta1, t)));
    correction[a] = float(1.0 / std::sqrt(1.0 - std::pow(kBeta2, t)));
  }
  for (Leaf &leaf : leaves) {
    torch::Tensor &gradient = leaf.tensor.mutable_grad();
    if (!gradient.defined())
      continue;
    // The gradient holds the leaf's weights only: index it from the leaf.
    const float *g = gradient.data_ptr<float>();
    float *m = firstMoment.data() + leaf.start;
    float *v = secondMoment.data() + leaf.start;
    float *w = weights.data() + leaf.start;
    for (const Span &span : leaf.spans) {
      const float step = stepSize[span.agent], scale = correction[span.agent];
      if (step == 0.0f)
        continue;
      const int64_t begin = span.begin - leaf.start;
      adamRun(g + begin, m + begin, v + begin, w + begin, span.end - span.begin,
              step, scale);
    }
    // The next backward pass writes a fresh gradient instead of adding.
    gradient = torch::Tensor();
  }
}

} // namespace marlmap
