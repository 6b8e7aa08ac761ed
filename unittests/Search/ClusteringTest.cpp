//===- ClusteringTest.cpp - Finding interacting decisions -----------------===//

#include "marlmap/Search/Clustering.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace marlmap;

namespace {

/// 12 decisions of 4 values in planted blocks {0,1,2} {3,4,5} {6,7}
/// {8,9,10,11}: the cost adds a random table per block, so values interact
/// within a block and not across blocks.
TEST(Clustering, RecoversPlantedBlocks) {
  const Clusters planted = {{0, 1, 2}, {3, 4, 5}, {6, 7}, {8, 9, 10, 11}};
  Rng rng(1);
  std::vector<std::vector<double>> tables;
  for (const auto &block : planted) {
    std::vector<double> table(size_t(std::pow(4, block.size())));
    for (double &entry : table)
      entry = 3.0 * rng.unit();
    tables.push_back(table);
  }
  std::vector<std::vector<int64_t>> samples;
  std::vector<double> costs;
  for (int s = 0; s < 3000; ++s) {
    std::vector<int64_t> values(12);
    for (int64_t &v : values)
      v = rng.below(4);
    double cost = 0.0;
    for (size_t b = 0; b < planted.size(); ++b) {
      size_t index = 0;
      for (unsigned d : planted[b])
        index = index * 4 + size_t(values[d]);
      cost += tables[b][index];
    }
    samples.push_back(values);
    costs.push_back(std::exp(cost));
  }
  ClusteringOptions options;
  EXPECT_EQ(clusterDecisions(samples, costs, 12, options), planted);
  options.clusters = 4;
  EXPECT_EQ(clusterDecisions(samples, costs, 12, options), planted);
}

TEST(Clustering, IndependentDecisionsStayApart) {
  Rng rng(2);
  std::vector<std::vector<int64_t>> samples;
  std::vector<double> costs;
  for (int s = 0; s < 2000; ++s) {
    std::vector<int64_t> values(6);
    double cost = 0.0;
    for (int64_t &v : values) {
      v = rng.below(5);
      cost += double(v); // additive: no interaction
    }
    samples.push_back(values);
    costs.push_back(cost);
  }
  EXPECT_EQ(clusterDecisions(samples, costs, 6, {}), singletonClusters(6));
}

TEST(Clustering, InteractionSeparatesProductsFromSums) {
  // y = a * b + c: a and b interact, c only adds.
  Rng rng(3);
  std::vector<std::vector<int64_t>> samples;
  std::vector<double> y;
  for (int s = 0; s < 1000; ++s) {
    int64_t a = rng.below(4), b = rng.below(4), c = rng.below(4);
    samples.push_back({a, b, c});
    y.push_back(double(a * b + c) + 0.1 * rng.unit());
  }
  EXPECT_GT(interaction(samples, y, 0, 1), 100.0);
  EXPECT_LT(interaction(samples, y, 0, 2), 4.0);
  EXPECT_LT(interaction(samples, y, 1, 2), 4.0);
}

TEST(Clustering, InvalidSamplesAreIgnoredAndAblationsCoverEveryDecision) {
  std::vector<std::vector<int64_t>> samples = {{0, 1}, {1, 0}};
  std::vector<double> costs = {INFINITY, INFINITY};
  EXPECT_EQ(clusterDecisions(samples, costs, 2, {}), singletonClusters(2));
  Rng rng(4);
  Clusters random = randomClusters(10, 3, rng);
  ASSERT_EQ(random.size(), 3u);
  std::vector<unsigned> all;
  for (const auto &cluster : random)
    all.insert(all.end(), cluster.begin(), cluster.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all.size(), 10u);
  EXPECT_EQ(all.front(), 0u);
  EXPECT_EQ(all.back(), 9u);
}

} // namespace

namespace {

/// Eight decisions of 4 values: the log cost is a sum of each decision's
/// value times its weight, with weights in two tiers (1 for the first four,
/// 0.05 for the rest) plus noise.
TEST(CorrelationClustering, DecisionsAlikeInEffectShareAnAgent) {
  Rng rng(3);
  std::vector<std::vector<int64_t>> samples;
  std::vector<double> costs;
  for (int s = 0; s < 400; ++s) {
    std::vector<int64_t> values(8);
    double logCost = 0.0;
    for (unsigned d = 0; d < 8; ++d) {
      values[d] = rng.below(4);
      logCost += (d < 4 ? 1.0 : 0.05) * double(values[d]);
    }
    samples.push_back(values);
    costs.push_back(std::exp(logCost + 0.1 * rng.unit()));
  }
  // The strong four explain about half the spread each; the weak four
  // almost none.
  std::vector<double> y;
  for (double cost : costs)
    y.push_back(std::log(cost));
  EXPECT_GT(correlationRatio(samples, y, 0), 0.4);
  EXPECT_LT(correlationRatio(samples, y, 7), 0.1);
  EXPECT_EQ(correlationClusters(samples, costs, 8, 0),
            (Clusters{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  // A forced count splits at the widest gap first.
  EXPECT_EQ(correlationClusters(samples, costs, 8, 2),
            (Clusters{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(correlationClusters(samples, costs, 8, 8).size(), 8u);
}

TEST(CorrelationClustering, AMostlyInvalidWarmUpStillTellsWhatMakesAMappingFit) {
  // Decision 0 decides whether a sample is valid (value 0: one in four
  // samples); decisions 1 and 2 do nothing.
  Rng rng(5);
  std::vector<std::vector<int64_t>> samples;
  std::vector<double> costs;
  for (int s = 0; s < 64; ++s) {
    samples.push_back({rng.below(4), rng.below(4), rng.below(4)});
    costs.push_back(samples.back()[0] == 0 ? 1.0 + rng.unit() : INFINITY);
  }
  EXPECT_EQ(correlationClusters(samples, costs, 3, 0),
            (Clusters{{0}, {1, 2}}));
  // Nothing valid, or too few samples: nothing to tell apart.
  std::vector<double> invalid(64, INFINITY);
  EXPECT_EQ(correlationClusters(samples, invalid, 3, 0), singletonClusters(3));
  samples.resize(kMinCorrelationSamples - 1);
  costs.resize(samples.size());
  EXPECT_EQ(correlationClusters(samples, costs, 3, 0), singletonClusters(3));
}

} // namespace
