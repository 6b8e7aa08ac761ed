//===- PolicySearchers.cpp - Multi- and single-agent policy gradient ------===//
//
// Each agent is a small network (LibTorch, AgentNetworks.h) that draws the
// decisions it owns jointly, given an observation of the search. A round: every
// agent samples its decisions for a batch of proposals, the proposals are
// evaluated, every agent gets the same reward, and each takes clipped
// policy-gradient (PPO-style) steps on the batch. marl gives each cluster of
// interacting decisions its own agent; sarl gives one agent everything.
//
// A pack searches several problems in lockstep: each keeps its own agents,
// generator, warm-up and replay, and their networks are stacked in one
// AgentNetworks so that every LibTorch operation serves all of them. A
// problem's search is the same in a pack of any size (a single search is a
// pack of one), unless policy-share makes the pack's alike problems share
// agents: each agent then observes its problem's features too.
//
// All randomness comes from marlmap's Rng (weights included), LibTorch runs
// on one thread, and matrix products go through a BlasGuard, so a seed fixes
// the search whatever else runs. No exception leaves this library: a failure
// underneath ends the search and is reported by failure().
//
//===----------------------------------------------------------------------===//

#include "AgentNetworks.h"
#include "BlasGuard.h"
#include "ProblemLearner.h"

#include "marlmap/Core/Transfer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace marlmap {

namespace {

using Vector = std::vector<int64_t>;
using Proposals = NetworkSearcher::Proposals;

/// What a shared agent observes of its problem: log2 of the bound of each
/// dim name and of the largest window stride (problemFeatures), scaled so
/// that a layer's values are about 0 to 1.
std::vector<float> observedFeatures(const ProblemFeatures &features) {
  std::vector<float> observed;
  for (double log2Bound : features.log2Bounds)
    observed.push_back(float(log2Bound / 16.0));
  observed.push_back(float(features.log2Stride / 2.0));
  return observed;
}

/// The share class of a problem of `group` and op `kind`, numbered in the
/// order the (group, kind) pairs first come (`known`): a group's agents are
/// the same whatever else its pack holds.
int shareClassOf(std::vector<std::pair<unsigned, unsigned>> &known,
                 unsigned group, unsigned kind) {
  const std::pair<unsigned, unsigned> key(group, kind);
  auto found = std::find(known.begin(), known.end(), key);
  if (found != known.end())
    return int(found - known.begin());
  known.push_back(key);
  return int(known.size()) - 1;
}

/// Problems searched in lockstep, their networks stacked.
class PolicyPack : public NetworkSearcher {
public:
  PolicyPack(const std::vector<const MapSpace *> &spaces,
             const std::vector<uint64_t> &seeds,
             const std::vector<unsigned> &groups, const SearchBudget &budget,
             const PolicyOptions &options)
      : options(options) {
    // One clock: the problems are searched in lockstep.
    BudgetClock clock(budget);
    std::vector<std::pair<unsigned, unsigned>> classKeys;
    problems.reserve(spaces.size());
    views.reserve(spaces.size());
    warmFrom.assign(spaces.size(), 0);
    for (size_t p = 0; p < spaces.size(); ++p) {
      problems.emplace_back(*spaces[p], seeds[p], clock, options);
      views.emplace_back(*this, p);
      const ProblemFeatures problem = problemFeatures(spaces[p]->problem());
      scopes.push_back(spaces[p]->arch().name + "|" +
                       opKindSpelling(problem.kind));
      if (observesProblems())
        features.push_back(problem);
      if (options.share > 0)
        shareClasses.push_back(
            shareClassOf(classKeys, groups[p], unsigned(problem.kind)));
    }
    // What restarts together: a share class, else each problem alone.
    std::map<int, std::vector<size_t>> byClass;
    for (size_t p = 0; p < problems.size(); ++p)
      byClass[shareClasses.empty() ? -1 - int(p) : shareClasses[p]].push_back(
          p);
    for (auto &[shareClass, members] : byClass)
      restartGroups.push_back(std::move(members));
    // Agents that start from learnt weights need no uniform warm-up, unless
    // it is what clusters their decisions.
    if (options.weights &&
        options.clustering == PolicyOptions::Clustering::PerDecision)
      startLearning();
  }

  void ask(unsigned count, std::vector<Proposals> &proposals) override {
    proposals.resize(problems.size());
    if (failed.empty())
      guarded([&] { propose(count, proposals); });
    if (!failed.empty())
      for (Proposals &problemProposals : proposals)
        problemProposals.clear();
  }

  void tell(const std::vector<Proposals> &proposals,
            const std::vector<std::vector<Feedback>> &feedback) override {
    if (failed.empty())
      guarded([&] { learnFrom(proposals, feedback); });
  }

  const AgentView *agentView(size_t problem) const override {
    return &views[problem];
  }

  /// Another search's draws become problem p's warm-up; learning starts
  /// once every problem's is complete, as after warm-up batches.
  void startFrom(size_t problem, const SearchHistory &history) override {
    if (!failed.empty())
      return;
    guarded([&] {
      warmFrom[problem] = problems[problem].warmUpFrom(history);
      if (!agents && std::all_of(warmFrom.begin(), warmFrom.end(),
                                 [](char warm) { return warm != 0; }))
        startLearning();
    });
  }

  std::string failure() const override { return failed; }

  unsigned suggestionsWanted() const override { return options.transfer; }
  void suggest(size_t problem, std::vector<int64_t> point) override {
    problems[problem].suggest(point);
  }

private:
  /// One problem's agents, as the driver sees them.
  class ProblemAgents : public AgentView {
  public:
    ProblemAgents(const PolicyPack &pack, size_t problem)
        : pack(pack), problem(problem) {}
    Clusters clusters() const override {
      return pack.agents ? pack.agents->owners(problem) : Clusters();
    }
    std::vector<std::string> decisionNames() const override {
      std::vector<std::string> names;
      for (const Decision &decision : pack.problems[problem].decisions())
        names.push_back(decision.name);
      return names;
    }
    void learntWeights(PolicyWeights &into) const override {
      if (pack.agents)
        pack.agents->keep(problem, into);
    }
    size_t agentsFromWeights() const override {
      return problem < pack.startedFromWeights.size()
                 ? pack.startedFromWeights[problem]
                 : 0;
    }

  private:
    const PolicyPack &pack;
    size_t problem;
  };

  /// Agents observe their problem's features when they may serve other
  /// problems: shared within a group, or brought from other searches.
  bool observesProblems() const {
    return options.share > 0 || options.weights != nullptr;
  }

  /// Runs `work` with the BLAS guarded; an exception becomes the failure.
  template <typename Work> void guarded(Work &&work) {
    try {
      BlasGuard guard;
      work();
    } catch (const c10::Error &e) {
      failed = std::string("LibTorch: ") + e.what_without_backtrace();
    } catch (const std::exception &e) {
      failed = e.what();
    } catch (...) {
      failed = "an unknown exception";
    }
  }

  void propose(unsigned count, std::vector<Proposals> &proposals) {
    // Between updates, options.refine rounds refine the elites; a problem
    // without any draws from its agents instead.
    refining = agents && refineLeft > 0;
    std::vector<AgentNetworks::Draw> draws;
    bool drawing = false;
    for (ProblemLearner &problem : problems) {
      if (refining && problem.canRefine()) {
        problem.refineBatch(count);
        draws.push_back({0.0f, nullptr, nullptr});
        continue;
      }
      // Agents learn from valid proposals only: until a problem has one,
      // it draws uniformly, as in the warm-up, so that agents started from
      // weights whose proposals are all invalid for it do not stay so.
      const bool uniform = !agents || !problem.foundValid();
      problem.startBatch(count, uniform);
      draws.push_back(uniform ? AgentNetworks::Draw{0.0f, nullptr, nullptr}
                              : problem.draw());
      drawing = drawing || !uniform;
    }
    if (agents && drawing)
      agents->sample(draws);
    for (size_t p = 0; p < problems.size(); ++p) {
      problems[p].placeSuggestions();
      problems[p].toParameters(proposals[p], options.fitSpread);
    }
  }

  void learnFrom(const std::vector<Proposals> &proposals,
                 const std::vector<std::vector<Feedback>> &feedback) {
    told += int64_t(proposals.empty() ? 0 : proposals[0].size());
    TORCH_CHECK(options.testThrowAfter == 0 || told < options.testThrowAfter,
                "policy-test-throw-after: a failure made on purpose after ",
                told, " samples");
    if (!agents) {
      bool warm = true;
      for (size_t p = 0; p < problems.size(); ++p)
        warm = problems[p].warmUp(feedback[p]) && warm;
      if (warm)
        startLearning();
      return;
    }
    if (refining) {
      for (size_t p = 0; p < problems.size(); ++p)
        problems[p].record(feedback[p]);
      --refineLeft;
      return;
    }
    std::vector<AgentNetworks::Lesson> lessons;
    size_t rows = 0;
    for (size_t p = 0; p < problems.size(); ++p) {
      lessons.push_back(problems[p].lessonFrom(feedback[p]));
      rows = std::max(rows, feedback[p].size());
    }
    // Rows padded to what a batch and the replay can hold, so the networks'
    // shapes are the same at every update and in every pack.
    agents->learn(lessons, int64_t(rows) + options.replay, options);
    restartStalled();
    if (options.refine > 0 && options.replay > 0) {
      std::vector<AgentNetworks::Lookup> lookups;
      for (ProblemLearner &problem : problems)
        lookups.push_back(problem.eliteLookup());
      agents->conditionals(lookups, options.replay);
      refineLeft = options.refine;
    }
  }

  /// With options.restart: the agents of every problem, or of every share
  /// class whose problems all, went their restart window without a new
  /// best start over (AgentNetworks::restart), so a search that has
  /// settled on one basin looks for another.
  void restartStalled() {
    if (options.restart == 0)
      return;
    for (const std::vector<size_t> &members : restartGroups) {
      bool stalled = true;
      for (size_t p : members)
        stalled = stalled && problems[p].foundValid() &&
                  problems[p].samplesSinceBest() >= problems[p].restartWindow();
      if (!stalled)
        continue;
      agents->restart(members);
      for (size_t p : members)
        problems[p].forgetElites();
    }
  }

  void startLearning() {
    std::vector<AgentNetworks::Member> members;
    for (size_t p = 0; p < problems.size(); ++p) {
      members.push_back(problems[p].agentsFromWarmup());
      members.back().scope = scopes[p];
      if (observesProblems())
        members.back().features = observedFeatures(features[p]);
      // Problems of one group and op kind share the agents of their
      // common decisions.
      if (options.share > 0)
        members.back().shareClass = shareClasses[p];
    }
    agents = std::make_unique<AgentNetworks>(
        std::move(members), options.learningRate, options.autoregressive);
    if (options.weights)
      startedFromWeights =
          agents->startFrom(*options.weights, options.weightsTemperature);
  }

  PolicyOptions options;
  std::vector<ProblemLearner> problems;
  /// Each problem's scope (AgentNetworks::Member); its features when
  /// observesProblems(), and its share class when its agents are shared.
  std::vector<std::string> scopes;
  std::vector<ProblemFeatures> features;
  std::vector<int> shareClasses;
  /// The problems whose agents restart together (restartStalled).
  std::vector<std::vector<size_t>> restartGroups;
  std::unique_ptr<AgentNetworks> agents;
  /// Each problem's agents that started from options.weights.
  std::vector<size_t> startedFromWeights;
  /// Each problem's agents, for the driver (agentView).
  std::vector<ProblemAgents> views;
  /// Whether startFrom gave each problem a whole warm-up.
  std::vector<char> warmFrom;
  int64_t told = 0;
  /// Refinement rounds left before the next update, and whether the
  /// pending round is one.
  unsigned refineLeft = 0;
  bool refining = false;
  /// Why the search stopped, when something failed underneath.
  std::string failed;
};

/// A pack of one, as a Searcher.
class PolicySearcher : public Searcher {
public:
  PolicySearcher(const MapSpace &space, uint64_t seed,
                 const SearchBudget &budget, const PolicyOptions &options)
      : pack({&space}, {seed}, {0}, budget, options) {}

  void ask(unsigned count, std::vector<Vector> &proposals) override {
    batch.resize(1);
    batch[0].swap(proposals);
    pack.ask(count, batch);
    batch[0].swap(proposals);
  }

  void tell(const std::vector<Vector> &proposals,
            const std::vector<Feedback> &feedback) override {
    // The pack reads only how many proposals there were.
    batch.resize(1);
    batch[0].resize(proposals.size());
    outcomes.assign(1, feedback);
    pack.tell(batch, outcomes);
  }

  std::string failure() const override { return pack.failure(); }
  const AgentView *agentView() const override { return pack.agentView(0); }

private:
  PolicyPack pack;
  std::vector<Proposals> batch;
  std::vector<std::vector<Feedback>> outcomes;
};

} // namespace

} // namespace marlmap

// The entry points PolicyLoader.cpp looks up after loading this library.

/// Run once, by the thread that loads the library. One intra-op thread, in
/// LibTorch and in the BLAS under it: a search's results do not depend on
/// the machine's cores (LibTorch's reductions split by thread), and
/// searches of different problems run side by side instead.
extern "C" __attribute__((visibility("default"))) void
marlmapInitPolicyLibrary() {
  torch::set_num_threads(1);
  marlmap::multiplyOnCallingThreads();
}

/// A new searcher, or nullptr with the reason in `error`.
extern "C" __attribute__((visibility("default"))) marlmap::Searcher *
marlmapMakePolicySearcher(const marlmap::MapSpace *space, uint64_t seed,
                          const marlmap::SearchBudget *budget,
                          const marlmap::PolicyOptions *options,
                          std::string *error) {
  try {
    return new marlmap::PolicySearcher(*space, seed, *budget, *options);
  } catch (const std::exception &e) {
    *error = std::string("cannot make the policy searcher: ") + e.what();
  } catch (...) {
    *error = "cannot make the policy searcher";
  }
  return nullptr;
}

/// A new pack searching `count` problems in lockstep (`groups`: each
/// problem's group, or nullptr for all one), or nullptr with the reason in
/// `error`.
extern "C" __attribute__((visibility("default"))) marlmap::NetworkSearcher *
marlmapMakePolicyPack(const marlmap::MapSpace *const *spaces,
                      const uint64_t *seeds, const unsigned *groups,
                      size_t count, const marlmap::SearchBudget *budget,
                      const marlmap::PolicyOptions *options,
                      std::string *error) {
  try {
    return new marlmap::PolicyPack(
        std::vector<const marlmap::MapSpace *>(spaces, spaces + count),
        std::vector<uint64_t>(seeds, seeds + count),
        groups ? std::vector<unsigned>(groups, groups + count)
               : std::vector<unsigned>(count, 0),
        *budget, *options);
  } catch (const std::exception &e) {
    *error = std::string("cannot make the policy searcher: ") + e.what();
  } catch (...) {
    *error = "cannot make the policy searcher";
  }
  return nullptr;
}
