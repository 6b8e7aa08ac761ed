//===- MarlPolishEntry.cpp - marl with the exact searcher's polish --------===//
//
// `marl-polish`, a hybrid (docs/Search.md, "marl with the exact searcher's
// polish"): marl's proposals and options, each problem searched on its own
// (no agents shared across a network's problems), with the exact
// searcher's local descent from every better mapping found. Named apart
// from marl so that `marl` stays learned policies alone.
//
//===----------------------------------------------------------------------===//

#include "Entries.h"

namespace marlmap {

SearcherEntry marlPolishSearcherEntry() {
  SearcherEntry entry = marlSearcherEntry();
  entry.name = "marl-polish";
  entry.help = "A hybrid: marl's proposals, and the exact searcher's "
               "polish descending from every better mapping found (each "
               "problem on its own; factors=perfect only)";
  entry.perfectFactorsOnly = true;
  // The polish wraps one problem's searcher: a network's problems are
  // searched one by one, so policy-transfer changes nothing, and
  // policy-share only whether the agents observe their problem (which
  // policy-save needs).
  entry.makeNetwork = nullptr;
  entry.groupSize = nullptr;
  entry.make = [makeMarl = entry.make](
                   const SearcherRequest &request, const MapSpace &space,
                   uint64_t seed) -> llvm::Expected<std::unique_ptr<Searcher>> {
    llvm::Expected<std::unique_ptr<Searcher>> marl =
        makeMarl(request, space, seed);
    if (!marl)
      return marl.takeError();
    return makePolishedSearcher(space, request.objective, std::move(*marl),
                                seed);
  };
  return entry;
}

} // namespace marlmap
