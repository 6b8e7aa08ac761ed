//===- FrontEnd.h - What the pass, the tools and Python share ---*- C++ -*-===//
//
// The one way in for every front end: the options a user names become a
// checked Mapper; a mapping the user gives is costed; one problem is
// searched. `--marl-map`, marlmap-explore and the Python module call these
// and nothing else of the driver to get there; the MLIR side (a module's
// ops mapped and the outcome saved on them) is Transforms/ModuleMapping.h.
//
// Errors are llvm::Error (Errors.h says which kinds front ends tell apart).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_FRONTEND_H
#define MARLMAP_MAPPER_FRONTEND_H

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/Mapper.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace marlmap {

/// What a user asks for, by name, as the pass's options spell it.
struct MapperOptions {
  /// A registered objective.
  std::string objective = kDefaultObjective;
  /// The factor space: "perfect", "spatial-imperfect" or "imperfect", or
  /// "auto", the default: "spatial-imperfect" for the problems where
  /// partial tiles pay, "perfect" for the others
  /// (MapperRequest::factorsWhereTheyPay).
  std::string factors = kFactorsAuto;
  /// A registered searcher; "" for the default (kDefaultSearcher).
  std::string searcher;
  /// The searcher's options, by name, as text.
  std::map<std::string, std::string> searcherOptions;
  std::string policyLibrary;
  /// Samples per distinct problem; none: the default, or no cap under a
  /// time budget (Budgets.h).
  std::optional<int64_t> budget;
  /// Wall-clock seconds for the whole network; none: no time budget.
  std::optional<double> seconds;
  uint64_t seed = 1;
  /// Timeloop's victory condition (0: off).
  int64_t stopAfter = 0;
  /// SQLite file or postgresql:// database of earlier results; "" for
  /// none.
  std::string cache;
  /// Searches at once (0: one per core). The executor is the front end's;
  /// the count is checked here with the rest.
  int64_t threads = 0;
};

/// The request `options` make, without its accelerator: the names
/// converted, and what the conversion loses checked (a budget of 0 given,
/// the thread count); Mapper::create checks the request itself.
llvm::Expected<MapperRequest> makeRequest(const MapperOptions &options);
/// A Mapper of `options` for `arch`.
llvm::Expected<std::unique_ptr<Mapper>> makeMapper(const MapperOptions &options,
                                                   const Arch &arch);

/// A mapping the user gave, costed.
struct CostedMapping {
  /// Its figures; `valid` is false when the accelerator cannot run it
  /// (`describeInvalid` says why).
  Evaluation evaluation;
  /// The model's lower bounds for the problem on the accelerator.
  LowerBound bound;
};
/// The figures of `mapping` for `problem` on `arch`; an error ("does not
/// fit 'eyeriss': ...") when its shape does not match them.
llvm::Expected<CostedMapping>
costMapping(const Mapping &mapping, const Problem &problem, const Arch &arch);

/// One problem, searched.
struct SearchedProblem {
  /// The problem's map space on the accelerator: what reports describe.
  std::unique_ptr<MapSpace> space;
  /// The Mapper's result for the one problem: its warnings, its totals.
  MapperResult result;
  const ProblemOutcome &outcome() const { return result.problems.front(); }
};
/// `problem` searched by `mapper` on the calling thread. An error when it
/// has no map space on the accelerator, or a SearchError when the search
/// failed underneath; finding no valid mapping is an outcome, not an error.
llvm::Expected<SearchedProblem> searchProblem(const Mapper &mapper,
                                              const Problem &problem,
                                              const ProgressCallback &progress);

} // namespace marlmap

#endif // MARLMAP_MAPPER_FRONTEND_H
