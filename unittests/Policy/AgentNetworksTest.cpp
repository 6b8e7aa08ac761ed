//===- AgentNetworksTest.cpp - The agents' autoregressive policies --------===//

#include "AgentNetworks.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>

using namespace marlmap;
using Vector = AgentNetworks::Vector;

namespace {

std::vector<Decision> decisionsWith(std::vector<int64_t> choices) {
  std::vector<Decision> decisions;
  for (size_t d = 0; d < choices.size(); ++d)
    decisions.push_back({"d" + std::to_string(d), choices[d], unsigned(d)});
  return decisions;
}

/// `values` less their mean.
std::vector<float> advantagesOf(std::vector<float> values) {
  float mean = 0.0f;
  for (float v : values)
    mean += v / float(values.size());
  for (float &v : values)
    v -= mean;
  return values;
}

/// Updates on drawn proposals with made-up advantages, so that no weight is
/// left at its initial value (the output layer starts at zero).
void perturb(AgentNetworks &agents, size_t numDecisions, Rng &rng) {
  PolicyOptions options;
  for (int round = 0; round < 6; ++round) {
    std::vector<Vector> batch(16, Vector(numDecisions));
    agents.sample(0.5f, rng, batch);
    std::vector<float> advantages;
    for (size_t i = 0; i < batch.size(); ++i)
      advantages.push_back(float(rng.unit()));
    agents.learn(0.5f, batch, advantagesOf(advantages), options);
  }
}

} // namespace

TEST(AgentNetworks, ADecisionSeesOnlyItsAgentsEarlierDecisions) {
  // Agent 0 draws decisions 0, 2, 3 in that order; agent 1 draws 1.
  std::vector<Decision> decisions = decisionsWith({3, 4, 3, 5});
  Rng rng(7);
  AgentNetworks agents({{0, 2, 3}, {1}}, decisions, 16, 0.05,
                       /*autoregressive=*/true, rng);
  perturb(agents, decisions.size(), rng);

  const Vector base = {1, 2, 0, 3};
  auto at = [&](Vector proposal) {
    return agents.decisionLogProbabilities(0.5f, proposal);
  };
  const std::vector<double> reference = at(base);
  auto changed = [&](const std::vector<double> &other, unsigned d) {
    return std::abs(other[d] - reference[d]) > 1e-6;
  };

  // The last decision of agent 0 and the whole of agent 1 feed nothing.
  std::vector<double> lastChanged = at({1, 2, 0, 4});
  EXPECT_FALSE(changed(lastChanged, 0));
  EXPECT_FALSE(changed(lastChanged, 2));
  std::vector<double> otherAgentChanged = at({1, 0, 0, 3});
  for (unsigned d : {0u, 2u, 3u})
    EXPECT_FALSE(changed(otherAgentChanged, d)) << "decision " << d;

  // An earlier decision of the same agent conditions the later ones.
  std::vector<double> firstChanged = at({2, 2, 0, 3});
  EXPECT_TRUE(changed(firstChanged, 2));
  EXPECT_TRUE(changed(firstChanged, 3));
  std::vector<double> middleChanged = at({1, 2, 2, 3});
  EXPECT_FALSE(changed(middleChanged, 0));
  EXPECT_TRUE(changed(middleChanged, 3));

  // Each decision's probabilities sum to one, whatever came before.
  double total = 0.0;
  for (int64_t c = 0; c < 3; ++c)
    total += std::exp(at({1, 2, c, 3})[2]);
  EXPECT_NEAR(total, 1.0, 1e-5);
}

TEST(AgentNetworks, DrawsFollowTheJointDistribution) {
  // A three-decision agent and two single ones, narrow enough to run in a
  // group of their own: drawing goes position by position, the single
  // agents only at the first.
  std::vector<Decision> decisions = decisionsWith({2, 3, 2, 2, 2});
  Rng rng(11);
  AgentNetworks agents({{3}, {0, 1, 2}, {4}}, decisions, 8, 0.2,
                       /*autoregressive=*/true, rng);
  perturb(agents, decisions.size(), rng);

  std::map<Vector, int> counts;
  const int draws = 40000;
  std::vector<Vector> batch(draws, Vector(decisions.size()));
  agents.sample(0.5f, rng, batch);
  for (const Vector &proposal : batch)
    ++counts[proposal];
  double total = 0.0;
  for (int64_t index = 0; index < 48; ++index) {
    const Vector proposal = {index % 2, index / 2 % 3, index / 6 % 2,
                             index / 12 % 2, index / 24 % 2};
    double logJoint = 0.0;
    for (double logProb : agents.decisionLogProbabilities(0.5f, proposal))
      logJoint += logProb;
    const double expected = std::exp(logJoint);
    total += expected;
    EXPECT_NEAR(counts[proposal] / double(draws), expected, 0.01)
        << "proposal " << index;
  }
  EXPECT_NEAR(total, 1.0, 1e-5);
}

TEST(AgentNetworks, AnAgentLearnsWhichValuesGoTogether) {
  // Reward: both decisions equal. Only their pairing matters, so an agent
  // that owns both must learn the dependence, not a favourite value.
  std::vector<Decision> decisions = decisionsWith({3, 3});
  Rng rng(3);
  AgentNetworks agents({{0, 1}}, decisions, 16, 0.03, /*autoregressive=*/true,
                       rng);
  PolicyOptions options;
  auto equalShare = [&](std::vector<Vector> &batch) {
    int equal = 0;
    for (const Vector &proposal : batch)
      equal += proposal[0] == proposal[1];
    return equal / double(batch.size());
  };
  std::vector<Vector> batch(64, Vector(2));
  agents.sample(0.0f, rng, batch);
  EXPECT_LT(equalShare(batch), 0.6);
  for (int round = 0; round < 40; ++round) {
    agents.sample(0.0f, rng, batch);
    std::vector<float> rewards;
    for (const Vector &proposal : batch)
      rewards.push_back(proposal[0] == proposal[1] ? 1.0f : 0.0f);
    agents.learn(0.0f, batch, advantagesOf(rewards), options);
  }
  std::vector<Vector> last(2000, Vector(2));
  agents.sample(0.0f, rng, last);
  EXPECT_GT(equalShare(last), 0.9);
}

namespace {

/// Each member's distribution of every decision, observed at `progress`.
std::vector<AgentNetworks::Conditionals>
distributionsOf(AgentNetworks &agents, size_t members, size_t decisions) {
  const std::vector<Vector> proposal(1, Vector(decisions, 0));
  std::vector<AgentNetworks::Conditionals> found(members);
  std::vector<AgentNetworks::Lookup> lookups;
  for (size_t m = 0; m < members; ++m)
    lookups.push_back({0.5f, &proposal, &found[m]});
  agents.conditionals(lookups, 1);
  return found;
}

/// Two members with the same decisions, of one share class or none, with
/// the given features; only the second learns, from made-up rewards.
std::vector<AgentNetworks::Conditionals>
afterTheSecondLearns(int shareClass, std::vector<float> first,
                     std::vector<float> second, bool secondLearns = true) {
  std::vector<Decision> decisions = decisionsWith({3, 4});
  Rng rng0(1), rng1(2), draw(3);
  std::vector<AgentNetworks::Member> members = {
      {{{0}, {1}}, decisions, 8, &rng0, std::move(first), shareClass},
      {{{0}, {1}}, decisions, 8, &rng1, std::move(second), shareClass}};
  AgentNetworks agents(std::move(members), 0.05, /*autoregressive=*/true);
  PolicyOptions options;
  std::vector<Vector> batch(16, Vector(2));
  for (int round = 0; round < 4; ++round) {
    std::vector<AgentNetworks::Draw> draws = {{0.5f, &draw, &batch},
                                              {0.5f, &draw, nullptr}};
    agents.sample(draws);
    std::vector<float> rewards;
    for (const Vector &proposal : batch)
      rewards.push_back(proposal[0] == 2 ? 1.0f : 0.0f);
    std::vector<AgentNetworks::Lesson> lessons(2);
    AgentNetworks::Lesson &lesson = lessons[secondLearns ? 1 : 0];
    lesson.progress = 0.5f;
    lesson.batch = &batch;
    lesson.advantages = advantagesOf(rewards);
    agents.learn(lessons, 16, options);
  }
  return distributionsOf(agents, 2, decisions.size());
}

bool uniform(const std::vector<float> &distribution) {
  for (float p : distribution)
    if (std::abs(p - 1.0f / float(distribution.size())) > 1e-6f)
      return false;
  return true;
}

} // namespace

TEST(AgentNetworks, MembersOfOneShareClassLearnFromEachOthersLessons) {
  // Apart, the first member's agents do not move (the output layer starts
  // at zero: uniform); shared, they learn what the second was taught.
  std::vector<AgentNetworks::Conditionals> apart =
      afterTheSecondLearns(-1, {}, {});
  EXPECT_TRUE(uniform(apart[0][0][0]));
  EXPECT_FALSE(uniform(apart[1][0][0]));
  std::vector<AgentNetworks::Conditionals> shared =
      afterTheSecondLearns(0, {0.25f}, {0.25f});
  EXPECT_GT(shared[0][0][0][2], 0.4f);
  // With the same features the copies are the same agent, bit for bit.
  EXPECT_EQ(shared[0], shared[1]);
  // Whichever member learns, the shared agent is the same.
  EXPECT_EQ(afterTheSecondLearns(0, {0.25f}, {0.25f}, false), shared);
}

TEST(AgentNetworks, ASharedAgentTellsItsMembersApartByTheirFeatures) {
  std::vector<AgentNetworks::Conditionals> shared =
      afterTheSecondLearns(0, {0.0f, 1.0f}, {1.0f, 0.0f});
  EXPECT_NE(shared[0][0][0], shared[1][0][0]);
  EXPECT_FALSE(uniform(shared[0][0][0]));
}

TEST(AgentNetworks, AFactorisedAgentsDecisionsSeeOnlyTheObservation) {
  std::vector<Decision> decisions = decisionsWith({3, 4, 3});
  Rng rng(5);
  AgentNetworks agents({{0, 1, 2}}, decisions, 16, 0.05,
                       /*autoregressive=*/false, rng);
  perturb(agents, decisions.size(), rng);
  const std::vector<double> reference =
      agents.decisionLogProbabilities(0.5f, {0, 1, 2});
  const std::vector<double> others =
      agents.decisionLogProbabilities(0.5f, {2, 1, 2});
  // Decision 0's own value changes its probability, not decision 1's or 2's.
  EXPECT_GT(std::abs(others[0] - reference[0]), 1e-6);
  EXPECT_NEAR(others[1], reference[1], 1e-6);
  EXPECT_NEAR(others[2], reference[2], 1e-6);
  // It has learnt something: the observation still matters.
  const std::vector<double> later =
      agents.decisionLogProbabilities(0.9f, {0, 1, 2});
  EXPECT_GT(std::abs(later[1] - reference[1]), 1e-6);
}

TEST(AgentNetworks, KeptWeightsStartOtherAgentsOfTheSameDecisionsAndShape) {
  std::vector<Decision> decisions = decisionsWith({3, 4, 3, 5});
  Rng rng(7);
  AgentNetworks trained({{0, 2, 3}, {1}}, decisions, 16, 0.05,
                        /*autoregressive=*/true, rng);
  perturb(trained, decisions.size(), rng);
  PolicyWeights kept;
  trained.keep(0, kept);
  ASSERT_EQ(kept.agents().size(), 2u);
  EXPECT_EQ(kept.agents()[0].key, "|d0/3|d2/3|d3/5");

  const Vector proposal = {1, 2, 0, 3};
  const std::vector<double> learnt =
      trained.decisionLogProbabilities(0.5f, proposal);
  Rng other(8);
  AgentNetworks fresh({{0, 2, 3}, {1}}, decisions, 16, 0.05,
                      /*autoregressive=*/true, other);
  EXPECT_NE(fresh.decisionLogProbabilities(0.5f, proposal), learnt);
  EXPECT_EQ(fresh.startFrom(kept), std::vector<size_t>{2});
  EXPECT_EQ(fresh.decisionLogProbabilities(0.5f, proposal), learnt);

  // At temperature 2 the log-odds between two choices of a decision halve.
  Rng fourth(10);
  AgentNetworks flatter({{0, 2, 3}, {1}}, decisions, 16, 0.05,
                        /*autoregressive=*/true, fourth);
  EXPECT_EQ(flatter.startFrom(kept, 2.0), std::vector<size_t>{2});
  const Vector otherChoice = {1, 3, 0, 3};
  const double logOdds =
      learnt[1] - trained.decisionLogProbabilities(0.5f, otherChoice)[1];
  const double flatterLogOdds =
      flatter.decisionLogProbabilities(0.5f, proposal)[1] -
      flatter.decisionLogProbabilities(0.5f, otherChoice)[1];
  EXPECT_NE(logOdds, 0.0);
  EXPECT_NEAR(flatterLogOdds, logOdds / 2, 1e-5);

  // Clustered otherwise, only the agent that owns decision 1 alone matches;
  // wider agents or a factorised head match none.
  Rng third(9);
  AgentNetworks regrouped({{0, 2}, {3}, {1}}, decisions, 16, 0.05,
                          /*autoregressive=*/true, third);
  EXPECT_EQ(regrouped.startFrom(kept), std::vector<size_t>{1});
  EXPECT_EQ(regrouped.decisionLogProbabilities(0.5f, proposal)[1], learnt[1]);
  AgentNetworks wider({{0, 2, 3}, {1}}, decisions, 32, 0.05,
                      /*autoregressive=*/true, third);
  EXPECT_EQ(wider.startFrom(kept), std::vector<size_t>{0});
  AgentNetworks factorised({{0, 2, 3}, {1}}, decisions, 16, 0.05,
                           /*autoregressive=*/false, third);
  EXPECT_EQ(factorised.startFrom(kept), std::vector<size_t>{0});
}

namespace {

/// Both members learn, from made-up rewards, that decision 0 should be 2.
void teachBoth(AgentNetworks &agents, Rng &draw) {
  PolicyOptions options;
  std::vector<Vector> first(16, Vector(2)), second(16, Vector(2));
  for (int round = 0; round < 4; ++round) {
    agents.sample({{0.5f, &draw, &first}, {0.5f, &draw, &second}});
    std::vector<AgentNetworks::Lesson> lessons(2);
    for (size_t m = 0; m < 2; ++m) {
      const std::vector<Vector> &batch = m == 0 ? first : second;
      std::vector<float> rewards;
      for (const Vector &proposal : batch)
        rewards.push_back(proposal[0] == 2 ? 1.0f : 0.0f);
      lessons[m] = {0.5f, &batch, advantagesOf(rewards), 0.0};
    }
    agents.learn(lessons, 16, options);
  }
}

} // namespace

TEST(AgentNetworks, RestartedAgentsDrawUniformlyAndLearnAgain) {
  std::vector<Decision> decisions = decisionsWith({3, 4});
  for (int shareClass : {-1, 0}) {
    Rng rng0(1), rng1(2), draw(3);
    std::vector<AgentNetworks::Member> members = {
        {{{0}, {1}}, decisions, 8, &rng0, {0.25f}, shareClass},
        {{{0}, {1}}, decisions, 8, &rng1, {0.25f}, shareClass}};
    AgentNetworks agents(std::move(members), 0.05, /*autoregressive=*/true);
    teachBoth(agents, draw);
    const std::vector<AgentNetworks::Conditionals> taught =
        distributionsOf(agents, 2, decisions.size());
    ASSERT_GT(taught[0][0][0][2], 0.4f);
    // Apart, one member restarts alone; shared, both must.
    const std::vector<size_t> restarted =
        shareClass < 0 ? std::vector<size_t>{0} : std::vector<size_t>{0, 1};
    agents.restart(restarted);
    std::vector<AgentNetworks::Conditionals> after =
        distributionsOf(agents, 2, decisions.size());
    for (size_t d = 0; d < decisions.size(); ++d)
      EXPECT_TRUE(uniform(after[0][0][d])) << "decision " << d;
    if (shareClass < 0) {
      EXPECT_EQ(after[1], taught[1]);
    } else {
      EXPECT_EQ(after[0], after[1]);
    }
    teachBoth(agents, draw);
    after = distributionsOf(agents, 2, decisions.size());
    EXPECT_GT(after[0][0][0][2], 0.4f);
    if (shareClass >= 0) {
      EXPECT_EQ(after[0], after[1]);
    }
  }
}
