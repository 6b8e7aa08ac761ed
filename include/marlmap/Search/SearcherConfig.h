//===- SearcherConfig.h - A searcher as users name it -----------*- C++ -*-===//
//
// Tools and passes take a searcher name plus the policy searchers' options.
// The config checks them in one place and prints them canonically, so that
// a mapping cache tells searches with different options apart.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_SEARCHERCONFIG_H
#define MARLMAP_SEARCH_SEARCHERCONFIG_H

#include "marlmap/Search/Searcher.h"

#include <memory>
#include <string>
#include <vector>

namespace marlmap {

struct SearcherConfig {
  std::string name = "genetic";
  /// Used by `marl` and `sarl` only (sarl always has one agent).
  PolicyOptions policy;
  /// Where to load the policy library from (PolicyLibrary.h); empty: the
  /// usual places. Not part of what the searcher finds.
  std::string policyLibrary;
};

/// Whether the searcher `name` learns (marl, sarl): it needs the policy
/// library and takes the policy options.
bool searcherLearns(const std::string &name);

/// The values a policy option accepts, inclusive; the options' help and
/// docs/Search.md quote them.
struct PolicyRange {
  const char *name;
  double lowest, highest;
  double (*value)(const PolicyOptions &);
  void (*set)(PolicyOptions &, double);
};
const std::vector<PolicyRange> &policyRanges();

/// The sample budget per problem when none is given, in the passes and the
/// tools alike.
constexpr int64_t kDefaultBudget = 2000;

/// The largest sample budget per problem and thread count the passes and
/// tools accept.
constexpr int64_t kMaxBudget = 1'000'000'000;
constexpr int64_t kMaxThreads = 1024;

/// The reason a budget or a thread count (0: one per core) is refused, or
/// "".
std::string checkBudget(int64_t budget);
std::string checkThreads(int64_t threads);

/// Sets the agents of `policy` from `text`: auto (clusters of interacting
/// decisions), per-decision, random (random clusters, as many as auto
/// finds), or a positive number of clusters. The reason in `error` if not.
bool parseAgents(const std::string &text, PolicyOptions &policy,
                 std::string &error);

/// How options spell the advantage shaping (`utilities`, `ranks`) and the
/// head (`joint` when autoregressive, else `factorised`).
const char *policyAdvantageName(PolicyOptions::Advantage advantage);
const char *policyHeadName(bool autoregressive);

/// Sets how rewards become advantages from `text`: utilities or ranks.
bool parsePolicyAdvantage(const std::string &text, PolicyOptions &policy,
                          std::string &error);

/// Sets whether each agent draws its decisions jointly (`joint`) or each
/// independently given the observation (`factorised`).
bool parsePolicyHead(const std::string &text, PolicyOptions &policy,
                     std::string &error);

/// The reason `config` cannot be used, or "" when it can: an unknown name,
/// policy options out of range (policyRanges; NaN is out of every range), or
/// policy options on a searcher that does not learn.
std::string checkSearcherConfig(const SearcherConfig &config);

/// The name, then each policy option that differs from its default, as
/// passes spell them: "marl agents=4 policy-lr=0.01".
std::string describeSearcher(const SearcherConfig &config);

/// For the searchers that learn (marl, sarl): one searcher for all of
/// `spaces` at once, stepping them in lockstep (PolicyLibrary.h); the same
/// results per problem as makeSearcher's searchers with the same seeds.
std::unique_ptr<NetworkSearcher> makeNetworkSearcher(
    const SearcherConfig &config, const std::vector<const MapSpace *> &spaces,
    const std::vector<uint64_t> &seeds, int64_t budget, std::string &error);

/// The searcher `config` names (see makeSearcher).
std::unique_ptr<Searcher> makeSearcher(const SearcherConfig &config,
                                       const MapSpace &space, uint64_t seed,
                                       int64_t budget, std::string &error);

} // namespace marlmap

#endif // MARLMAP_SEARCH_SEARCHERCONFIG_H
