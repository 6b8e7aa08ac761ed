//===- Mapper.h - Map a network's problems onto an accelerator --*- C++ -*-===//
//
// The one call the passes, the tools and embedders make: given the problems
// of a network (one per op; equal problems are searched once), an
// accelerator, an objective, a searcher and a budget, the Mapper looks
// results up in the cache, searches the rest on the caller's executor,
// stores what it found, and returns each distinct problem's outcome and the
// network's totals. No MLIR in sight: the passes load problems from IR and
// save the outcomes as attributes.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_MAPPER_H
#define MARLMAP_MAPPER_MAPPER_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"
#include "marlmap/Mapper/Budgets.h"
#include "marlmap/Mapper/Registry.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// Where searches run.
class Executor {
public:
  virtual ~Executor() = default;
  /// How many tasks run at once.
  virtual unsigned concurrency() const = 0;
  /// Runs task(0), ..., task(count - 1), at most concurrency() at a time;
  /// returns when all are done.
  virtual void run(unsigned count,
                   const std::function<void(unsigned)> &task) = 0;
};

/// Threads of its own: `threads` of them (0: one per core; 1: the calling
/// thread only).
std::unique_ptr<Executor> makeThreadExecutor(unsigned threads);

/// One op's problem.
struct MapperProblem {
  Problem problem;
  /// A mapping the user gave: costed and checked, not searched.
  std::optional<Mapping> given;
};

struct MapperRequest {
  Arch arch;
  Objective objective = Objective::EDP;
  SearcherConfig searcher;
  /// The factors loops may take (MapSpace.h): perfect, or with partial
  /// tiles.
  FactorSpace factors = FactorSpace::Perfect;
  /// `factors=auto`: each problem takes `factors` only where the perfect
  /// space cannot fill the arrays nearly as well and that matters to the
  /// network (factorSpacesFor), else the perfect space
  /// (ProblemOutcome::factors says which).
  bool factorsWhereTheyPay = false;
  /// Samples per distinct problem. 0: kDefaultBudget without a time budget,
  /// no cap with one (Budgets.h).
  int64_t samples = 0;
  /// Wall-clock seconds for the whole network (0: none), shared among the
  /// problems searched (docs/Mapper.md says how); whichever of the two
  /// budgets runs out first ends a search.
  double seconds = 0;
  uint64_t seed = 1;
  /// Timeloop's victory condition: a search ends after this many samples
  /// in a row without improvement (0: off; searchers of one problem only).
  int64_t stopAfter = 0;
  /// SQLite file or postgresql:// database of earlier results
  /// (MappingCache.h); "" for none.
  std::string cache;
};

/// The `factors` option as `request` took it: a space's name, or "auto".
const char *factorsOptionName(const MapperRequest &request);
/// The spaces `request` searches a network's distinct problems in, each
/// occurring `counts[i]` times: its `factors`, or under `factors=auto`
/// `factors` for those partialTilesPay picks (ArrayFloor.h) and the perfect
/// space for the others (for a problem without a space of partial tiles on
/// the arch, and for every problem of a searcher that walks whole factors
/// only). The problems' floors are computed on `executor`.
std::vector<FactorSpace> factorSpacesFor(const MapperRequest &request,
                                         const std::vector<Problem> &problems,
                                         const std::vector<int64_t> &counts,
                                         Executor &executor);

/// Where a distinct problem's mapping came from.
enum class Source { Searched, Cached, Given };
const char *sourceName(Source source);

/// What became of one distinct problem.
struct ProblemOutcome {
  Problem problem;
  /// The space it was searched in (MapperRequest::factors, or under
  /// `factors=auto` the one chosen for it).
  FactorSpace factors = FactorSpace::Perfect;
  /// The indices of the input problems it stands for.
  std::vector<size_t> inputs;
  Source source = Source::Searched;
  bool found = false;
  Mapping mapping;
  Evaluation evaluation;
  LowerBound bound;
  /// The objective over its lower bound (1 at the bound).
  double boundRatio = 0.0;
  /// No mapping of the space has a lower objective (in its units): the
  /// model's lower bound, or what the searcher proved when it bounds the
  /// space (`optimal`), whichever is higher.
  double objectiveLowerBound = 0.0;
  /// The searcher bounds the space (Searcher::certificate).
  bool bounded = false;
  /// `evaluation` is the least objective of the space: the searcher proved
  /// it, or it equals a proven optimum the cache keeps.
  bool provedOptimal = false;
  /// The figures of the problem's proven optimum, when one is known: proved
  /// by this search, or kept in the cache by an earlier one of any
  /// searcher (ProvenOptima.h).
  std::optional<Evaluation> optimum;
  int64_t samples = 0;
  int64_t validSamples = 0;
  /// The victory condition ended the search before its budget.
  bool stoppedEarly = false;
  double seconds = 0.0;
  /// When not found: why ("no valid mapping among N samples", or why it
  /// has no map space). The ops are left unmapped.
  std::string notFound;
  /// Not found because the problem has no map space on the arch (its
  /// constraints contradict the problem or leave nothing that fits): worth
  /// a warning, where an unlucky search is worth a remark.
  bool noMapSpace = false;
  /// A failure that should fail the compile: a searcher that failed
  /// underneath, or a given mapping that does not fit or is invalid.
  std::string error;
  /// (samples, best cost) after every improvement, when searched.
  std::vector<std::pair<int64_t, double>> curve;
  /// The decisions each agent owned, by name, for searchers made of
  /// agents (searched one problem at a time).
  std::vector<std::vector<std::string>> agents;
  /// How many of them started from saved weights (`policy-weights`).
  size_t agentsFromWeights = 0;
};

/// Where a bounding searcher's result stands: "proved optimal", or "not
/// proved optimal: edp lower bound 1.2e14, at most 35.0% above the
/// optimum"; "" for a searcher that bounds nothing or found nothing.
std::string optimumText(const ProblemOutcome &outcome, Objective objective);

/// How far the outcome's objective is above its problem's proven optimum,
/// as a fraction (0.05: 5% above); nullopt when no optimum is known.
std::optional<double> gapToOptimum(const ProblemOutcome &outcome,
                                   Objective objective);

/// The network's figures over its mapped ops, run one after another.
struct NetworkTotals {
  double energy = 0.0;
  int64_t cycles = 0;
  /// energy x cycles.
  double edp = 0.0;
  /// cycles at the accelerator's clock.
  double latencySeconds = 0.0;
  int64_t macs = 0;
  size_t opsMapped = 0;
  size_t opsNotMapped = 0;
  size_t distinctProblems = 0;
  size_t searched = 0;
  size_t cacheHits = 0;
  /// Mappings the ops carried, costed.
  size_t given = 0;
  int64_t samples = 0;
  double seconds = 0.0;
  /// The network's objective over the same objective of its ops' proven
  /// optima, minus 1, when every mapped op has one (for EDP, over the
  /// product of the optima's summed energy and cycles: per-op optima need
  /// not minimise the network's EDP, so this can fall below 0).
  std::optional<double> gapToOptimum;
};

struct MapperResult {
  /// Distinct problems, in the order they first appear in the input.
  std::vector<ProblemOutcome> problems;
  /// The distinct problem of every input problem.
  std::vector<size_t> distinctOf;
  NetworkTotals totals;
  /// Trouble that did not stop the mapping (a cache that cannot be read).
  std::vector<std::string> warnings;
  /// A failure of the network's search as a whole, which should fail the
  /// compile though every op's outcome stands (the learnt weights could
  /// not be written); "" when none.
  std::string error;
  /// Whether `error` is the caller's setting rather than a failure
  /// underneath: a policy library that does not load (nothing searched).
  bool errorIsSetting = false;
};

/// What a progress display sees.
struct MapperEvent {
  enum class Kind { Start, Progress, ProblemDone, Finish };
  Kind kind;
  /// Problems to search, and how many of them are done.
  size_t total = 0;
  size_t done = 0;
  /// Samples spent so far, over all problems.
  int64_t samples = 0;
  double seconds = 0.0;
  /// The time budget, 0 without one.
  double secondsBudget = 0.0;
  /// The samples each problem may spend, 0 when time alone limits them.
  int64_t sampleCap = 0;
  /// ProblemDone: which distinct problem, and its outcome.
  const ProblemOutcome *outcome = nullptr;
  size_t problem = 0;
};
/// Called on any thread, one call at a time.
using ProgressCallback = std::function<void(const MapperEvent &)>;

class Mapper {
public:
  /// A mapper for `request`, or why the request cannot be run (a bad
  /// option, an impossible accelerator, a policy library that cannot be
  /// loaded: it is loaded here, on the caller's thread). Front ends build
  /// the request from named options with makeMapper (FrontEnd.h).
  static llvm::Expected<std::unique_ptr<Mapper>> create(MapperRequest request);

  const MapperRequest &request() const { return request_; }

  /// Maps `problems` (one per op).
  MapperResult map(const std::vector<MapperProblem> &problems,
                   Executor &executor,
                   const ProgressCallback &progress = {}) const;

private:
  explicit Mapper(MapperRequest request) : request_(std::move(request)) {}
  MapperRequest request_;
};

} // namespace marlmap

#endif // MARLMAP_MAPPER_MAPPER_H
