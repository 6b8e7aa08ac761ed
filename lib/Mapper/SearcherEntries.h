//===- SearcherEntries.h - Each searcher's registry entry -------*- C++ -*-===//
//
// One function per searcher; Registry.cpp lists them. Adding a searcher is
// its implementation, its entry, and one line there.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_SEARCHERENTRIES_H
#define MARLMAP_LIB_MAPPER_SEARCHERENTRIES_H

#include "marlmap/Mapper/Registry.h"

namespace marlmap {

SearcherEntry randomSearcherEntry();
SearcherEntry exhaustiveSearcherEntry();
SearcherEntry optimalSearcherEntry();
SearcherEntry geneticSearcherEntry();
SearcherEntry annealingSearcherEntry();
SearcherEntry marlSearcherEntry();
SearcherEntry sarlSearcherEntry();

/// What marl (`hasAgents`) or sarl is made with from its option values,
/// for a search of `budget` (some defaults depend on it).
PolicyOptions readPolicy(const OptionValues &values, const SearchBudget &budget,
                         bool hasAgents);

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_SEARCHERENTRIES_H
