//===- PolicyEntries.cpp - marl and sarl ----------------------------------===//
//
// The registry entries of the searchers that learn (docs/Search.md). Both
// live in the policy library (PolicyLibrary.h); their entries here only
// name their options and read them into PolicyOptions.
//
//===----------------------------------------------------------------------===//

#include "PolicyEntries.h"
#include "Entries.h"
#include "marlmap/Search/PolicyLibrary.h"

namespace marlmap {

namespace {

const char *advantageName(PolicyOptions::Advantage advantage) {
  return advantage == PolicyOptions::Advantage::Ranks ? "ranks" : "utilities";
}

const char *headName(bool autoregressive) {
  return autoregressive ? "joint" : "factorised";
}

/// marl's `agents`: auto, per-decision, random or a number of agents.
SearcherOption agentsOption() {
  constexpr int64_t kMostAgents = 100'000;
  SearcherOption count = integerOption("agents", "", 1, 1, kMostAgents);
  SearcherOption option;
  option.name = "agents";
  option.help = "auto (clusters of interacting decisions), correlation "
                "(decisions alike in their correlation with the objective "
                "share an agent), per-decision (no clustering), random "
                "(random clusters, as many as auto finds), or a number of "
                "agents (clustered as auto)";
  option.defaultValue = "per-decision";
  option.accepted = "auto, correlation, per-decision, random or a number "
                    "from 1 to " +
                    std::to_string(kMostAgents);
  option.canonical =
      [count](const std::string &text) -> std::optional<std::string> {
    if (text == "auto" || text == "correlation" || text == "per-decision" ||
        text == "random")
      return text;
    return count.canonical(text);
  };
  return option;
}

/// An option that is `auto` (its default) or an integer from `least` to
/// `most`.
SearcherOption autoOrIntegerOption(const std::string &name,
                                   const std::string &help, int64_t least,
                                   int64_t most) {
  SearcherOption integer = integerOption(name, "", least, least, most);
  SearcherOption option;
  option.name = name;
  option.help = help;
  option.defaultValue = "auto";
  option.accepted = "auto or " + integer.accepted;
  option.canonical =
      [integer](const std::string &text) -> std::optional<std::string> {
    if (text == "auto")
      return text;
    return integer.canonical(text);
  };
  return option;
}

/// The refinement rounds `auto` gives a search that time alone bounds:
/// measured on whole networks at equal time (docs/Search.md, "Refining the
/// elites"); at equal samples refinement does not pay, so `auto` gives
/// none there.
constexpr int64_t kRefineUnderTime = 16;

/// `policy-refine`: auto or a number of rounds.
SearcherOption refineOption() {
  return autoOrIntegerOption(
      "policy-refine",
      "rounds after every update that redraw one or two decisions of the "
      "best proposals so far from the agents' distributions instead of "
      "drawing afresh (0: off; auto: " +
          std::to_string(kRefineUnderTime) +
          " when time alone bounds the search, else off)",
      0, 64);
}

/// The share of a problem's samples that `policy-restart=auto` lets it
/// go without a new best, when more than the least window: a second on a
/// layer draws some 250,000 samples, and one basin got about 8000 of them
/// there, while a network's problems (some 60,000 samples each at 4 s)
/// keep the least window (docs/Search.md, "Restarts").
constexpr unsigned kRestartShare = 32;
/// The most that share makes the window: a layer searched alone for a
/// minute draws some 30 million samples, and with a 32nd of them the
/// agents hardly ever restart; there 2000 found optima that such windows
/// missed (docs/Search.md, "Restarts").
constexpr unsigned kRestartMost = 8000;

/// `policy-restart`: auto or a window of samples.
SearcherOption restartOption() {
  const PolicyOptions defaults;
  return autoOrIntegerOption(
      "policy-restart",
      "after this many samples without a new best, a problem's agents (or "
      "those of a group that shares them, once all its problems stall) "
      "start again from a uniform policy, forgetting their elites (0: "
      "never; auto: " +
          std::to_string(defaults.restart) + ", or 1/" +
          std::to_string(kRestartShare) +
          " of the samples the problem's budget lets it draw when that is "
          "more, at most " +
          std::to_string(kRestartMost) + ")",
      0, 1'000'000'000);
}

/// The options marl and sarl share.
std::vector<SearcherOption> policyOptions() {
  const PolicyOptions defaults;
  SearcherOption throwAfter = integerOption(
      "policy-test-throw-after",
      "testing only: make a policy search fail after this many samples", 0, 0,
      int64_t(1) << 62);
  throwAfter.hidden = true;
  return {
      realOption("policy-lr", "Adam learning rate", defaults.learningRate, 0.0,
                 10.0, /*openBelow=*/true),
      integerOption("policy-epochs", "updates per batch of proposals",
                    defaults.epochs, 1, 100),
      realOption("policy-entropy", "entropy bonus (exploration)",
                 defaults.entropy, 0.0, 100.0),
      integerOption("policy-warmup", "uniform samples before learning",
                    defaults.warmup, 0, 1'000'000),
      integerOption("policy-hidden",
                    "hidden width of each agent's network (sarl sizes its "
                    "one agent to as many weights as marl's together)",
                    defaults.hidden, 1, 4096),
      integerOption("policy-replay",
                    "best proposals so far replayed in every update",
                    defaults.replay, 0, 4096),
      refineOption(),
      integerOption("policy-transfer",
                    "in a network's search: each problem tries the best "
                    "mappings of this many of its most similar problems, "
                    "recast for it, as they improve (0: problems learn "
                    "alone)",
                    defaults.transfer, 0, 64),
      integerOption("policy-share",
                    "in a network's search: groups of up to this many alike "
                    "problems share the agents of the decisions they have "
                    "in common, observing each problem's features (0: "
                    "every problem its own agents)",
                    defaults.share, 0, 64),
      integerOption("policy-stall",
                    "double the entropy bonus for every this many samples "
                    "without a new best, up to 8x (0: off)",
                    defaults.stall, 0, 1'000'000'000),
      restartOption(),
      choiceOption("policy-advantage",
                   "how rewards become advantages: utilities (NES-style, the "
                   "best pulled up most) or ranks (centred ranks)",
                   advantageName(defaults.advantage), {"utilities", "ranks"}),
      choiceOption("policy-fit",
                   "on (a proposal whose spatial factors overflow a fanout "
                   "moves the smallest to the level's temporal loop, and "
                   "the agents learn from what was evaluated) or off (it "
                   "is invalid)",
                   defaults.fitSpread ? "on" : "off", {"on", "off"}),
      choiceOption("policy-spreads",
                   "levels (the spread along each axis of every "
                   "two-dimensional array is one decision, which the copies "
                   "of the primes follow) or copies (the primes' copies "
                   "alone place the spatial factors); the perfect factor "
                   "space only",
                   defaults.levelSpreads ? "levels" : "copies",
                   {"levels", "copies"}),
      choiceOption("policy-head",
                   "joint (each agent draws its decisions autoregressively) "
                   "or factorised (each decision on its own)",
                   headName(defaults.autoregressive), {"joint", "factorised"}),
      fileOption("policy-weights",
                 "start the agents from the weights in this file where their "
                 "accelerator, op kind and decisions match (written by "
                 "policy-save; empty: start afresh)",
                 SearcherOption::Role::InputFile),
      realOption("policy-weights-temperature",
                 "what the output layers of agents started from "
                 "policy-weights are divided by (1: the saved policies; "
                 "higher: flatter ones, which explore more)",
                 defaults.weightsTemperature, 0.0, 1000.0,
                 /*openBelow=*/true),
      fileOption("policy-save",
                 "after a network's search, write what its agents learnt "
                 "to this file, with the agents of policy-weights it did "
                 "not use (empty: do not)",
                 SearcherOption::Role::OutputFile),
      throwAfter,
  };
}

/// The weights `policy-weights` names, null when none; an error when the
/// file does not read.
llvm::Expected<std::shared_ptr<const PolicyWeights>>
readWeights(const OptionValues &values) {
  const std::string &path = values.text("policy-weights");
  if (path.empty())
    return nullptr;
  llvm::Expected<PolicyWeights> weights = loadPolicyWeights(path);
  if (!weights)
    return weights.takeError();
  return std::make_shared<const PolicyWeights>(std::move(*weights));
}

/// What a set of policy options cannot do, if anything (a weights file
/// that does not read is readWeightsInto's to say).
llvm::Error checkPolicy(const OptionValues &values) {
  if (!values.text("policy-save").empty() &&
      values.integer("policy-share") == 0 &&
      values.text("policy-weights").empty())
    return makeError("policy-save needs agents that observe their problem, "
                     "which they do with policy-share above 0 or with "
                     "policy-weights: others are of no use to another "
                     "problem");
  return llvm::Error::success();
}

/// Reads policy-weights into `config`, once for every search made from it.
llvm::Error readWeightsInto(const OptionValues &values,
                            SearcherConfig &config) {
  llvm::Expected<std::shared_ptr<const PolicyWeights>> weights =
      readWeights(values);
  if (!weights)
    return weights.takeError();
  config.weights = std::move(*weights);
  return llvm::Error::success();
}

/// The agents policy-weights holds: those read with the config, else read
/// now; null when there is none, an error when the file does not read.
llvm::Expected<std::shared_ptr<const PolicyWeights>>
startingWeights(const OptionValues &values,
                const std::shared_ptr<const PolicyWeights> &read) {
  if (values.text("policy-weights").empty())
    return nullptr;
  if (read)
    return read;
  return readWeights(values);
}

/// Writes what a network's agents learnt, with the agents of
/// policy-weights they did not replace, to policy-save.
llvm::Error saveLearnt(const OptionValues &values, const SearcherConfig &config,
                       const PolicyWeights &learnt) {
  PolicyWeights kept = learnt;
  llvm::Expected<std::shared_ptr<const PolicyWeights>> started =
      startingWeights(values, config.weights);
  if (!started)
    return started.takeError();
  if (*started)
    kept.addMissing(**started);
  return savePolicyWeights(values.text("policy-save"), kept);
}

/// The options a policy searcher is made with, or why its weights file
/// does not read.
llvm::Expected<PolicyOptions> policyFor(const SearcherRequest &request,
                                        bool hasAgents) {
  PolicyOptions policy = readPolicy(request.options, request.budget, hasAgents);
  llvm::Expected<std::shared_ptr<const PolicyWeights>> started =
      startingWeights(request.options, request.weights);
  if (!started)
    return started.takeError();
  policy.weights = std::move(*started);
  return policy;
}

SearcherEntry policyEntry(bool hasAgents) {
  SearcherEntry entry;
  entry.learns = true;
  entry.options = policyOptions();
  if (hasAgents)
    entry.options.insert(entry.options.begin(), agentsOption());
  entry.make =
      [hasAgents](const SearcherRequest &request, const MapSpace &space,
                  uint64_t seed) -> llvm::Expected<std::unique_ptr<Searcher>> {
    llvm::Expected<PolicyOptions> policy = policyFor(request, hasAgents);
    if (!policy)
      return policy.takeError();
    return makePolicySearcher(space, seed, request.budget, *policy,
                              request.policyLibrary);
  };
  entry.makeNetwork = [hasAgents](const SearcherRequest &request,
                                  const std::vector<const MapSpace *> &spaces,
                                  const std::vector<uint64_t> &seeds,
                                  const std::vector<unsigned> &groups)
      -> llvm::Expected<std::unique_ptr<NetworkSearcher>> {
    llvm::Expected<PolicyOptions> policy = policyFor(request, hasAgents);
    if (!policy)
      return policy.takeError();
    return makePolicyPack(spaces, seeds, groups, request.budget, *policy,
                          request.policyLibrary);
  };
  entry.makeWhileLoading =
      [hasAgents](const SearcherRequest &request,
                  const std::vector<const MapSpace *> &spaces,
                  const std::vector<uint64_t> &seeds)
      -> llvm::Expected<std::unique_ptr<NetworkSearcher>> {
    llvm::Expected<PolicyOptions> policy = policyFor(request, hasAgents);
    if (!policy)
      return policy.takeError();
    return makeUniformWarmUp(spaces, seeds, *policy);
  };
  entry.groupSize = [](const OptionValues &values) {
    return unsigned(values.integer("policy-share"));
  };
  entry.check = checkPolicy;
  entry.readInputs = readWeightsInto;
  entry.keepsLearnt = [](const OptionValues &values) {
    return !values.text("policy-save").empty();
  };
  entry.keepLearnt = saveLearnt;
  return entry;
}

} // namespace

// The values of the options above (and `agents` when the searcher has it;
// sarl has one agent).
PolicyOptions readPolicy(const OptionValues &values, const SearchBudget &budget,
                         bool hasAgents) {
  PolicyOptions policy;
  policy.learningRate = values.real("policy-lr");
  policy.epochs = unsigned(values.integer("policy-epochs"));
  policy.entropy = values.real("policy-entropy");
  policy.warmup = unsigned(values.integer("policy-warmup"));
  policy.hidden = unsigned(values.integer("policy-hidden"));
  policy.replay = unsigned(values.integer("policy-replay"));
  policy.stall = unsigned(values.integer("policy-stall"));
  if (values.text("policy-restart") == "auto") {
    policy.restartShare = kRestartShare;
    policy.restartMost = kRestartMost;
  } else {
    policy.restart = unsigned(values.integer("policy-restart"));
    policy.restartShare = 0;
  }
  policy.transfer = unsigned(values.integer("policy-transfer"));
  const bool timeAlone = budget.samples <= 0 && budget.seconds > 0;
  policy.refine = values.text("policy-refine") == "auto"
                      ? unsigned(timeAlone ? kRefineUnderTime : 0)
                      : unsigned(values.integer("policy-refine"));
  policy.share = unsigned(values.integer("policy-share"));
  policy.advantage = values.text("policy-advantage") == "ranks"
                         ? PolicyOptions::Advantage::Ranks
                         : PolicyOptions::Advantage::Utilities;
  policy.autoregressive = values.text("policy-head") == "joint";
  policy.fitSpread = values.text("policy-fit") == "on";
  policy.levelSpreads = values.text("policy-spreads") == "levels";
  policy.testThrowAfter = values.integer("policy-test-throw-after");
  policy.weightsTemperature = values.real("policy-weights-temperature");
  if (!hasAgents) {
    policy.clustering = PolicyOptions::Clustering::Single;
    return policy;
  }
  const std::string &agents = values.text("agents");
  if (agents == "per-decision") {
    policy.clustering = PolicyOptions::Clustering::PerDecision;
  } else if (agents == "random") {
    policy.clustering = PolicyOptions::Clustering::Random;
  } else if (agents == "correlation") {
    policy.clustering = PolicyOptions::Clustering::Correlation;
  } else {
    policy.clustering = PolicyOptions::Clustering::Automatic;
    if (agents != "auto")
      policy.agents = unsigned(values.integer("agents"));
  }
  return policy;
}

/// The learned searchers' revision: 2 since policy-restart=auto waits at
/// most kRestartMost samples, 3 since each level's spread is a decision
/// (policy-spreads=levels).
constexpr unsigned kPolicyRevision = 3;

SearcherEntry marlSearcherEntry() {
  SearcherEntry entry = policyEntry(/*hasAgents=*/true);
  entry.revision = kPolicyRevision;
  entry.name = "marl";
  entry.help = "Multi-agent reinforcement learning: one policy per cluster "
               "of interacting decisions, trained on the shared reward (the "
               "default)";
  return entry;
}

SearcherEntry sarlSearcherEntry() {
  SearcherEntry entry = policyEntry(/*hasAgents=*/false);
  entry.revision = kPolicyRevision;
  entry.name = "sarl";
  entry.help = "Single-agent reinforcement learning: one policy for every "
               "decision (marl's baseline)";
  return entry;
}

} // namespace marlmap
