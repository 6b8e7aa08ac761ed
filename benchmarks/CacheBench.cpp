//===- CacheBench.cpp - How long a mapping cache takes to answer ----------===//
//
// A hit (find of a stored entry, checksum checked) and a store, on an SQLite
// file and on a PostgreSQL database: a scratch server on this machine that
// the benchmark starts itself (utils/postgres-scratch.sh), so over TCP on
// 127.0.0.1 (a database on another machine adds its round trip).
//
//   build/bin/marlmap-bench-cache
//
//===----------------------------------------------------------------------===//

#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace marlmap;

namespace {

/// The scratch server and an SQLite file, for the whole run.
struct Backends {
  Backends() {
    char folder[] = "/tmp/marlmap-cache-bench-XXXXXX";
    if (!mkdtemp(folder))
      return;
    root = folder;
    chmod(folder, 0755);
    sqlite = root + "/cache.db";
    if (std::system((std::string(MARLMAP_POSTGRES_SCRATCH) + " start " + root +
                     "/server > " + root + "/uri")
                        .c_str()) == 0) {
      std::ifstream in(root + "/uri");
      std::getline(in, postgres);
    }
  }
  ~Backends() {
    std::system(
        (std::string(MARLMAP_POSTGRES_SCRATCH) + " stop " + root + "/server")
            .c_str());
    std::system(("rm -rf " + root).c_str());
  }
  std::string root, sqlite, postgres;
};

Backends &backends() {
  static Backends all;
  return all;
}

CacheKey keyFor(int64_t seed) {
  return CacheKey{makeGemm(64, 64, 64).key(),
                  cacheText(*findPreset("eyeriss")),
                  "edp",
                  "genetic",
                  "samples=2000",
                  uint64_t(seed)};
}

/// What every entry holds: a mapping of the keys' GEMM.
const Mapping &storedMapping() {
  static const Mapping mapping =
      Mapping::outermostOnly(makeGemm(64, 64, 64), *findPreset("eyeriss"));
  return mapping;
}

std::unique_ptr<MappingCache> openOrSkip(benchmark::State &state,
                                         const std::string &location) {
  if (location.empty()) {
    state.SkipWithError("no scratch PostgreSQL server");
    return nullptr;
  }
  llvm::Expected<std::unique_ptr<MappingCache>> cache =
      MappingCache::open(location);
  if (!cache) {
    state.SkipWithError(llvm::toString(cache.takeError()).c_str());
    return nullptr;
  }
  return std::move(*cache);
}

void hit(benchmark::State &state, const std::string &location) {
  std::unique_ptr<MappingCache> cache = openOrSkip(state, location);
  if (!cache)
    return;
  const Mapping &mapping = storedMapping();
  for (int64_t k = 0; k < 100; ++k)
    if (llvm::Error error =
            cache->store(keyFor(k), mapping, 1.0 + double(k), 2000)) {
      state.SkipWithError(llvm::toString(std::move(error)).c_str());
      return;
    }
  int64_t k = 0;
  for (auto _ : state) {
    llvm::Expected<std::optional<CacheEntry>> entry =
        cache->find(keyFor(k++ % 100));
    if (!entry || !*entry) {
      if (!entry)
        llvm::consumeError(entry.takeError());
      state.SkipWithError("a stored entry was not found");
      break;
    }
    benchmark::DoNotOptimize(*entry);
  }
}

void store(benchmark::State &state, const std::string &location) {
  std::unique_ptr<MappingCache> cache = openOrSkip(state, location);
  if (!cache)
    return;
  const Mapping &mapping = storedMapping();
  int64_t k = 1000;
  for (auto _ : state)
    if (llvm::Error error = cache->store(keyFor(k++), mapping, 1.0, 2000)) {
      state.SkipWithError(llvm::toString(std::move(error)).c_str());
      break;
    }
}

void BM_HitSqlite(benchmark::State &state) { hit(state, backends().sqlite); }
void BM_HitPostgres(benchmark::State &state) {
  hit(state, backends().postgres);
}
void BM_StoreSqlite(benchmark::State &state) {
  store(state, backends().sqlite);
}
void BM_StorePostgres(benchmark::State &state) {
  store(state, backends().postgres);
}

BENCHMARK(BM_HitSqlite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_HitPostgres)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StoreSqlite)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StorePostgres)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
