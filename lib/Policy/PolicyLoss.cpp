//===- PolicyLoss.cpp - The update's loss, differentiated by hand ---------===//
//
// Per decision, d(-entropy bonus)/d(logit) = bonus * p (log p + H), H the
// decision's entropy; d(log p(chosen))/d(logit) = [chosen] - p. The clipped
// ratio passes no gradient once it leaves [1 - clip, 1 + clip] in its
// advantage's direction.
//
//===----------------------------------------------------------------------===//

#include "PolicyLoss.h"

#include <algorithm>
#include <cmath>

namespace marlmap {

float softmax(const float *logits, int64_t choices, float *logProbabilities,
              float *probabilities) {
  const float largest = *std::max_element(logits, logits + choices);
  float total = 0.0f;
  for (int64_t c = 0; c < choices; ++c)
    total += probabilities[c] = std::exp(logits[c] - largest);
  const float logTotal = std::log(total);
  float entropy = 0.0f;
  for (int64_t c = 0; c < choices; ++c) {
    logProbabilities[c] = logits[c] - largest - logTotal;
    probabilities[c] /= total;
    entropy -= probabilities[c] * logProbabilities[c];
  }
  return entropy;
}

namespace {

/// d(-surrogate)/d(log-probability) of proposals of advantage `weight`
/// whose probability moved by `ratio` since they were drawn.
double pullOf(double weight, double ratio, double clip) {
  const bool unclipped =
      weight >= 0 ? ratio <= 1.0 + clip : ratio >= 1.0 - clip;
  return unclipped ? weight * ratio : 0.0;
}

} // namespace

void PolicyLoss::addRowGradient(const AgentDecisions &agent,
                                const float *logits, int64_t width, bool shared,
                                const std::vector<Proposal> &batch,
                                const float *advantages, const LossTerms &terms,
                                double *drawn, float *gradient) {
  const double n = double(batch.size());
  logP.resize(agent.logits);
  p.resize(agent.logits);
  entropy.resize(agent.decisions.size());
  auto score = [&](const float *z) {
    for (size_t j = 0; j < agent.decisions.size(); ++j)
      entropy[j] =
          softmax(z + agent.offsets[j], agent.choices[j],
                  logP.data() + agent.offsets[j], p.data() + agent.offsets[j]);
  };
  auto addEntropyAndPull = [&](float *row, double bonus, double pull) {
    for (size_t j = 0; j < agent.decisions.size(); ++j)
      for (int64_t c = agent.offsets[j];
           c < agent.offsets[j] + agent.choices[j]; ++c)
        row[c] += float(pull * p[c] + bonus * p[c] * (logP[c] + entropy[j]));
  };
  // A shared row scores every proposal: its softmax once, its gradient the
  // sum over the proposals.
  if (shared)
    score(logits);
  double pullSum = 0.0;
  for (int64_t i = 0; i < int64_t(batch.size()); ++i) {
    if (!shared)
      score(logits + i * width);
    double joint = 0.0;
    for (size_t j = 0; j < agent.decisions.size(); ++j)
      joint += logP[agent.offsets[j] + batch[i][agent.decisions[j]]];
    if (terms.drawing)
      drawn[i] = joint;
    const double pull =
        pullOf(advantages[i] / n, std::exp(joint - drawn[i]), terms.clip);
    float *row = shared ? gradient : gradient + i * width;
    for (size_t j = 0; j < agent.decisions.size(); ++j)
      row[agent.offsets[j] + batch[i][agent.decisions[j]]] -= float(pull);
    if (shared)
      pullSum += pull;
    else
      addEntropyAndPull(row, terms.entropyBonus / n, pull);
  }
  if (shared)
    addEntropyAndPull(gradient, terms.entropyBonus, pullSum);
}

void PolicyLoss::addChoiceGradient(int64_t choices, const float *logits,
                                   const double *gains, const double *losses,
                                   const LossTerms &terms, double *drawn,
                                   float *gradient) {
  logP.resize(choices);
  p.resize(choices);
  const double h = softmax(logits, choices, logP.data(), p.data());
  double pullSum = 0.0;
  for (int64_t c = 0; c < choices; ++c) {
    if (terms.drawing)
      drawn[c] = logP[c];
    // Every proposal that chose c at once: its gains and losses clip apart.
    const double ratio = std::exp(double(logP[c]) - drawn[c]);
    const double pull = pullOf(gains[c], ratio, terms.clip) +
                        pullOf(losses[c], ratio, terms.clip);
    gradient[c] -= float(pull);
    pullSum += pull;
  }
  for (int64_t c = 0; c < choices; ++c)
    gradient[c] +=
        float(pullSum * p[c] + terms.entropyBonus * p[c] * (logP[c] + h));
}

void sumByChoice(unsigned decision,
                 const std::vector<PolicyLoss::Proposal> &batch,
                 const float *advantages, double *gains, double *losses) {
  const double n = double(batch.size());
  for (size_t i = 0; i < batch.size(); ++i) {
    const double weight = advantages[i] / n;
    (weight >= 0 ? gains : losses)[batch[i][decision]] += weight;
  }
}

} // namespace marlmap
