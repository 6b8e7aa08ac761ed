//===- SearcherConfigTest.cpp - Searcher names and options ----------------===//

#include "marlmap/Search/SearcherConfig.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace marlmap;

namespace {

TEST(SearcherConfigTest, AgentsTextSetsTheClustering) {
  PolicyOptions policy;
  std::string error;
  ASSERT_TRUE(parseAgents("per-decision", policy, error));
  EXPECT_EQ(policy.clustering, PolicyOptions::Clustering::PerDecision);
  ASSERT_TRUE(parseAgents("random", policy, error));
  EXPECT_EQ(policy.clustering, PolicyOptions::Clustering::Random);
  ASSERT_TRUE(parseAgents("12", policy, error));
  EXPECT_EQ(policy.clustering, PolicyOptions::Clustering::Automatic);
  EXPECT_EQ(policy.agents, 12u);
  ASSERT_TRUE(parseAgents("auto", policy, error));
  EXPECT_EQ(policy.agents, 0u);
  for (const char *bad : {"0", "-3", "", "many", "4x", "99999999999"}) {
    EXPECT_FALSE(parseAgents(bad, policy, error)) << bad;
    EXPECT_NE(error.find("agents must be"), std::string::npos);
  }
}

TEST(SearcherConfigTest, DescriptionNamesOnlyWhatDiffersFromTheDefaults) {
  SearcherConfig config;
  config.name = "marl";
  EXPECT_EQ(describeSearcher(config), "marl");
  config.policy.agents = 3;
  config.policy.learningRate = 0.01;
  config.policy.hidden = 64;
  config.policy.replay = 0;
  EXPECT_EQ(describeSearcher(config),
            "marl agents=3 policy-lr=0.01 policy-hidden=64 policy-replay=0");
  std::string error;
  ASSERT_TRUE(parsePolicyAdvantage("ranks", config.policy, error));
  ASSERT_TRUE(parsePolicyHead("factorised", config.policy, error));
  config.policy.stall = 500;
  EXPECT_EQ(describeSearcher(config),
            "marl agents=3 policy-lr=0.01 policy-hidden=64 policy-replay=0 "
            "policy-stall=500 policy-advantage=ranks policy-head=factorised");
  EXPECT_FALSE(parsePolicyHead("tree", config.policy, error));
  EXPECT_EQ(error, "policy-head must be joint or factorised, not 'tree'");
  EXPECT_FALSE(parsePolicyAdvantage("raw", config.policy, error));
  EXPECT_EQ(error, "policy-advantage must be utilities or ranks, not 'raw'");
  // Nearby rates must not collide in a cache key.
  SearcherConfig other = config;
  other.policy.learningRate = 0.010000000000000002;
  EXPECT_NE(describeSearcher(config), describeSearcher(other));
}

TEST(SearcherConfigTest, OptionsAreCheckedForTheSearcherTheyAreGivenTo) {
  SearcherConfig config;
  config.name = "annealing";
  EXPECT_EQ(checkSearcherConfig(config), "");
  config.policy.entropy = 0.5;
  EXPECT_NE(checkSearcherConfig(config).find("not annealing"),
            std::string::npos);
  config.name = "marl";
  EXPECT_EQ(checkSearcherConfig(config), "");
  config.policy.entropy = -1;
  EXPECT_NE(checkSearcherConfig(config).find("policy-entropy"),
            std::string::npos);
  config.policy.entropy = 0;
  config.policy.warmup = 0; // Learning from the first sample is allowed.
  config.policy.replay = 0; // So is learning from each batch alone.
  EXPECT_EQ(checkSearcherConfig(config), "");
  config.name = "sarl";
  config.policy.clustering = PolicyOptions::Clustering::Random;
  EXPECT_NE(checkSearcherConfig(config).find("sarl has one agent"),
            std::string::npos);
  config.name = "tabu";
  EXPECT_NE(checkSearcherConfig(config).find("unknown searcher 'tabu'"),
            std::string::npos);
}

TEST(SearcherConfigTest, EveryPolicyOptionHasARange) {
  for (const PolicyRange &range : policyRanges()) {
    SCOPED_TRACE(range.name);
    auto with = [&](double value) {
      SearcherConfig config;
      config.name = "marl";
      range.set(config.policy, value);
      EXPECT_EQ(range.value(config.policy), value);
      return checkSearcherConfig(config);
    };
    EXPECT_EQ(with(range.highest), "");
    if (range.lowest > 0)
      EXPECT_EQ(with(range.lowest), "");
    EXPECT_NE(with(range.highest * 2).find(range.name), std::string::npos);
    if (range.lowest >= 1)
      EXPECT_NE(with(range.lowest - 1).find(range.name), std::string::npos);
  }
  SearcherConfig config;
  config.name = "marl";
  config.policy.entropy = std::nan("");
  EXPECT_EQ(checkSearcherConfig(config),
            "policy-entropy must be between 0 and 100, not nan");
  config.policy.learningRate = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(checkSearcherConfig(config),
            "policy-lr must be positive, not -inf");
}

TEST(SearcherConfigTest, BudgetsAndThreadCountsHaveRanges) {
  EXPECT_EQ(checkBudget(1), "");
  EXPECT_EQ(checkBudget(kMaxBudget), "");
  EXPECT_EQ(checkBudget(0),
            "budget must be between 1 and 1000000000 samples, not 0");
  EXPECT_NE(checkBudget(kMaxBudget + 1), "");
  EXPECT_EQ(checkThreads(0), "");
  EXPECT_EQ(checkThreads(kMaxThreads), "");
  EXPECT_EQ(checkThreads(4294967295),
            "threads must be between 0 (one per core) and 1024, not "
            "4294967295");
}

} // namespace
