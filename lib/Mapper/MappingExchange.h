//===- MappingExchange.h - Best mappings passed between problems -*- C++ -*-===//
//
// A network's problems searched in packs learn from each other between
// rounds: each problem is given, recast for it (Transfer.h), the best
// mappings its most similar problems have found since it last heard from
// them. The problems are visited in the network's order whatever pack they
// are in, so what a problem is given does not depend on how the problems
// were packed, and a search under a sample budget gives the same results on
// any number of threads.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_MAPPINGEXCHANGE_H
#define MARLMAP_LIB_MAPPER_MAPPINGEXCHANGE_H

#include "marlmap/Search/Searcher.h"

#include <vector>

namespace marlmap {

class MappingExchange {
public:
  /// One problem of the network: its space, and where its search runs.
  struct Member {
    const MapSpace *space;
    const NetworkSearchRun *run;
    NetworkSearcher *searcher;
    /// Its index in its run and searcher.
    size_t local;
  };

  /// Every problem listens to its `neighbours` most similar problems of
  /// the same op kind (problemDistance; ties to the earlier).
  MappingExchange(std::vector<Member> members, unsigned neighbours);

  /// Suggests to every problem the neighbours' new best mappings.
  void exchange();

private:
  std::vector<Member> members;
  /// Per member: its neighbours, and how many improvements of each it has
  /// been given.
  std::vector<std::vector<size_t>> neighboursOf;
  std::vector<std::vector<size_t>> heard;
};

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_MAPPINGEXCHANGE_H
