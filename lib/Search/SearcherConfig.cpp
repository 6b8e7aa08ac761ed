//===- SearcherConfig.cpp - A searcher as users name it -------------------===//

#include "marlmap/Search/SearcherConfig.h"

#include "marlmap/Search/PolicyLibrary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace marlmap {

namespace {

/// The policy options `config` runs with: sarl has one agent.
PolicyOptions runningPolicy(const SearcherConfig &config) {
  PolicyOptions policy = config.policy;
  if (config.name == "sarl")
    policy.clustering = PolicyOptions::Clustering::Single;
  return policy;
}

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

} // namespace

bool searcherLearns(const std::string &name) {
  return name == "marl" || name == "sarl";
}

const std::vector<PolicyRange> &policyRanges() {
  // Each option's accessor and setter, from its member.
#define MARLMAP_POLICY_RANGE(NAME, MEMBER, TYPE, LOWEST, HIGHEST)              \
  PolicyRange {                                                                \
    NAME, LOWEST, HIGHEST,                                                     \
        [](const PolicyOptions &p) { return double(p.MEMBER); },               \
        [](PolicyOptions &p, double v) { p.MEMBER = TYPE(v); }                 \
  }
  static const std::vector<PolicyRange> ranges = {
      MARLMAP_POLICY_RANGE("policy-lr", learningRate, double, 0.0, 10.0),
      MARLMAP_POLICY_RANGE("policy-entropy", entropy, double, 0.0, 100.0),
      MARLMAP_POLICY_RANGE("policy-epochs", epochs, unsigned, 1, 100),
      MARLMAP_POLICY_RANGE("policy-hidden", hidden, unsigned, 1, 4096),
      MARLMAP_POLICY_RANGE("policy-warmup", warmup, unsigned, 0, 1'000'000),
      MARLMAP_POLICY_RANGE("policy-replay", replay, unsigned, 0, 4096),
      MARLMAP_POLICY_RANGE("policy-stall", stall, unsigned, 0, 1'000'000'000),
  };
#undef MARLMAP_POLICY_RANGE
  return ranges;
}

bool parseAgents(const std::string &text, PolicyOptions &policy,
                 std::string &error) {
  policy.agents = 0;
  if (text == "auto") {
    policy.clustering = PolicyOptions::Clustering::Automatic;
    return true;
  }
  if (text == "per-decision") {
    policy.clustering = PolicyOptions::Clustering::PerDecision;
    return true;
  }
  if (text == "random") {
    policy.clustering = PolicyOptions::Clustering::Random;
    return true;
  }
  bool digits = !text.empty() && text.size() <= 6 &&
                std::all_of(text.begin(), text.end(),
                            [](char c) { return c >= '0' && c <= '9'; });
  if (digits && std::stoul(text) > 0) {
    policy.clustering = PolicyOptions::Clustering::Automatic;
    policy.agents = unsigned(std::stoul(text));
    return true;
  }
  error = "agents must be auto, per-decision, random or a positive number, "
          "not '" +
          text + "'";
  return false;
}

const char *policyAdvantageName(PolicyOptions::Advantage advantage) {
  return advantage == PolicyOptions::Advantage::Ranks ? "ranks" : "utilities";
}

const char *policyHeadName(bool autoregressive) {
  return autoregressive ? "joint" : "factorised";
}

bool parsePolicyAdvantage(const std::string &text, PolicyOptions &policy,
                          std::string &error) {
  for (auto advantage :
       {PolicyOptions::Advantage::Utilities, PolicyOptions::Advantage::Ranks})
    if (text == policyAdvantageName(advantage)) {
      policy.advantage = advantage;
      return true;
    }
  error = "policy-advantage must be utilities or ranks, not '" + text + "'";
  return false;
}

bool parsePolicyHead(const std::string &text, PolicyOptions &policy,
                     std::string &error) {
  for (bool autoregressive : {true, false})
    if (text == policyHeadName(autoregressive)) {
      policy.autoregressive = autoregressive;
      return true;
    }
  error = "policy-head must be joint or factorised, not '" + text + "'";
  return false;
}

std::string checkSearcherConfig(const SearcherConfig &config) {
  const std::vector<std::string> &names = searcherNames();
  if (std::find(names.begin(), names.end(), config.name) == names.end()) {
    std::string message = "unknown searcher '" + config.name + "' (searchers: ";
    for (const std::string &known : names)
      message += (&known == &names.front() ? "" : ", ") + known;
    return message + ")";
  }
  if (!searcherLearns(config.name)) {
    if (describeSearcher(config) != config.name)
      return "agents and policy-* options are for the marl and sarl "
             "searchers, not " +
             config.name;
    return "";
  }
  const PolicyOptions &policy = config.policy;
  if (config.name == "sarl" &&
      (policy.clustering != PolicyOptions::Clustering::Automatic ||
       policy.agents != 0))
    return "sarl has one agent: agents is an option of marl";
  if (!(policy.learningRate > 0))
    return "policy-lr must be positive, not " +
           formatNumber(policy.learningRate);
  for (const PolicyRange &range : policyRanges()) {
    double value = range.value(policy);
    if (!(value >= range.lowest && value <= range.highest))
      return std::string(range.name) + " must be between " +
             formatNumber(range.lowest) + " and " +
             formatNumber(range.highest) + ", not " + formatNumber(value);
  }
  return "";
}

std::string checkBudget(int64_t budget) {
  if (budget >= 1 && budget <= kMaxBudget)
    return "";
  return "budget must be between 1 and " + std::to_string(kMaxBudget) +
         " samples, not " + std::to_string(budget);
}

std::string checkThreads(int64_t threads) {
  if (threads >= 0 && threads <= kMaxThreads)
    return "";
  return "threads must be between 0 (one per core) and " +
         std::to_string(kMaxThreads) + ", not " + std::to_string(threads);
}

std::string describeSearcher(const SearcherConfig &config) {
  const PolicyOptions &policy = config.policy;
  const PolicyOptions defaults;
  std::string text = config.name;
  switch (policy.clustering) {
  case PolicyOptions::Clustering::Automatic:
    if (policy.agents != 0)
      text += " agents=" + std::to_string(policy.agents);
    break;
  case PolicyOptions::Clustering::PerDecision:
    text += " agents=per-decision";
    break;
  case PolicyOptions::Clustering::Random:
    text += " agents=random";
    break;
  case PolicyOptions::Clustering::Single:
    text += " agents=single";
    break;
  }
  if (policy.learningRate != defaults.learningRate)
    text += " policy-lr=" + formatNumber(policy.learningRate);
  if (policy.epochs != defaults.epochs)
    text += " policy-epochs=" + std::to_string(policy.epochs);
  if (policy.entropy != defaults.entropy)
    text += " policy-entropy=" + formatNumber(policy.entropy);
  if (policy.warmup != defaults.warmup)
    text += " policy-warmup=" + std::to_string(policy.warmup);
  if (policy.hidden != defaults.hidden)
    text += " policy-hidden=" + std::to_string(policy.hidden);
  if (policy.replay != defaults.replay)
    text += " policy-replay=" + std::to_string(policy.replay);
  if (policy.stall != defaults.stall)
    text += " policy-stall=" + std::to_string(policy.stall);
  if (policy.advantage != defaults.advantage)
    text += std::string(" policy-advantage=") +
            policyAdvantageName(policy.advantage);
  if (policy.autoregressive != defaults.autoregressive)
    text +=
        std::string(" policy-head=") + policyHeadName(policy.autoregressive);
  return text;
}

std::unique_ptr<Searcher> makeSearcher(const SearcherConfig &config,
                                       const MapSpace &space, uint64_t seed,
                                       int64_t budget, std::string &error) {
  error = checkSearcherConfig(config);
  if (!error.empty())
    return nullptr;
  if (!searcherLearns(config.name))
    return makeSearcher(config.name, space, seed, budget, error);
  return makePolicySearcher(space, seed, budget, runningPolicy(config),
                            config.policyLibrary, error);
}

std::unique_ptr<NetworkSearcher> makeNetworkSearcher(
    const SearcherConfig &config, const std::vector<const MapSpace *> &spaces,
    const std::vector<uint64_t> &seeds, int64_t budget, std::string &error) {
  error = checkSearcherConfig(config);
  if (!error.empty())
    return nullptr;
  if (!searcherLearns(config.name)) {
    error = config.name + " searches one problem at a time";
    return nullptr;
  }
  return makePolicyPack(spaces, seeds, budget, runningPolicy(config),
                        config.policyLibrary, error);
}

} // namespace marlmap
