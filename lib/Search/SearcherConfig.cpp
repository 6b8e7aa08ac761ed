//===- SearcherConfig.cpp - A searcher as users name it -------------------===//

#include "marlmap/Search/SearcherConfig.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace marlmap {

namespace {

bool learns(const std::string &name) {
  return name == "marl" || name == "sarl";
}

std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

} // namespace

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
  if (!learns(config.name)) {
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
  if (!(policy.learningRate > 0) || !std::isfinite(policy.learningRate))
    return "policy-lr must be positive, not " +
           formatNumber(policy.learningRate);
  if (!(policy.entropy >= 0) || !std::isfinite(policy.entropy))
    return "policy-entropy must not be negative, not " +
           formatNumber(policy.entropy);
  if (policy.epochs == 0 || policy.hidden == 0)
    return "policy-epochs and policy-hidden must be at least 1";
  return "";
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
  if (!learns(config.name))
    return makeSearcher(config.name, space, seed, budget, error);
  PolicyOptions policy = config.policy;
  if (config.name == "sarl")
    policy.clustering = PolicyOptions::Clustering::Single;
  return makePolicySearcher(space, seed, budget, policy, error);
}

} // namespace marlmap
