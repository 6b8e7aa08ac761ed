//===- MappingCacheTest.cpp - Search results kept between compiles --------===//

#include "CacheTestSupport.h"

#include "Support/ExpectedValue.h"
#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "llvm/Support/FileSystem.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gtest/gtest.h"

using namespace marlmap;
using marlmap::testing::someKey;
using marlmap::testing::someMapping;

namespace {

std::string temporaryPath() {
  llvm::SmallString<128> path;
  llvm::sys::fs::createTemporaryFile("marlmap-cache", "db", path);
  llvm::sys::fs::remove(path);
  return path.str().str();
}

TEST(MappingCache, MappingsSurviveTheirText) {
  Mapping m = someMapping();
  std::optional<Mapping> back = parseMappingText(mappingText(m));
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == m);
  EXPECT_FALSE(parseMappingText("").has_value());
  EXPECT_FALSE(parseMappingText("t=1,2 o=0,1 x=1,1 y=1,1").has_value());
  EXPECT_FALSE(parseMappingText("t=1,a o=0,1 x=1,1 y=1,1 k=1").has_value());
}

TEST(MappingCache, StoresFindsAndClears) {
  std::string path = temporaryPath(), error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(cache) << error;
  const CacheKey key = someKey();
  EXPECT_FALSE(foundOr(cache->find(key), error).has_value());
  ASSERT_TRUE(succeeded(cache->store(key, someMapping(), 12.5, 2000), error))
      << error;
  std::optional<CacheEntry> hit = foundOr(cache->find(key), error);
  ASSERT_TRUE(hit.has_value()) << error;
  EXPECT_TRUE(hit->mapping == someMapping());
  EXPECT_EQ(hit->samples, 2000);
  EXPECT_EQ(hit->cost, 12.5);

  // Every part of the key matters.
  std::vector<CacheKey> others(4, key);
  others[0].seed = 2;
  others[1].budget = "samples=1000";
  others[2].arch = cacheText(*findPreset("eyeriss"));
  others[3].searcher = "marl";
  for (const CacheKey &other : others)
    EXPECT_FALSE(foundOr(cache->find(other), error).has_value());
  // A second handle on the same file sees the entry.
  std::unique_ptr<MappingCache> again =
      valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(valueOr(again->list(), error).size(), 1u);
  ASSERT_TRUE(succeeded(again->clear(), error)) << error;
  EXPECT_FALSE(foundOr(cache->find(key), error).has_value());
  llvm::sys::fs::remove(path);
}

TEST(MappingCache, RefusesFilesThatAreNoCache) {
  std::string path = temporaryPath(), error;
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << "hello";
  }
  EXPECT_FALSE(valueOr(MappingCache::open(path), error));
  EXPECT_NE(error.find("file is not a database"), std::string::npos) << error;
  llvm::sys::fs::remove(path);
  EXPECT_FALSE(valueOr(MappingCache::open("/no/such/dir/cache.db"), error));
  EXPECT_NE(error.find("cannot open the mapping cache"), std::string::npos)
      << error;
}

/// Runs `sql` on the file at `path` behind the cache's back.
void tamper(const std::string &path, const char *sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

TEST(MappingCache, AnEditedOrDamagedEntryIsNotTrusted) {
  std::string path = temporaryPath(), error;
  {
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(path), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(
        succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
  }
  // A mapping that still fits its problem, and a figure, edited by hand.
  for (const char *sql :
       {"UPDATE mappings SET mapping = replace(mapping, 't=2,1,3', "
        "'t=1,1,3')",
        "UPDATE mappings SET cost = 1.0", "UPDATE mappings SET samples = 7"}) {
    {
      std::unique_ptr<MappingCache> cache =
          valueOr(MappingCache::open(path), error);
      ASSERT_TRUE(cache) << error;
      ASSERT_TRUE(
          succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
    }
    tamper(path, sql);
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(path), error);
    ASSERT_TRUE(cache) << error;
    error.clear();
    EXPECT_FALSE(foundOr(cache->find(someKey()), error).has_value()) << sql;
    EXPECT_NE(error.find("does not match its checksum"), std::string::npos)
        << error;
    EXPECT_TRUE(valueOr(cache->list(), error).empty()) << sql;
  }
  llvm::sys::fs::remove(path);
}

OptimumKey someOptimumKey() {
  return {makeGemm(4, 2, 3).key(), cacheText(*findPreset("edge")), "edp"};
}

TEST(MappingCache, KeepsProvenOptimaApartFromSearches) {
  std::string path = temporaryPath(), error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(cache) << error;
  EXPECT_FALSE(
      foundOr(cache->findOptimum(someOptimumKey()), error).has_value());
  EXPECT_EQ(error, "");
  ASSERT_TRUE(succeeded(
      cache->storeOptimum(someOptimumKey(), someMapping(), 9.5), error))
      << error;
  std::optional<ProvenOptimum> optimum =
      foundOr(cache->findOptimum(someOptimumKey()), error);
  ASSERT_TRUE(optimum.has_value()) << error;
  EXPECT_EQ(optimum->cost, 9.5);
  EXPECT_TRUE(optimum->mapping == someMapping());
  // Not a search result: no searcher, budget or seed finds it there.
  EXPECT_TRUE(valueOr(cache->list(), error).empty());
  // Another objective or accelerator is another optimum.
  OptimumKey energy = someOptimumKey();
  energy.objective = "energy";
  EXPECT_FALSE(foundOr(cache->findOptimum(energy), error).has_value());
  OptimumKey simba = someOptimumKey();
  simba.arch = cacheText(*findPreset("simba"));
  EXPECT_FALSE(foundOr(cache->findOptimum(simba), error).has_value());

  // An optimum edited by hand is not trusted.
  cache.reset();
  tamper(path, "UPDATE optima SET cost = 1.0");
  cache = valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(cache) << error;
  EXPECT_FALSE(
      foundOr(cache->findOptimum(someOptimumKey()), error).has_value());
  EXPECT_NE(error.find("does not match its checksum"), std::string::npos)
      << error;

  // Clearing the cache clears its optima too.
  ASSERT_TRUE(succeeded(
      cache->storeOptimum(someOptimumKey(), someMapping(), 9.5), error));
  ASSERT_TRUE(succeeded(cache->clear(), error)) << error;
  error.clear();
  EXPECT_FALSE(
      foundOr(cache->findOptimum(someOptimumKey()), error).has_value());
  EXPECT_EQ(error, "");
  llvm::sys::fs::remove(path);
}

TEST(MappingCache, ACacheFromBeforeOptimaHoldsNone) {
  std::string path = temporaryPath(), error;
  {
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(path), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(
        succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
  }
  tamper(path, "DROP TABLE optima");
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(cache) << error;
  // Opened for writing, it gains the table.
  EXPECT_FALSE(
      foundOr(cache->findOptimum(someOptimumKey()), error).has_value());
  EXPECT_EQ(error, "");
  EXPECT_TRUE(succeeded(
      cache->storeOptimum(someOptimumKey(), someMapping(), 9.5), error))
      << error;
  EXPECT_TRUE(foundOr(cache->find(someKey()), error).has_value()) << error;
  llvm::sys::fs::remove(path);
}

/// Makes the file at `path` one this process cannot write, as a read-only
/// mount would: by its mode, or (for root, whom modes do not stop) by the
/// immutable attribute. False when neither is possible here.
bool makeUnwritable(const std::string &path) {
  chmod(path.c_str(), 0444);
  if (access(path.c_str(), W_OK) != 0)
    return true;
  return std::system(("chattr +i '" + path + "' 2>/dev/null").c_str()) == 0;
}

TEST(MappingCache, AFileThatCannotBeWrittenIsStillRead) {
  std::string path = temporaryPath(), error;
  {
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(path), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(
        succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
    EXPECT_FALSE(cache->readOnly());
  }
  if (!makeUnwritable(path))
    GTEST_SKIP() << "cannot make a file unwritable here (chmod as root, no "
                    "chattr)";
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(path), error);
  ASSERT_TRUE(cache) << error;
  EXPECT_TRUE(cache->readOnly());
  std::optional<CacheEntry> hit = foundOr(cache->find(someKey()), error);
  ASSERT_TRUE(hit.has_value()) << error;
  EXPECT_EQ(hit->cost, 12.5);
  CacheKey other = someKey();
  other.seed = 2;
  EXPECT_FALSE(succeeded(cache->store(other, someMapping(), 1.0, 10), error));
  EXPECT_EQ(error,
            "the mapping cache is read-only: new results are not stored");
  cache.reset();
  std::system(("chattr -i '" + path + "' 2>/dev/null").c_str());
  chmod(path.c_str(), 0644);
  llvm::sys::fs::remove(path);
}

} // namespace
