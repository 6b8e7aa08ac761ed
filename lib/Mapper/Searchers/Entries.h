//===- Entries.h - Each registered searcher's entry -------------*- C++ -*-===//
//
// Declares `SearcherEntry xSearcherEntry()` for every line of Searchers.def,
// so that an entry's file and Registry.cpp agree on its name and type.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_SEARCHERS_ENTRIES_H
#define MARLMAP_LIB_MAPPER_SEARCHERS_ENTRIES_H

#include "marlmap/Mapper/Registry.h"

namespace marlmap {

#define MARLMAP_SEARCHER(name) SearcherEntry name##SearcherEntry();
#include "Searchers.def"

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_SEARCHERS_ENTRIES_H
