//===- MappingCache.h - Search results kept between compiles ----*- C++ -*-===//
//
// Finished searches, keyed by everything a result depends on: the problem,
// the accelerator, the objective, the searcher, its budget and seed, and
// marlmap's version. A second compile of the same model finds every mapping
// here and searches nothing. The cache is an SQLite file, or a PostgreSQL
// database (`postgresql://...`) that many machines share. Many processes
// may write at once; an entry is written whole or not at all, with a
// checksum of its key and value that a damaged or hand-edited entry fails.
// A cache that cannot be written is opened read-only: its entries are
// served, nothing is stored. Beside the searches, the cache keeps proven
// optima (by problem, accelerator and objective alone): any later search of
// the problem is measured against them.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CACHE_MAPPINGCACHE_H
#define MARLMAP_CACHE_MAPPINGCACHE_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

class CacheStore;

/// What a cached result depends on.
struct CacheKey {
  std::string problem;   // Problem::key()
  std::string arch;      // cacheText(arch)
  std::string objective; // "edp"
  std::string searcher;  // searcherKey(): the name and every option
  std::string budget;    // budgetKey(): "samples=2000", "seconds=10", ...
  uint64_t seed = 0;
  /// factorSpaceName(): results of one space are not served for another
  /// (the perfect space's keys read as before it was named).
  std::string factors = "perfect";

  /// One text holding all of it and marlmap's version.
  std::string text() const;
};

/// What a proven optimum depends on: the problem, the accelerator (its
/// constraints included) and the objective, whatever searched it.
struct OptimumKey {
  std::string problem;   // Problem::key()
  std::string arch;      // cacheText(arch)
  std::string objective; // "edp"
  /// factorSpaceName(): an optimum of one space is not another's.
  std::string factors = "perfect";

  /// One text holding all of it and marlmap's version.
  std::string text() const;
};

/// A mapping proved to have the least objective of its map space.
struct ProvenOptimum {
  Mapping mapping;
  double cost = 0.0;
};

/// Every field of `arch`, in a fixed order: equal texts, equal machines.
std::string cacheText(const Arch &arch);

struct CacheEntry {
  int64_t id = 0;
  CacheKey key;
  Mapping mapping;
  /// The objective the search reached, and the samples it used.
  double cost = 0.0;
  int64_t samples = 0;
  std::string created;
};

/// A mapping as text and back (per level: temporal factors, order, X and Y
/// factors, kept operands).
std::string mappingText(const Mapping &mapping);
std::optional<Mapping> parseMappingText(const std::string &text);

class MappingCache {
public:
  /// Opens (creating if needed) the cache at `location`, an SQLite file's
  /// path or a `postgresql://` URI, read-only when it cannot be written; an
  /// error when it cannot be opened or is not a marlmap cache.
  static llvm::Expected<std::unique_ptr<MappingCache>>
  open(const std::string &location);
  /// `location` as messages show it: a URI's password is replaced by ***.
  static std::string displayName(const std::string &location);
  /// Whether `location` names a PostgreSQL database rather than a file.
  static bool isDatabase(const std::string &location);
  ~MappingCache();
  MappingCache(const MappingCache &) = delete;
  MappingCache &operator=(const MappingCache &) = delete;

  /// The entry for `key`; nullopt on a miss. A read error, or an entry that
  /// does not match its checksum, is an error (callers treat it as a miss
  /// and warn).
  llvm::Expected<std::optional<CacheEntry>> find(const CacheKey &key);
  /// Records a result, or says why not (nothing is written then); always
  /// an error when the cache is read-only.
  llvm::Error store(const CacheKey &key, const Mapping &mapping, double cost,
                    int64_t samples);

  /// The proven optimum for `key`, whichever searcher proved it; nullopt
  /// when there is none, an error when it cannot be read or does not match
  /// its checksum.
  llvm::Expected<std::optional<ProvenOptimum>>
  findOptimum(const OptimumKey &key);
  /// Records a proven optimum, or says why not; always an error when the
  /// cache is read-only.
  llvm::Error storeOptimum(const OptimumKey &key, const Mapping &mapping,
                           double cost);

  /// Every entry that matches its checksum.
  llvm::Expected<std::vector<CacheEntry>> list();
  /// Opened read-only: the cache could not be written.
  bool readOnly() const;
  /// Removes every entry and every proven optimum, or says why not.
  llvm::Error clear();

private:
  explicit MappingCache(std::unique_ptr<CacheStore> rows);
  std::unique_ptr<CacheStore> rows;
};

} // namespace marlmap

#endif // MARLMAP_CACHE_MAPPINGCACHE_H
