//===- ProvenOptima.h - Outcomes measured against proven optima -*- C++ -*-===//
//
// An optimum proved once (by a bounding searcher, `optimal`) is kept in the
// mapping cache by problem, accelerator and objective alone; every later
// compile that uses the cache, whatever its searcher, learns how far each
// of its mappings is from it.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_PROVENOPTIMA_H
#define MARLMAP_LIB_MAPPER_PROVENOPTIMA_H

#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Mapper/Mapper.h"

namespace marlmap {

/// Sets each found outcome's `optimum`: its own figures when its search
/// proved them optimal (stored in `cache` for later compiles when it can
/// be written), else the optimum `cache` keeps for its problem, checked
/// against the model as it is now. An optimum raises the outcome's lower
/// bound to itself and marks an outcome that reaches it proved optimal.
/// `cache` may be null. Trouble becomes the result's warnings.
void measureAgainstOptima(MapperResult &result, const MapperRequest &request,
                          MappingCache *cache);

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_PROVENOPTIMA_H
