//===- CacheTestSupport.h - A mapping and keys the cache tests store ------===//

#ifndef MARLMAP_UNITTESTS_CACHE_CACHETESTSUPPORT_H
#define MARLMAP_UNITTESTS_CACHE_CACHETESTSUPPORT_H

#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

namespace marlmap::testing {

/// A valid mapping of a 4x2x3 GEMM on `edge`, with factors on every kind
/// of loop.
inline Mapping someMapping() {
  Problem gemm = makeGemm(4, 2, 3);
  Arch arch = *findPreset("edge");
  Mapping m = Mapping::outermostOnly(gemm, arch);
  m.levels[0].temporal = {2, 1, 3};
  m.levels[1].spatialX = {2, 1, 1};
  m.levels[1].spatialY = {1, 2, 1};
  m.levels[2].temporal = {1, 1, 1};
  m.levels[0].order = {2, 0, 1};
  return m;
}

/// The key of a genetic search of that GEMM with `seed`.
inline CacheKey someKey(uint64_t seed = 1) {
  return CacheKey{makeGemm(4, 2, 3).key(),
                  cacheText(*findPreset("edge")),
                  "edp",
                  "genetic",
                  "samples=2000",
                  seed};
}

} // namespace marlmap::testing

#endif // MARLMAP_UNITTESTS_CACHE_CACHETESTSUPPORT_H
