//===- MappingCacheTest.cpp - Search results kept between compiles --------===//

#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

std::string temporaryPath() {
  llvm::SmallString<128> path;
  llvm::sys::fs::createTemporaryFile("marlmap-cache", "db", path);
  llvm::sys::fs::remove(path);
  return path.str().str();
}

Mapping someMapping() {
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
  std::unique_ptr<MappingCache> cache = MappingCache::open(path, error);
  ASSERT_TRUE(cache) << error;
  CacheKey key{makeGemm(4, 2, 3).key(),
               cacheText(*findPreset("edge")),
               "edp",
               "genetic",
               "samples=2000",
               1};
  EXPECT_FALSE(cache->find(key, error).has_value());
  ASSERT_TRUE(cache->store(key, someMapping(), 12.5, 2000, error)) << error;
  std::optional<CacheEntry> hit = cache->find(key, error);
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
    EXPECT_FALSE(cache->find(other, error).has_value());
  // A second handle on the same file sees the entry.
  std::unique_ptr<MappingCache> again = MappingCache::open(path, error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(again->list(error).size(), 1u);
  ASSERT_TRUE(again->clear(error)) << error;
  EXPECT_FALSE(cache->find(key, error).has_value());
  llvm::sys::fs::remove(path);
}

TEST(MappingCache, RefusesFilesThatAreNoCache) {
  std::string path = temporaryPath(), error;
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << "hello";
  }
  EXPECT_FALSE(MappingCache::open(path, error));
  EXPECT_NE(error.find("file is not a database"), std::string::npos) << error;
  llvm::sys::fs::remove(path);
  EXPECT_FALSE(MappingCache::open("/no/such/dir/cache.db", error));
  EXPECT_NE(error.find("cannot open the mapping cache"), std::string::npos)
      << error;
}

} // namespace
