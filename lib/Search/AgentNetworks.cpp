//===- AgentNetworks.cpp - Every agent's policy, batched ------------------===//
//
// The autoregressive masks follow MADE (Germain et al., 2015): the input of
// an agent's j-th decision has degree j + 1 (the observation degree 0), each
// hidden unit a degree in [0, m) for an agent of m decisions, and a weight is
// kept only from lower-or-equal to higher-or-equal degree; the j-th
// decision's logits see only hidden units of degree <= j. So one forward pass
// scores a whole proposal, and sampling takes one pass per position.
//
//===----------------------------------------------------------------------===//

#include "AgentNetworks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

namespace {

torch::Tensor tensorOf(const std::vector<int64_t> &values) {
  return torch::from_blob(const_cast<int64_t *>(values.data()),
                          {int64_t(values.size())}, torch::kInt64)
      .clone();
}

torch::Tensor tensorOf(std::vector<float> &values, torch::IntArrayRef sizes) {
  return torch::from_blob(values.data(), sizes, torch::kFloat32).clone();
}

/// Uniform in +-1/sqrt(fanIn), from marlmap's Rng so a seed fixes them.
torch::Tensor initialWeights(torch::IntArrayRef sizes, int64_t fanIn,
                             Rng &rng) {
  double bound = 1.0 / std::sqrt(double(std::max<int64_t>(fanIn, 1)));
  int64_t count = 1;
  for (int64_t size : sizes)
    count *= size;
  std::vector<float> values(count);
  for (float &v : values)
    v = float((2.0 * rng.unit() - 1.0) * bound);
  return tensorOf(values, sizes).requires_grad_(true);
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

AgentNetworks::AgentNetworks(Clusters clustersIn,
                             const std::vector<Decision> &all, unsigned hidden,
                             double learningRate, bool autoregressive, Rng &rng)
    : given(std::move(clustersIn)), clusters(given) {
  std::stable_sort(
      clusters.begin(), clusters.end(),
      [](const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
        return a.size() > b.size();
      });
  const int64_t numAgents = int64_t(clusters.size());
  const int64_t h = hidden;
  std::vector<int64_t> logitsOf(numAgents, 0), segmentIndex;
  std::vector<int64_t> positions;
  for (int64_t a = 0; a < numAgents; ++a)
    for (size_t j = 0; j < clusters[a].size(); ++j) {
      unsigned d = clusters[a][j];
      if (segmentsAt.size() <= j)
        segmentsAt.resize(j + 1);
      segmentsAt[j].push_back(segments.size());
      segments.push_back({d, int64_t(segmentIndex.size()), all[d].choices,
                          unsigned(a), logitsOf[a]});
      for (int64_t c = 0; c < all[d].choices; ++c)
        segmentIndex.push_back(int64_t(segments.size() - 1));
      logitsOf[a] += all[d].choices;
    }
  widest =
      std::max<int64_t>(1, *std::max_element(logitsOf.begin(), logitsOf.end()));
  const int64_t width = kObservation + widest;
  // Groups: a new one starts where every later agent fits in half the
  // current group's width.
  std::vector<int64_t> widestFrom(numAgents + 1, 0);
  for (int64_t a = numAgents - 1; a >= 0; --a)
    widestFrom[a] =
        std::max(widestFrom[a + 1], std::max<int64_t>(1, logitsOf[a]));
  int64_t flatBase = 0;
  for (int64_t a = 0; a < numAgents; ++a) {
    if (groups.empty() || 2 * widestFrom[a] <= groups.back().width) {
      if (!groups.empty())
        flatBase += groups.back().count * groups.back().width;
      groups.push_back({a, 0, widestFrom[a], flatBase});
    }
    ++groups.back().count;
    groupOf.push_back(groups.size() - 1);
  }
  for (const Segment &segment : segments) {
    const Group &group = groups[groupOf[segment.agent]];
    for (int64_t c = 0; c < segment.choices; ++c)
      positions.push_back(group.flatBase +
                          (segment.agent - group.first) * group.width +
                          segment.agentOffset + c);
  }
  flatPositions = tensorOf(positions);
  segmentOfLogit = tensorOf(segmentIndex);
  std::vector<float> owner(segments.size() * numAgents, 0.0f);
  for (size_t k = 0; k < segments.size(); ++k)
    owner[k * numAgents + segments[k].agent] = 1.0f;
  ownership = tensorOf(owner, {int64_t(segments.size()), numAgents});

  // A factorised agent gives every hidden unit degree 0: no decision's
  // value reaches a hidden unit, so every decision sees only the
  // observation.
  auto degreesOf = [&](int64_t a) {
    return autoregressive ? int64_t(clusters[a].size()) : int64_t(1);
  };
  std::vector<float> in(numAgents * width * h, 0.0f),
      between(numAgents * h * h, 0.0f), out(numAgents * h * widest, 0.0f);
  for (int64_t a = 0; a < numAgents; ++a) {
    const int64_t m = degreesOf(a);
    for (int64_t k = 0; k < h; ++k)
      for (int64_t i = 0; i < kObservation; ++i)
        in[(a * width + i) * h + k] = 1.0f;
    for (int64_t k = 0; k < h; ++k)
      for (int64_t l = 0; l < h; ++l)
        if (degree(l, h, m) >= degree(k, h, m))
          between[(a * h + k) * h + l] = 1.0f;
  }
  for (const std::vector<size_t> &atPosition : segmentsAt)
    for (size_t k : atPosition) {
      const Segment &segment = segments[k];
      const int64_t a = segment.agent, m = degreesOf(a);
      const int64_t j = int64_t(&atPosition - segmentsAt.data());
      for (int64_t c = 0; c < segment.choices; ++c) {
        const int64_t logit = segment.agentOffset + c;
        for (int64_t u = 0; u < h; ++u) {
          if (degree(u, h, m) >= j + 1)
            in[(a * width + kObservation + logit) * h + u] = 1.0f;
          if (degree(u, h, m) <= j)
            out[(a * h + u) * widest + logit] = 1.0f;
        }
      }
    }
  mask1 = tensorOf(in, {numAgents, width, h});
  mask2 = tensorOf(between, {numAgents, h, h});
  mask3 = tensorOf(out, {numAgents, h, widest});

  w1 = initialWeights({numAgents, width, h}, width, rng);
  b1 = initialWeights({numAgents, 1, h}, width, rng);
  w2 = initialWeights({numAgents, h, h}, h, rng);
  b2 = initialWeights({numAgents, 1, h}, h, rng);
  // A zero head: the first policy is uniform, as random search is.
  w3 = torch::zeros({numAgents, h, widest}).requires_grad_(true);
  b3 = torch::zeros({numAgents, 1, widest}).requires_grad_(true);
  optimizer = std::make_unique<torch::optim::Adam>(
      std::vector<torch::Tensor>{w1, b1, w2, b2, w3, b3},
      torch::optim::AdamOptions(learningRate));
}

torch::Tensor AgentNetworks::inputs(float progress,
                                    const std::vector<Vector> &batch,
                                    std::vector<float> &buffer) const {
  const int64_t numAgents = int64_t(clusters.size()), n = int64_t(batch.size());
  const int64_t width = kObservation + widest;
  buffer.assign(numAgents * n * width, 0.0f);
  for (int64_t a = 0; a < numAgents; ++a)
    for (int64_t i = 0; i < n; ++i) {
      buffer[(a * n + i) * width] = 1.0f;
      buffer[(a * n + i) * width + 1] = progress;
    }
  for (const Segment &segment : segments)
    for (int64_t i = 0; i < n; ++i) {
      int64_t value = batch[i][segment.decision];
      if (value >= 0)
        buffer[(segment.agent * n + i) * width + kObservation +
               segment.agentOffset + value] = 1.0f;
    }
  return torch::from_blob(buffer.data(), {numAgents, n, width},
                          torch::kFloat32);
}

AgentNetworks::Masked AgentNetworks::masked() const {
  return {w1 * mask1, w2 * mask2, w3 * mask3};
}

torch::Tensor AgentNetworks::groupLogits(const torch::Tensor &input,
                                         const Group &group, int64_t count,
                                         const Masked &weights) const {
  auto part = [&](const torch::Tensor &t) {
    return t.narrow(0, group.first, count);
  };
  const int64_t in = kObservation + group.width;
  torch::Tensor h =
      torch::tanh(torch::baddbmm(part(b1), part(input).narrow(2, 0, in),
                                 part(weights.w1).narrow(1, 0, in)));
  h = torch::tanh(torch::baddbmm(part(b2), h, part(weights.w2)));
  return torch::baddbmm(part(b3).narrow(2, 0, group.width), h,
                        part(weights.w3).narrow(2, 0, group.width));
}

torch::Tensor AgentNetworks::logProbabilities(const torch::Tensor &input,
                                              const Masked &weights) const {
  const int64_t n = input.size(1), logits = flatPositions.size(0);
  const int64_t numSegments = int64_t(segments.size());
  std::vector<torch::Tensor> parts;
  for (const Group &group : groups)
    parts.push_back(groupLogits(input, group, group.count, weights)
                        .transpose(0, 1)
                        .reshape({n, -1}));
  torch::Tensor flat =
      torch::cat(parts, 1).index_select(1, flatPositions); // [n, logits]
  // Softmax within each decision: subtract the decision's largest logit
  // (a constant for the gradient), then its log-sum-exp.
  torch::Tensor index = segmentOfLogit.unsqueeze(0).expand({n, logits});
  torch::Tensor values = flat.detach().contiguous();
  auto v = values.accessor<float, 2>();
  std::vector<float> maxima(n * numSegments);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < numSegments; ++k) {
      const Segment &segment = segments[k];
      float largest = v[i][segment.start];
      for (int64_t c = 1; c < segment.choices; ++c)
        largest = std::max(largest, v[i][segment.start + c]);
      maxima[i * numSegments + k] = largest;
    }
  torch::Tensor largest = tensorOf(maxima, {n, numSegments});
  torch::Tensor shifted = flat - largest.gather(1, index);
  torch::Tensor sums =
      torch::zeros({n, numSegments}).scatter_add(1, index, torch::exp(shifted));
  return shifted - torch::log(sums).gather(1, index);
}

void AgentNetworks::sample(float progress, Rng &rng,
                           std::vector<Vector> &batch) {
  torch::NoGradGuard noGrad;
  const int64_t n = int64_t(batch.size()), width = kObservation + widest;
  for (Vector &proposal : batch)
    std::fill(proposal.begin(), proposal.end(), -1);
  std::vector<float> buffer;
  torch::Tensor input = inputs(progress, batch, buffer);
  // Position by position: what an agent draws at j is input for j + 1;
  // only agents with a decision at j run.
  const Masked weights = masked();
  std::vector<torch::Tensor> outs(groups.size());
  std::vector<double> probabilities;
  for (const std::vector<size_t> &atPosition : segmentsAt) {
    const int64_t active = int64_t(segments[atPosition.back()].agent) + 1;
    for (const Group &group : groups)
      if (group.first < active)
        outs[&group - groups.data()] =
            groupLogits(input, group,
                        std::min(group.count, active - group.first), weights)
                .contiguous();
    for (size_t k : atPosition) {
      const Segment &segment = segments[k];
      const Group &group = groups[groupOf[segment.agent]];
      const float *rows = outs[groupOf[segment.agent]].data_ptr<float>() +
                          (segment.agent - group.first) * n * group.width +
                          segment.agentOffset;
      probabilities.resize(segment.choices);
      for (int64_t i = 0; i < n; ++i) {
        const float *logit = rows + i * group.width;
        // A softmax draw over this decision's logits.
        const float largest = *std::max_element(logit, logit + segment.choices);
        double total = 0.0;
        for (int64_t c = 0; c < segment.choices; ++c)
          total += probabilities[c] = std::exp(double(logit[c] - largest));
        double u = rng.unit() * total, acc = 0.0;
        int64_t choice = segment.choices - 1;
        for (int64_t c = 0; c < segment.choices; ++c) {
          acc += probabilities[c];
          if (u < acc) {
            choice = c;
            break;
          }
        }
        batch[i][segment.decision] = choice;
        buffer[(segment.agent * n + i) * width + kObservation +
               segment.agentOffset + choice] = 1.0f;
      }
    }
  }
}

std::vector<double>
AgentNetworks::decisionLogProbabilities(float progress,
                                        const Vector &proposal) const {
  torch::NoGradGuard noGrad;
  std::vector<float> buffer;
  torch::Tensor logProb =
      logProbabilities(inputs(progress, {proposal}, buffer), masked())
          .contiguous();
  auto l = logProb.accessor<float, 2>();
  std::vector<double> result(proposal.size(), 0.0);
  for (const Segment &segment : segments)
    result[segment.decision] = l[0][segment.start + proposal[segment.decision]];
  return result;
}

void AgentNetworks::learn(float progress, const std::vector<Vector> &batch,
                          std::vector<float> advantages,
                          const PolicyOptions &options) {
  const int64_t n = int64_t(batch.size()), k = int64_t(segments.size());
  std::vector<int64_t> picks;
  picks.reserve(n * k);
  for (const Vector &proposal : batch)
    for (const Segment &segment : segments)
      picks.push_back(segment.start + proposal[segment.decision]);
  torch::Tensor chosen = tensorOf(picks).view({n, k});
  std::vector<float> buffer;
  torch::Tensor input = inputs(progress, batch, buffer);
  torch::Tensor weight = tensorOf(advantages, {n, 1});
  torch::Tensor oldLogProb;
  for (unsigned epoch = 0; epoch < options.epochs; ++epoch) {
    torch::Tensor logProb = logProbabilities(input, masked());
    torch::Tensor perAgent =
        logProb.gather(1, chosen).matmul(ownership); // [n, agents]
    // The weights have not moved since the batch was drawn: the first
    // epoch's probabilities are the sampling ones.
    if (epoch == 0)
      oldLogProb = perAgent.detach();
    torch::Tensor ratio = torch::exp(perAgent - oldLogProb);
    torch::Tensor clipped =
        torch::clamp(ratio, 1.0 - options.clip, 1.0 + options.clip);
    torch::Tensor surrogate =
        torch::min(ratio * weight, clipped * weight).mean(0).sum();
    torch::Tensor entropy = -(torch::exp(logProb) * logProb).sum(1).mean();
    torch::Tensor loss = -surrogate - options.entropy * entropy;
    optimizer->zero_grad();
    loss.backward();
    optimizer->step();
  }
}

} // namespace marlmap
