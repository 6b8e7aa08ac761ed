//===- Searches.h - Distinct problems searched on an executor ---*- C++ -*-===//

#ifndef MARLMAP_LIB_MAPPER_SEARCHES_H
#define MARLMAP_LIB_MAPPER_SEARCHES_H

#include "ProgressHub.h"

#include <chrono>

namespace marlmap {

/// What a learning searcher's uniform warm-up drew for a problem while the
/// policy library loaded (docs/Mapper.md, "While LibTorch loads"): its
/// search goes on from there.
struct JobWarmUp {
  SearchResult result;
  SearchHistory history;
};

/// One distinct problem to search, and where its outcome goes.
struct SearchJob {
  size_t index = 0;
  uint64_t seed = 0;
  /// Its MACs times the ops that compute it.
  double macs = 0.0;
  /// Its share of a time budget (docs/Mapper.md): half an equal share, half
  /// its share of the network's MACs.
  double weight = 0.0;
  ProblemOutcome *outcome = nullptr;
  /// Its warm-up, when it had one.
  const JobWarmUp *warmUp = nullptr;
};

/// Searches every job with `request`'s searcher and budgets (a time budget
/// counted from `start`), as many at once as `executor` runs. Searchers
/// that take several problems at once get the jobs in one pack per worker,
/// each pack stepped in lockstep, or in groups of alike problems when they
/// learn across them (SearcherEntry::groupSize); the others get one job at
/// a time. Under a time budget alone (scheduleByTime), the light jobs
/// (under a tenth of an equal share of the MACs) are searched first, each
/// capped at the default budget's samples, and the others share the rest
/// of the time; not for searchers that prove optima.
/// Under a sample budget each outcome depends only on its problem,
/// its seed, the request and (for those that learn across problems, and
/// with mapping transfer) the network's other problems: never on the
/// thread count. With `learnt`, each job's searcher adds what its agents
/// learnt for that job's problem to (*learnt)[job]. A searcher that learns
/// loads the policy library first, inside the time budget (under a time
/// budget alone while the problems draw their uniform warm-up); an error
/// when it does not load.
llvm::Error searchJobs(const std::vector<SearchJob> &jobs,
                       const MapperRequest &request,
                       std::chrono::steady_clock::time_point start,
                       Executor &executor, ProgressHub &hub,
                       std::vector<PolicyWeights> *learnt = nullptr);

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_SEARCHES_H
