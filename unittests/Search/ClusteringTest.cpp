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
