//===- AgentLearning.cpp - Agents' policy-gradient steps ------------------===//
//
// The learning half of AgentNetworks: a batch's loss through the networks,
// its gradient on the logits computed outside LibTorch (PolicyLoss.h), and
// Adam, one pass over the weights.
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

/// The gradients of affine(bias, x, w) (AgentSampling.cpp: a batched
/// multiply, or with one row a broadcast product summed) given its
/// output's, `d`: with respect to w, to x, and to the bias (broadcast over
/// the rows).
torch::Tensor weightGradient(const torch::Tensor &x, const torch::Tensor &d) {
  if (x.size(1) != 1)
    return torch::bmm(x.transpose(1, 2), d);
  return x.transpose(1, 2) * d;
}
torch::Tensor inputGradient(const torch::Tensor &d, const torch::Tensor &w) {
  if (d.size(1) != 1)
    return torch::bmm(d, w.transpose(1, 2));
  return (d * w).sum(2, /*keepdim=*/true).transpose(1, 2);
}
torch::Tensor biasGradient(const torch::Tensor &d) {
  return d.size(1) != 1 ? d.sum(1, /*keepdim=*/true) : d;
}

} // namespace

void AgentNetworks::setGradients(Group &group, const Activations &forward,
                                 const torch::Tensor &logitGradient) {
  // Adam reads each gradient laid out as its weights: contiguous.
  auto set = [](torch::Tensor &weights, const torch::Tensor &gradient) {
    weights.mutable_grad() = gradient.contiguous();
  };
  const torch::Tensor &d3 = logitGradient;
  set(group.w3, weightGradient(forward.hidden2, d3));
  set(group.b3, biasGradient(d3));
  const torch::Tensor d2 =
      torch::tanh_backward(inputGradient(d3, group.w3), forward.hidden2);
  set(group.w2, weightGradient(forward.hidden1, d2));
  set(group.b2, biasGradient(d2));
  const torch::Tensor d1 =
      torch::tanh_backward(inputGradient(d2, group.w2), forward.hidden1);
  set(group.w1, weightGradient(forward.input, d1));
  set(group.b1, biasGradient(d1));
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
  // The gradients are set by hand (setGradients): no graph to record.
  torch::NoGradGuard noGrad;
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
    std::vector<Activations> forward;
    for (size_t g = 0; g < groups.size(); ++g) {
      Group &group = groups[g];
      const int64_t count = int64_t(group.agents.size());
      forward.push_back(activationsOf(group, rows));
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
            forward[agent.group].logits.data_ptr<float>() + start;
        float *gradient = gradients[agent.group].data() + start;
        if (byChoice(agent))
          loss.addChoiceGradient(
              agent.logits, logits, gains.data() + choiceStart[a],
              losses.data() + choiceStart[a], terms,
              drawnByChoice.data() + choiceStart[a], gradient);
        else
          loss.addRowGradient(
              agent, logits, width, group.key.observationOnly,
              *lessons[m].batch, lessons[m].advantages.data(), terms,
              drawnLogProbability[agent.group].data() + agent.slot * rows,
              gradient);
      }
    }
    for (size_t g = 0; g < groups.size(); ++g)
      setGradients(groups[g], forward[g],
                   torch::from_blob(gradients[g].data(),
                                    forward[g].logits.sizes(),
                                    torch::kFloat32));
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
    // Spent: the next update sets a fresh one (setGradients).
    gradient = torch::Tensor();
  }
}

} // namespace marlmap
