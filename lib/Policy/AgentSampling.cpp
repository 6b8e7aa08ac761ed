//===- AgentSampling.cpp - Agents' decisions, drawn and scored ------------===//
//
// The forward passes of AgentNetworks: each agent's inputs, its logits, the
// decisions drawn from them (one pass per position, the masks making each
// decision see only those before it) and their log-probabilities.
//
//===----------------------------------------------------------------------===//

#include "AgentNetworks.h"
#include "PolicyLoss.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace marlmap {
namespace {

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

} // namespace

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

/// The first `count` agents of a stacked tensor (the tensor itself when
/// that is all of them).
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
                                        const torch::Tensor &first,
                                        Activations *keep) {
  const int64_t count = first.size(0);
  auto part = [&](const torch::Tensor &t) { return firstAgents(t, count); };
  torch::Tensor hidden1 = torch::tanh(first);
  torch::Tensor hidden2 =
      torch::tanh(affine(part(group.b2), hidden1, part(group.w2)));
  torch::Tensor logits = affine(part(group.b3), hidden2, part(group.w3));
  if (keep) {
    keep->hidden1 = std::move(hidden1);
    keep->hidden2 = std::move(hidden2);
    keep->logits = logits;
  }
  return logits;
}

torch::Tensor AgentNetworks::logitsOf(Group &group, int64_t rows,
                                      int64_t count) {
  return logitsFrom(group, firstLayer(group, rows, count));
}

AgentNetworks::Activations AgentNetworks::activationsOf(Group &group,
                                                        int64_t rows) {
  const int64_t count = int64_t(group.agents.size());
  Activations forward;
  forward.input = inputOf(group, rows, count);
  logitsFrom(group, firstLayer(group, rows, count), &forward);
  return forward;
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
          const float *weight =
              group.w1.data_ptr<float>() +
              (agent.slot * group.inputWidth() + group.observation +
               agent.offsets[j] + choice) *
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

} // namespace marlmap
