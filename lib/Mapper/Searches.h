//===- Searches.h - The distinct problems searched on an executor -*- C++
//-*-===//

#ifndef MARLMAP_LIB_MAPPER_SEARCHES_H
#define MARLMAP_LIB_MAPPER_SEARCHES_H

#include "ProgressHub.h"

namespace marlmap {

/// One distinct problem to search, and where its outcome goes.
struct SearchJob {
  size_t index;
  uint64_t seed;
  /// Its share of a time budget (docs/Mapper.md): half the time is shared
  /// equally, half by the problem's share of the network's MACs.
  double weight;
  ProblemOutcome *outcome;
};

/// Searches every job with `request`'s searcher and budgets, as many at
/// once as `executor` runs. Searchers that take several problems at once
/// get the jobs in one pack per worker, each pack stepped in lockstep;
/// the others get one job at a time. Each outcome depends only on its
/// problem, its seed and the request (under a sample budget).
void searchJobs(const std::vector<SearchJob> &jobs,
                const MapperRequest &request, Executor &executor,
                ProgressHub &hub);

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_SEARCHES_H
