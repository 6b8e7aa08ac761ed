//===- PolicyLossTest.cpp - The update's hand-differentiated loss ---------===//

#include "PolicyLoss.h"

#include "marlmap/Core/Random.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace marlmap;
using Proposal = PolicyLoss::Proposal;

namespace {

constexpr int64_t kChoices = 5;

/// The clipped surrogate plus entropy bonus of one decision whose logits
/// are `logits`, on `batch` drawn with log-probabilities `drawn`: what
/// the gradients below are the gradient of (negated: a loss).
double lossAt(const std::vector<float> &logits,
              const std::vector<Proposal> &batch,
              const std::vector<float> &advantages,
              const std::vector<float> &drawn, double clip, double bonus) {
  std::vector<float> logP(kChoices), p(kChoices);
  const double entropy =
      softmax(logits.data(), kChoices, logP.data(), p.data());
  double surrogate = 0.0;
  for (size_t i = 0; i < batch.size(); ++i) {
    const int64_t c = batch[i][0];
    const double ratio = std::exp(double(logP[c]) - double(drawn[c]));
    const double a = advantages[i];
    surrogate +=
        std::min(ratio * a, std::clamp(ratio, 1.0 - clip, 1.0 + clip) * a);
  }
  return -(surrogate / double(batch.size()) + bonus * entropy);
}

struct Case {
  std::vector<float> before, after;
  std::vector<Proposal> batch;
  std::vector<float> advantages;
};

/// A batch drawn at `before`, then logits moved far enough that some
/// ratios leave the clip range.
Case randomCase(uint64_t seed) {
  Rng rng(seed);
  Case result;
  for (int64_t c = 0; c < kChoices; ++c) {
    result.before.push_back(float(2.0 * rng.unit() - 1.0));
    result.after.push_back(result.before.back() +
                           float(0.8 * (2.0 * rng.unit() - 1.0)));
  }
  for (int i = 0; i < 24; ++i) {
    result.batch.push_back({int64_t(rng.below(kChoices))});
    result.advantages.push_back(float(2.0 * rng.unit() - 1.0));
  }
  return result;
}

} // namespace

TEST(PolicyLoss, RowAndChoiceFormsGiveTheSameGradient) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Case test = randomCase(seed);
    AgentDecisions agent{{0}, {0}, {kChoices}, kChoices};
    PolicyLoss loss;
    LossTerms terms{0.2, 0.01, /*drawing=*/true};
    std::vector<double> drawnRows(test.batch.size()), drawnChoices(kChoices);
    std::vector<float> ignored(kChoices, 0.0f);
    loss.addRowGradient(agent, test.before.data(), kChoices, /*shared=*/true,
                        test.batch, test.advantages.data(), terms,
                        drawnRows.data(), ignored.data());
    std::vector<double> gains(kChoices, 0.0), losses(kChoices, 0.0);
    sumByChoice(0, test.batch, test.advantages.data(), gains.data(),
                losses.data());
    loss.addChoiceGradient(kChoices, test.before.data(), gains.data(),
                           losses.data(), terms, drawnChoices.data(),
                           ignored.data());
    terms.drawing = false;
    std::vector<float> byRows(kChoices, 0.0f), byChoices(kChoices, 0.0f);
    loss.addRowGradient(agent, test.after.data(), kChoices, true, test.batch,
                        test.advantages.data(), terms, drawnRows.data(),
                        byRows.data());
    loss.addChoiceGradient(kChoices, test.after.data(), gains.data(),
                           losses.data(), terms, drawnChoices.data(),
                           byChoices.data());
    for (int64_t c = 0; c < kChoices; ++c)
      EXPECT_NEAR(byRows[c], byChoices[c], 1e-6) << "seed " << seed;
  }
}

TEST(PolicyLoss, GradientMatchesFiniteDifferences) {
  const double clip = 0.2, bonus = 0.05, step = 1e-3;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Case test = randomCase(seed);
    std::vector<float> drawnLogP(kChoices), p(kChoices);
    softmax(test.before.data(), kChoices, drawnLogP.data(), p.data());
    std::vector<double> gains(kChoices, 0.0), losses(kChoices, 0.0),
        drawn(drawnLogP.begin(), drawnLogP.end());
    sumByChoice(0, test.batch, test.advantages.data(), gains.data(),
                losses.data());
    PolicyLoss loss;
    std::vector<float> gradient(kChoices, 0.0f);
    loss.addChoiceGradient(kChoices, test.after.data(), gains.data(),
                           losses.data(), {clip, bonus, /*drawing=*/false},
                           drawn.data(), gradient.data());
    for (int64_t c = 0; c < kChoices; ++c) {
      std::vector<float> up = test.after, down = test.after;
      up[c] += float(step);
      down[c] -= float(step);
      const double numeric =
          (lossAt(up, test.batch, test.advantages, drawnLogP, clip, bonus) -
           lossAt(down, test.batch, test.advantages, drawnLogP, clip, bonus)) /
          (2 * step);
      // Near a clip boundary the loss has a kink; away from it, close.
      EXPECT_NEAR(gradient[c], numeric, 2e-3) << "seed " << seed << " c " << c;
    }
  }
}
