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
  /// The row of `key`: nullopt on a miss, and with `error` set when it
  /// cannot be read.
  virtual std::optional<StoredEntry> findEntry(const std::string &key,
                                               std::string &error) = 0;
  /// Writes `entry` over any row of its key, whole or not at all.
  virtual bool putEntry(const StoredEntry &entry, std::string &error) = 0;
  virtual std::optional<StoredOptimum> findOptimum(const std::string &key,
                                                   std::string &error) = 0;
  virtual bool putOptimum(const std::string &key, const StoredOptimum &optimum,
                          std::string &error) = 0;
  /// Every row, oldest first.
  virtual bool listEntries(std::vector<StoredEntry> &entries,
                           std::string &error) = 0;
  /// Removes every search and optimum.
  virtual bool clear(std::string &error) = 0;
};

/// The SQLite file at `path`, created if needed, read-only when it cannot
/// be written; null with the reason when it is unusable.
std::unique_ptr<CacheStore> openSqliteStore(const std::string &path,
                                            std::string &error);

/// Whether `location` names a PostgreSQL database (`postgresql://...` or
/// `postgres://...`).
bool isPostgresLocation(const std::string &location);

/// The PostgreSQL database `uri` names (libpq's connection URI; its
/// password file and environment apply), its tables created if needed,
/// read-only when the role may not write them; null with the reason (the
/// URI without its password) when it cannot be used, or when marlmap was
/// built without libpq.
std::unique_ptr<CacheStore> openPostgresStore(const std::string &uri,
                                              std::string &error);

/// `location` with any password in it replaced by `***`: what messages
/// show.
std::string redactedLocation(const std::string &location);

} // namespace marlmap

#endif // MARLMAP_LIB_CACHE_CACHESTORE_H
