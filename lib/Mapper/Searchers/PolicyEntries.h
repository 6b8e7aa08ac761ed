//===- PolicyEntries.h - What marl and sarl are made with -------*- C++ -*-===//

#ifndef MARLMAP_LIB_MAPPER_SEARCHERS_POLICYENTRIES_H
#define MARLMAP_LIB_MAPPER_SEARCHERS_POLICYENTRIES_H

#include "marlmap/Mapper/Registry.h"

namespace marlmap {

/// What marl (`hasAgents`) or sarl is made with from its option values,
/// for a search of `budget` (some defaults depend on it).
PolicyOptions readPolicy(const OptionValues &values, const SearchBudget &budget,
                         bool hasAgents);

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_SEARCHERS_POLICYENTRIES_H
