//===- PolicyWeightsTest.cpp - Learnt agents kept in a file ---------------===//

#include "marlmap/Search/PolicyWeights.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Hash.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

using namespace marlmap;

namespace {

AgentWeights agentOf(std::string key, int64_t input, int64_t hidden,
                     int64_t width, float scale) {
  AgentWeights agent;
  agent.key = std::move(key);
  agent.input = input;
  agent.hidden = hidden;
  agent.width = width;
  for (int64_t k = 0; k < agent.weightCount(); ++k)
    agent.values.push_back(scale * std::sin(float(k) + 0.25f) / 3.0f);
  return agent;
}

PolicyWeights twoAgents() {
  PolicyWeights weights;
  weights.add(agentOf("eyeriss|conv|K^2 split #0/7", 12, 8, 8, 1.0f));
  AgentWeights factorised = agentOf("simba|gemm|order@PE #1/3", 10, 4, 4, 1e-7f);
  factorised.autoregressive = false;
  // Values that need every one of the nine digits, and a subnormal.
  factorised.values[0] = 0.1f;
  factorised.values[1] = std::numeric_limits<float>::denorm_min();
  factorised.values[2] = -3.4e38f;
  weights.add(factorised);
  return weights;
}

/// `body` (every line but the last) with a correct last line.
std::string sealed(const std::string &body, int64_t agents) {
  return body + "end " + std::to_string(agents) + " " +
         hexText(fnv1a(body)) + "\n";
}

std::string parseError(const std::string &text) {
  std::string error;
  EXPECT_FALSE(optionalOr(parsePolicyWeights(text), error));
  return error;
}

} // namespace

TEST(PolicyWeights, TextRoundTripsEveryWeightExactly) {
  const PolicyWeights weights = twoAgents();
  std::string error;
  std::optional<PolicyWeights> read =
      optionalOr(parsePolicyWeights(policyWeightsText(weights)), error);
  ASSERT_TRUE(read) << error;
  ASSERT_EQ(read->agents().size(), 2u);
  for (size_t a = 0; a < 2; ++a) {
    const AgentWeights &before = weights.agents()[a];
    const AgentWeights &after = read->agents()[a];
    EXPECT_EQ(after.key, before.key);
    EXPECT_TRUE(after.sameShape(before));
    ASSERT_EQ(after.values.size(), before.values.size());
    for (size_t k = 0; k < before.values.size(); ++k)
      EXPECT_EQ(std::memcmp(&after.values[k], &before.values[k], 4), 0)
          << before.key << " weight " << k;
  }
  EXPECT_EQ(policyWeightsText(*read), policyWeightsText(weights));
}

TEST(PolicyWeights, AgentsAreKeptByKeyAndTheFirstOfAKeyStays) {
  PolicyWeights weights;
  EXPECT_TRUE(weights.add(agentOf("b", 3, 2, 4, 1.0f)));
  EXPECT_TRUE(weights.add(agentOf("a", 3, 2, 4, 1.0f)));
  EXPECT_FALSE(weights.add(agentOf("b", 3, 2, 4, 2.0f)));
  ASSERT_EQ(weights.agents().size(), 2u);
  EXPECT_EQ(weights.agents()[0].key, "a");
  EXPECT_EQ(weights.find("b")->values, agentOf("b", 3, 2, 4, 1.0f).values);
  EXPECT_EQ(weights.find("c"), nullptr);

  PolicyWeights older;
  older.add(agentOf("b", 3, 2, 4, 5.0f));
  older.add(agentOf("c", 3, 2, 4, 5.0f));
  weights.addMissing(older);
  EXPECT_EQ(weights.agents().size(), 3u);
  EXPECT_EQ(weights.find("b")->values, agentOf("b", 3, 2, 4, 1.0f).values);
  EXPECT_EQ(weights.find("c")->values, agentOf("c", 3, 2, 4, 5.0f).values);
}

TEST(PolicyWeights, DamagedTextIsRefusedWithTheReason) {
  const std::string good = policyWeightsText(twoAgents());
  const std::string body = good.substr(0, good.rfind("end "));
  const std::string header = "marlmap-policy-weights 1\n";

  EXPECT_NE(parseError("").find("not a marlmap policy-weights file"),
            std::string::npos);
  EXPECT_NE(parseError("marlmap-policy-weights 2\nend 0 0\n")
                .find("not a marlmap policy-weights file"),
            std::string::npos);
  EXPECT_NE(parseError(good.substr(0, good.size() / 2)).find("cut short"),
            std::string::npos);
  // One weight changed: the checksum no longer matches.
  std::string edited = good;
  edited[edited.find('\t', edited.find('\t') + 1) + 3] ^= 1;
  EXPECT_NE(parseError(edited).find("checksum does not match"),
            std::string::npos);
  EXPECT_NE(parseError(sealed(body, 3)).find("says it holds 3 agents"),
            std::string::npos);

  // Sealed afresh, so that only the line itself is wrong.
  EXPECT_NE(parseError(sealed(header + "agent 1 1 1 joint 5\tk\t1 2 3 4\n", 1))
                .find("line 2: agent 'k' has 5 weights"),
            std::string::npos);
  EXPECT_NE(parseError(sealed(header + "agent 1 1 1 joint 6\tk\t1 2 3 4 5\n", 1))
                .find("weight 5 is not a finite number"),
            std::string::npos);
  EXPECT_NE(
      parseError(sealed(header + "agent 1 1 1 joint 6\tk\t1 2 3 4 5 nan\n", 1))
          .find("weight 5 is not a finite number"),
      std::string::npos);
  EXPECT_NE(
      parseError(sealed(header + "agent 1 1 1 joint 6\tk\t1 2 3 4 5 6 7\n", 1))
          .find("more weights than it says"),
      std::string::npos);
  EXPECT_NE(parseError(sealed(header + "agent 1 1 1 sideways 6\tk\t1 2 3 4 5 6\n",
                              1))
                .find("shape does not read"),
            std::string::npos);
  // A shape no agent has would ask for gigabytes: refused before reading.
  EXPECT_NE(parseError(sealed(header +
                                  "agent 99999999 9 9 joint 900000090\tk\t1\n",
                              1))
                .find("shape does not read"),
            std::string::npos);
  EXPECT_NE(parseError(sealed(header + "agent 1 1 1 joint 6\t\t1 2 3 4 5 6\n", 1))
                .find("without a key"),
            std::string::npos);
  const std::string line = "agent 1 1 1 joint 6\tk\t1 2 3 4 5 6\n";
  EXPECT_NE(parseError(sealed(header + line + line, 2))
                .find("line 3: a second agent of key 'k'"),
            std::string::npos);
}

TEST(PolicyWeights, FilesAreWrittenWholeAndReadBack) {
  const std::string path = testing::TempDir() + "/policy-weights-test.txt";
  std::string error;
  ASSERT_EQ(llvm::toString(savePolicyWeights(path, twoAgents())), "");
  std::optional<PolicyWeights> read =
      optionalOr(loadPolicyWeights(path), error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(policyWeightsText(*read), policyWeightsText(twoAgents()));
  // No temporary file is left beside it.
  EXPECT_FALSE(std::ifstream(path + ".partial").good());

  // A damaged file names itself.
  std::ofstream(path, std::ios::trunc) << "garbage\n";
  EXPECT_FALSE(optionalOr(loadPolicyWeights(path), error));
  EXPECT_NE(error.find("policy weights '" + path + "'"), std::string::npos)
      << error;
  std::remove(path.c_str());

  EXPECT_FALSE(optionalOr(loadPolicyWeights(path), error));
  EXPECT_NE(error.find("cannot read the policy weights"), std::string::npos)
      << error;
  error = llvm::toString(
      savePolicyWeights("/nonexistent-folder/w.txt", twoAgents()));
  EXPECT_NE(error.find("cannot write the policy weights"), std::string::npos)
      << error;
}
