//===- CacheStore.h - Where a mapping cache keeps its rows ------*- C++ -*-===//
//
// MappingCache (keys, checksums, mapping text) over one of two stores: an
// SQLite file (SqliteStore.cpp) or a PostgreSQL database (PostgresStore.cpp,
// when marlmap is built with libpq). A store moves rows and nothing else:
// it neither computes nor checks checksums.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_CACHE_CACHESTORE_H
#define MARLMAP_LIB_CACHE_CACHESTORE_H

#include "marlmap/Core/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// A search's row, as stored.
struct StoredEntry {
  int64_t id = 0;
  std::string key, problem, arch, objective, searcher, budget;
  int64_t seed = 0;
  std::string mapping;
  double cost = 0.0;
  int64_t samples = 0;
  std::string created, checksum;
};

/// A proven optimum's row, as stored.
struct StoredOptimum {
  std::string mapping;
  double cost = 0.0;
  std::string checksum;
};

/// The format a store's `meta` table names: a store of another format is
/// not a marlmap cache.
constexpr const char *kCacheFormat = "marlmap-cache-1";

class CacheStore {
public:
  virtual ~CacheStore();
  /// Its entries are served, nothing is stored.
  virtual bool readOnly() const = 0;
  /// The row of `key`: nullopt on a miss, an error when it cannot be read.
  virtual llvm::Expected<std::optional<StoredEntry>>
  findEntry(const std::string &key) = 0;
  /// Writes `entry` over any row of its key, whole or not at all.
  virtual llvm::Error putEntry(const StoredEntry &entry) = 0;
  virtual llvm::Expected<std::optional<StoredOptimum>>
  findOptimum(const std::string &key) = 0;
  virtual llvm::Error putOptimum(const std::string &key,
                                 const StoredOptimum &optimum) = 0;
  /// Every row, oldest first.
  virtual llvm::Expected<std::vector<StoredEntry>> listEntries() = 0;
  /// Removes every search and optimum.
  virtual llvm::Error clear() = 0;
};

/// The SQLite file at `path`, created if needed, read-only when it cannot
/// be written; an error when it is unusable.
llvm::Expected<std::unique_ptr<CacheStore>>
openSqliteStore(const std::string &path);

/// Whether `location` names a PostgreSQL database (`postgresql://...` or
/// `postgres://...`).
bool isPostgresLocation(const std::string &location);

/// The PostgreSQL database `uri` names (libpq's connection URI; its
/// password file and environment apply), its tables created if needed,
/// read-only when the role may not write them; an error (naming the URI
/// without its password) when it cannot be used, or when marlmap was built
/// without libpq.
llvm::Expected<std::unique_ptr<CacheStore>>
openPostgresStore(const std::string &uri);

/// `location` with any password in it replaced by `***`: what messages
/// show.
std::string redactedLocation(const std::string &location);

} // namespace marlmap

#endif // MARLMAP_LIB_CACHE_CACHESTORE_H
