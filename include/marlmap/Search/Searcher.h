//===- Searcher.h - Searching a map space by asking and telling -*- C++ -*-===//
//
// A searcher proposes parameter vectors (ask) and learns their costs (tell),
// Timeloop's Next/Report. The driver evaluates every proposal with the cost
// model and counts it against the budget, valid or not, so that searchers
// are compared at equal samples.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_SEARCHER_H
#define MARLMAP_SEARCH_SEARCHER_H

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Search/PolicyWeights.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

enum class Objective { Latency, Energy, EDP };
/// An objective as users name it: the one table of them.
struct ObjectiveEntry {
  Objective objective;
  const char *name;
  /// What it measures, for help.
  const char *help;
};
/// Every objective, in the order help lists them.
const std::vector<ObjectiveEntry> &objectiveRegistry();
const char *objectiveName(Objective objective);
std::optional<Objective> parseObjective(const std::string &name);
/// Lower is better: cycles, pJ, or pJ x cycles.
double objectiveValue(const Evaluation &evaluation, Objective objective);
/// The same objective at the model's lower bounds: what no mapping beats.
double objectiveBound(const LowerBound &bound, Objective objective);
/// How far `evaluation` is above the model's lower bound on `objective`
/// (1 at the bound).
double boundRatio(const Evaluation &evaluation, const LowerBound &bound,
                  Objective objective);

/// The outcome of one proposal, as a searcher learns it.
struct Feedback {
  bool valid = false;
  /// The objective when valid.
  double cost = 0.0;
};

/// What a searcher proves about the space it searched: no point's objective
/// is below `lowerBound`, and with `complete` the best point it proposed
/// attains it (the optimum).
struct SearchCertificate {
  double lowerBound = 0.0;
  bool complete = false;
};

/// What a searcher made of agents (marl, sarl) tells beyond its
/// proposals; the others have none (Searcher::agentView).
class AgentView {
public:
  virtual ~AgentView() = default;
  /// The decisions each agent owns (indices into DecisionSpace), once they
  /// are settled.
  virtual std::vector<std::vector<unsigned>> clusters() const = 0;
  /// The names of the decisions clusters() indexes.
  virtual std::vector<std::string> decisionNames() const = 0;
  /// Adds each agent, as it is now, to `into`, unless `into` holds one of
  /// its key already (PolicyWeights.h).
  virtual void learntWeights(PolicyWeights &into) const = 0;
  /// How many started from saved weights (PolicyOptions::weights).
  virtual size_t agentsFromWeights() const = 0;
};

class Searcher {
public:
  virtual ~Searcher() = default;
  /// Replaces the contents of `proposals` with up to `count` proposals
  /// (each one value per parameter of the space), reusing its storage;
  /// none when the searcher has nothing left to propose.
  virtual void ask(unsigned count,
                   std::vector<std::vector<int64_t>> &proposals) = 0;
  /// The feedback for the proposals of the last ask, in order.
  virtual void tell(const std::vector<std::vector<int64_t>> &proposals,
                    const std::vector<Feedback> &feedback) = 0;
  /// Why the searcher stopped proposing early, when something underneath
  /// it failed (a LibTorch error in a policy update, say); "" otherwise.
  virtual std::string failure() const { return ""; }
  /// Its agents, for searchers made of them; null for the others.
  virtual const AgentView *agentView() const { return nullptr; }
  /// For searchers that bound the space (`optimal`): what they proved so
  /// far; nullopt for the others.
  virtual std::optional<SearchCertificate> certificate() const {
    return std::nullopt;
  }
  /// Whether the searcher, once stopped by its seconds, could go on from
  /// where it stopped (the exact searcher, until it has proved its
  /// optimum). The others cannot: their search ends with their time.
  virtual bool canResume() const { return false; }
  /// When it can resume: gives it `seconds` (above 0) more, counted from
  /// now, and returns true; otherwise false.
  virtual bool resume(double seconds) { return false; }
};

/// Points a search of a problem drew and how they fared: what another
/// searcher of the same problem can start from (NetworkSearcher::startFrom).
struct SearchHistory {
  std::vector<std::vector<int64_t>> points;
  std::vector<Feedback> feedback;
};

/// Several problems searched together, in lockstep: every round, one ask
/// and one tell for all of them. A searcher that batches their work (the
/// policy pack, PolicyLibrary.h, whose problems each get what they get
/// searched alone) or learns across them takes this form.
class NetworkSearcher {
public:
  using Proposals = std::vector<std::vector<int64_t>>;
  virtual ~NetworkSearcher() = default;
  /// Replaces `proposals[p]` with up to `count` proposals for problem p;
  /// all empty when there is nothing left to propose.
  virtual void ask(unsigned count, std::vector<Proposals> &proposals) = 0;
  /// The feedback for every problem's proposals of the last ask.
  virtual void tell(const std::vector<Proposals> &proposals,
                    const std::vector<std::vector<Feedback>> &feedback) = 0;
  /// As Searcher::failure; a failure ends every problem's search.
  virtual std::string failure() const { return ""; }
  /// How many other problems' best mappings the searcher would try for
  /// each of its problems between rounds (0: none; docs/Search.md,
  /// "Learning across problems").
  virtual unsigned suggestionsWanted() const { return 0; }
  /// A point of problem p's space worth trying: it joins p's next batch
  /// and counts as a sample like the others.
  virtual void suggest(size_t problem, std::vector<int64_t> point) {}
  /// Problem p's agents, as Searcher::agentView.
  virtual const AgentView *agentView(size_t problem) const { return nullptr; }
  /// What it drew for problem p that another searcher can start from.
  virtual SearchHistory history(size_t problem) const { return {}; }
  /// Starts problem p's search from what another searcher drew for it, as
  /// though it had drawn that itself; before the first ask.
  virtual void startFrom(size_t problem, const SearchHistory &history) {}
};

struct GeneticOptions {
  unsigned population = 64;
  unsigned tournament = 3;
  /// Chance that a child's parameter is drawn afresh.
  double mutationRate = 0.1;
};

struct AnnealingOptions {
  /// In units of log cost: 1.0 accepts a 2.7x worse neighbour with
  /// probability 1/e at the start.
  double initialTemperature = 1.0;
  double finalTemperature = 0.005;
  /// A neighbour redraws 1 to maxChanges parameters.
  unsigned maxChanges = 2;
};

/// The reinforcement-learning searchers (docs/Search.md). `marl`: one
/// policy-gradient agent per cluster of interacting decisions, all trained
/// on the shared reward; `sarl`: one agent for every decision, with about as
/// many network weights as marl's agents together.
struct PolicyOptions {
  /// Uniform samples before learning; marl clusters its decisions on them.
  unsigned warmup = 64;
  /// Width of each agent's two hidden layers (sarl sizes its own). Narrow
  /// agents are about as good per sample and cost about half
  /// (docs/Search.md, "Sharing agents").
  unsigned hidden = 8;
  /// The best distinct proposals found so far that join every update, at
  /// the top of the ranking (self-imitation); 0 learns from each batch
  /// alone.
  unsigned replay = 16;
  double learningRate = 0.03;
  unsigned epochs = 4;
  double clip = 0.2;
  double entropy = 0.02;
  /// Each agent draws its decisions jointly (autoregressive); false: each
  /// decision independently given the observation (a factorised head).
  bool autoregressive = true;
  /// Proposals that spread wider than a fanout are fitted before they are
  /// evaluated (DecisionSpace::fitSpread), and learnt from as fitted; false:
  /// they are invalid samples (docs/Search.md, "Fitting the fanouts").
  bool fitSpread = true;
  /// Each level's spread along each axis is a decision of its own, which
  /// the copies of the primes follow (DecisionSpace's levelSpreads; the
  /// perfect space only); false: the copies alone place the spatial
  /// factors (docs/Search.md, "Spreads as decisions").
  bool levelSpreads = true;
  /// How rewards become advantages (both by rank only): NES-style
  /// utilities that pull the better half up, the best most, or centred
  /// ranks, linear in the rank.
  enum class Advantage { Utilities, Ranks };
  Advantage advantage = Advantage::Utilities;
  /// When non-zero: the entropy bonus doubles for every `stall` samples in
  /// a row without a new best (up to 8x), and returns on a new best.
  unsigned stall = 0;
  /// When non-zero: after this many samples without a new best, or
  /// 1/`restartShare` of the samples the problem's budget lets it draw
  /// when that is more (0: `restart` alone) but at most `restartMost` (0:
  /// no most), a problem's agents (with a share class, once every problem
  /// of it has stalled so) restart from a uniform policy and forget their
  /// elites (docs/Search.md, "Restarts"). The searchers' `auto`, their
  /// default, sets all three.
  unsigned restart = 2000;
  unsigned restartShare = 0;
  unsigned restartMost = 0;
  /// After every update, this many rounds that refine the best proposals
  /// so far instead of drawing afresh: one or two of an elite's decisions
  /// redrawn from the agents' own distribution for them (0: off;
  /// docs/Search.md, "Refining the elites"). The searchers' `auto`, their
  /// default, sets it from the budget.
  unsigned refine = 0;
  /// In a network's search: how many of the most similar other problems'
  /// best mappings each problem tries, recast for it, whenever they
  /// improve (0: problems learn alone; docs/Search.md).
  unsigned transfer = 16;
  /// In a network's search: the problems are packed in groups of up to
  /// this many alike ones of one op kind (groupSimilarProblems), and the
  /// agents of a group that own the same decisions are one agent, trained
  /// on every problem of the group, which it tells apart by their features
  /// in its observation (0: every problem has its own agents;
  /// docs/Search.md, "Sharing agents").
  unsigned share = 8;
  /// Automatic: decisions that interact share an agent; Correlation: those
  /// whose correlation with the objective is alike (Clustering.h).
  enum class Clustering { Automatic, Correlation, PerDecision, Random, Single };
  Clustering clustering = Clustering::PerDecision;
  /// With Automatic or Correlation: exactly this many agents when non-zero.
  unsigned agents = 0;
  /// Agents to start from where their keys match (`policy-weights`);
  /// none when null. Read only, so searches may share them.
  std::shared_ptr<const PolicyWeights> weights;
  /// What the output layers of agents started from `weights` are divided
  /// by: above 1, their first policies are flatter than the saved ones and
  /// the search explores more (docs/Search.md, "Pretrained agents").
  double weightsTemperature = 3.0;
  /// Testing only: a LibTorch error is raised in the update once this many
  /// samples have been told (0: never), to test how failures surface.
  int64_t testThrowAfter = 0;
};

/// What a search may spend: `samples` (0: no cap), and wall-clock seconds
/// when `seconds` is positive (a result then depends on the machine's
/// speed).
struct SearchBudget {
  SearchBudget(int64_t samples = 1000, double seconds = 0.0)
      : samples(samples), seconds(seconds) {}
  int64_t samples;
  double seconds;
};

/// How far a search is through its budget, from when the clock was made:
/// the samples' share when they are capped, else the time's. Searchers that
/// follow a schedule (annealing's cooling, the policies' observation) read
/// it, so that a search limited by time alone runs its whole schedule too,
/// and one with a sample cap schedules the same whatever the time.
class BudgetClock {
public:
  explicit BudgetClock(SearchBudget budget)
      : budget(budget), start(std::chrono::steady_clock::now()) {}
  /// Whether the schedule follows the clock rather than the samples.
  bool followsTime() const { return budget.samples <= 0 && budget.seconds > 0; }
  /// In [0, 1].
  double fraction(int64_t samples) const;
  /// Whether the budget has seconds and they are spent, whatever the
  /// samples.
  bool secondsSpent() const {
    return budget.seconds > 0 && elapsed() >= budget.seconds;
  }

private:
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

  SearchBudget budget;
  std::chrono::steady_clock::time_point start;
};

/// The largest space exhaustive search accepts.
constexpr int64_t kMaxExhaustivePoints = 10'000'000;

/// Uniform samples, like Timeloop's random mapper.
std::unique_ptr<Searcher> makeRandomSearcher(const MapSpace &space,
                                             uint64_t seed);
/// Every point in order (the true optimum of a small space); an error when
/// the space has more points than kMaxExhaustivePoints or than `samples`
/// (when they are capped).
llvm::Expected<std::unique_ptr<Searcher>>
makeExhaustiveSearcher(const MapSpace &space, int64_t samples);
/// GAMMA-style genetic search.
std::unique_ptr<Searcher> makeGeneticSearcher(const MapSpace &space,
                                              uint64_t seed,
                                              const GeneticOptions &options);
/// SALSA-style simulated annealing, cooling over `budget`.
std::unique_ptr<Searcher>
makeAnnealingSearcher(const MapSpace &space, uint64_t seed,
                      const SearchBudget &budget,
                      const AnnealingOptions &options);

/// Where the exact searcher's descents start besides its best mapping:
/// from a few random moves away from it (kicks), from the better mappings
/// of a genetic population it evolves on the side, or from both in turn.
enum class OptimalRestarts { Kicks, Genetic, Both };

struct OptimalOptions {
  /// Whether each better mapping found has its neighbours evaluated (local
  /// improvement: better mappings sooner, the same proof), and new
  /// descents start from `restarts` in the walks' spare time.
  bool polish = true;
  OptimalRestarts restarts = OptimalRestarts::Both;
  /// Draws the kicks and the genetic population.
  uint64_t seed = 1;
};

/// The exact searcher (docs/Search.md, "The exact searcher"): branch and
/// bound over partial mappings, outermost level first, that proves the
/// least `objective` of the space once it has nothing left to propose.
/// It stops proposing once `budget`'s seconds are spent, even between
/// proposals.
std::unique_ptr<Searcher>
makeOptimalSearcher(const MapSpace &space, Objective objective,
                    const SearchBudget &budget,
                    const OptimalOptions &options = OptimalOptions());

/// The policy searchers' uniform warm-up on its own, without LibTorch:
/// each problem's decisions (DecisionSpace, as `options` make them) drawn
/// uniformly, as marl and sarl draw their first batch, from a generator of
/// its own seeded by seeds[p], and fitted into the fanouts with
/// options.fitSpread. It runs while the policy library loads, and hands the
/// policy pack (startFrom) each problem's first options.warmup draws and its
/// options.replay best valid ones (history).
std::unique_ptr<NetworkSearcher>
makeUniformWarmUp(const std::vector<const MapSpace *> &spaces,
                  const std::vector<uint64_t> &seeds,
                  const PolicyOptions &options);

/// A hybrid (docs/Search.md, "marl with the exact searcher's polish"):
/// batches of `inner`'s proposals, each followed, while it has neighbours
/// queued, by a batch of the exact searcher's polish descending from every
/// better mapping either finds (mappings one prime move, swap or keep flip
/// away). `inner` is told of its own proposals only. `space` must be the
/// perfect factor space (the polish walks its factor slots).
std::unique_ptr<Searcher> makePolishedSearcher(const MapSpace &space,
                                               Objective objective,
                                               std::unique_ptr<Searcher> inner,
                                               uint64_t seed);

struct SearchResult {
  bool found = false;
  Mapping best;
  Evaluation bestEvaluation;
  double bestCost = 0.0;
  int64_t samples = 0;
  int64_t validSamples = 0;
  /// Whether the stop rule ended the search before the budget.
  bool stoppedEarly = false;
  double seconds = 0.0;
  /// The searcher's failure, when it stopped because of one: the search
  /// ended there and `best` is only what was found before.
  std::string error;
  /// (samples so far, best cost so far) after every improvement.
  std::vector<std::pair<int64_t, double>> curve;
  /// What the searcher proved (Searcher::certificate).
  std::optional<SearchCertificate> certificate;
};

struct SearchOptions {
  Objective objective = Objective::EDP;
  /// Samples at most.
  int64_t budget = 1000;
  /// When positive: the search also ends once it has run this many
  /// seconds (checked between batches, after the first).
  double seconds = 0.0;
  /// Proposals asked for at a time.
  unsigned batch = 64;
  /// Timeloop's stop rule: stop after this many samples in a row that do
  /// not improve on the best (0: run the whole budget).
  int64_t stopAfter = 0;
  /// Called after every batch with (samples, budget); for a network, the
  /// samples of all its problems together.
  std::function<void(int64_t, int64_t)> progress;
};

/// Runs `searcher` on `space` until the budget (samples or seconds) is
/// spent.
SearchResult runSearch(const MapSpace &space, Searcher &searcher,
                       const SearchOptions &options);
/// Runs more of the search whose result so far is `result`, after the
/// searcher was resumed (Searcher::resume): `options.budget` caps the
/// samples of both runs together, `options.seconds` this run's time; the
/// result gains this run's samples, improvements and seconds, and the
/// searcher's certificate as it now stands.
void continueSearch(const MapSpace &space, Searcher &searcher,
                    const SearchOptions &options, SearchResult &result);

/// Runs `searcher` on every space of `spaces` (the problems it was made
/// for, in order) until each has spent the budget; the stop rule
/// (`stopAfter`) is not applied; a time budget ends every problem's search
/// at once. One result per space.
std::vector<SearchResult>
runNetworkSearch(const std::vector<const MapSpace *> &spaces,
                 NetworkSearcher &searcher, const SearchOptions &options);

/// runNetworkSearch a round at a time, for a driver that acts between
/// rounds (passing mappings between problems, say). The clock starts at
/// construction.
class NetworkSearchRun {
public:
  /// `before`: each problem's result of an earlier search, which this one
  /// goes on from (its samples count towards the budget).
  NetworkSearchRun(std::vector<const MapSpace *> spaces,
                   NetworkSearcher &searcher, SearchOptions options,
                   std::vector<SearchResult> before = {});
  /// One ask, evaluate and tell for every problem; false, having done
  /// nothing, once the budget is spent or the searcher has nothing left.
  bool round();
  /// Problem p's result so far.
  const SearchResult &result(size_t problem) const { return results[problem]; }
  /// The results, with the searcher's failure and the time; the run is
  /// over.
  std::vector<SearchResult> finish();

private:
  std::vector<const MapSpace *> spaces;
  NetworkSearcher &searcher;
  SearchOptions options;
  std::chrono::steady_clock::time_point start;
  std::vector<SearchResult> results;
  std::vector<NetworkSearcher::Proposals> proposals;
  std::vector<std::vector<Feedback>> feedback;
  Mapping mapping;
  Evaluation evaluation;
  int64_t samples = 0;
  /// Each problem's seconds in the search it goes on from.
  std::vector<double> earlierSeconds;
  /// The searcher had nothing left to propose.
  bool over = false;
};

} // namespace marlmap

#endif // MARLMAP_SEARCH_SEARCHER_H
