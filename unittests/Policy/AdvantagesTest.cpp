//===- AdvantagesTest.cpp - Rewards shaped into advantages by rank --------===//

#include "Advantages.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace marlmap;
using Advantage = PolicyOptions::Advantage;

namespace {

const float kInvalid = -std::numeric_limits<float>::infinity();

void expectCentredUnitSpread(const std::vector<float> &advantages) {
  double sum = std::accumulate(advantages.begin(), advantages.end(), 0.0);
  double squares = 0.0;
  for (float a : advantages)
    squares += double(a) * a;
  EXPECT_NEAR(sum / advantages.size(), 0.0, 1e-5);
  EXPECT_NEAR(std::sqrt(squares / advantages.size()), 1.0, 1e-4);
}

TEST(Advantages, RanksAreLinearInTheRankWhateverTheScale) {
  // Rewards three orders of magnitude apart count as one step each.
  std::vector<float> a =
      shapeAdvantages({-5.0f, 1000.0f, 0.0f, 1.0f}, Advantage::Ranks);
  expectCentredUnitSpread(a);
  EXPECT_NEAR(a[1] - a[3], a[3] - a[2], 1e-5);
  EXPECT_NEAR(a[3] - a[2], a[2] - a[0], 1e-5);
}

TEST(Advantages, UtilitiesPullTheBestUpMostAndTheWorseHalfDownEvenly) {
  // Eight proposals, best first by reward; the last two are invalid.
  std::vector<float> rewards = {8, 7, 6, 5, 4, 3, kInvalid, kInvalid};
  std::vector<float> a = shapeAdvantages(rewards, Advantage::Utilities);
  expectCentredUnitSpread(a);
  // The better half: decreasing, by less at each step (log weights).
  EXPECT_GT(a[0] - a[1], a[1] - a[2]);
  EXPECT_GT(a[1] - a[2], a[2] - a[3]);
  EXPECT_GT(a[3], a[4]);
  // The worse half (rank 5 of 8 on) weighs nothing: one value, below zero.
  for (size_t i = 5; i < rewards.size(); ++i)
    EXPECT_FLOAT_EQ(a[i], a[4]);
  EXPECT_LT(a[4], 0.0f);
  EXPECT_GT(a[0], 0.0f);
}

TEST(Advantages, TiesShareTheMeanWeightOfTheirRanks) {
  for (Advantage shaping : {Advantage::Ranks, Advantage::Utilities}) {
    std::vector<float> a =
        shapeAdvantages({2.0f, 5.0f, 5.0f, 1.0f, 0.0f, -1.0f}, shaping);
    EXPECT_FLOAT_EQ(a[1], a[2]);
    EXPECT_GT(a[1], a[0]);
    EXPECT_GT(a[0], a[3]);
    expectCentredUnitSpread(a);
  }
  // Ranks 2, 1, 0: the tie gets 1.5 each, so 0.5, 0.5, -1 from the mean,
  // over a spread of sqrt(0.5).
  std::vector<float> ranks =
      shapeAdvantages({5.0f, 5.0f, 1.0f}, Advantage::Ranks);
  EXPECT_NEAR(ranks[0], std::sqrt(0.5), 1e-5);
  EXPECT_NEAR(ranks[2], -2.0 * std::sqrt(0.5), 1e-5);
  // All equal: nothing to prefer.
  for (float value : shapeAdvantages({3.0f, 3.0f, 3.0f}, Advantage::Utilities))
    EXPECT_FLOAT_EQ(value, 0.0f);
}

} // namespace
