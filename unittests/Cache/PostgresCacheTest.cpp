//===- PostgresCacheTest.cpp - The mapping cache on a PostgreSQL server ---===//
//
// The same guarantees as the SQLite file's, on a real PostgreSQL server that
// each suite starts in a temporary folder (utils/postgres-scratch.sh):
// entries stored and found, checksums, a read-only role, many writers at
// once, a password that no message shows, and a server that goes away.
//
//===----------------------------------------------------------------------===//

#include "CacheTestSupport.h"

#include "Support/ExpectedValue.h"
#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "gtest/gtest.h"

using namespace marlmap;
using marlmap::testing::someKey;
using marlmap::testing::someMapping;

namespace {

/// A scratch server for as long as it lives.
class ScratchServer {
public:
  ScratchServer() {
    char folder[] = "/tmp/marlmap-postgres-XXXXXX";
    if (!mkdtemp(folder))
      return;
    root = folder;
    chmod(folder, 0755); // the server's user must reach its folder
    const std::string out = root + "/uri";
    status = std::system((std::string(MARLMAP_POSTGRES_SCRATCH) + " start " +
                          root + "/server > " + out)
                             .c_str());
    std::ifstream in(out);
    std::getline(in, uri);
  }
  ~ScratchServer() {
    stop();
    if (!root.empty())
      std::system(("rm -rf " + root).c_str());
  }
  void stop() {
    if (!root.empty())
      std::system(
          (std::string(MARLMAP_POSTGRES_SCRATCH) + " stop " + root + "/server")
              .c_str());
  }
  /// The server could not start: 77 when PostgreSQL is not installed.
  int exitCode() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  bool up() const { return status == 0 && !uri.empty(); }
  /// Runs `sql` with psql as the superuser; true on success.
  bool psql(const std::string &sql) const {
    return std::system(("psql -q -v ON_ERROR_STOP=1 '" + uri + "' -c \"" + sql +
                        "\" > /dev/null")
                           .c_str()) == 0;
  }
  /// The URI with another user and password.
  std::string as(const std::string &user, const std::string &password) const {
    const size_t at = uri.find('@');
    return "postgresql://" + user + ":" + password + uri.substr(at);
  }
  std::string password() const {
    const size_t colon = uri.find(':', 13), at = uri.find('@');
    return uri.substr(colon + 1, at - colon - 1);
  }

  std::string root, uri;
  int status = -1;
};

class PostgresCache : public ::testing::Test {
protected:
  static void SetUpTestSuite() { server = new ScratchServer; }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(server->up())
        << "the scratch PostgreSQL server did not start (exit "
        << server->exitCode() << "; utils/setup.sh installs postgresql)";
    std::string error;
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(server->uri), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(succeeded(cache->clear(), error)) << error;
  }
  static ScratchServer *server;
};

ScratchServer *PostgresCache::server = nullptr;

TEST_F(PostgresCache, StoresFindsAndClears) {
  std::string error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(server->uri), error);
  ASSERT_TRUE(cache) << error;
  EXPECT_FALSE(cache->readOnly());
  EXPECT_FALSE(foundOr(cache->find(someKey()), error).has_value());
  ASSERT_TRUE(
      succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error))
      << error;
  std::optional<CacheEntry> hit = foundOr(cache->find(someKey()), error);
  ASSERT_TRUE(hit.has_value()) << error;
  EXPECT_TRUE(hit->mapping == someMapping());
  EXPECT_EQ(hit->samples, 2000);
  EXPECT_EQ(hit->cost, 12.5);
  EXPECT_EQ(hit->created.size(), 19u) << hit->created; // YYYY-MM-DD HH:MM:SS
  EXPECT_FALSE(foundOr(cache->find(someKey(2)), error).has_value());

  // A cost that only 17 digits carry comes back to the last bit (the
  // checksum would fail otherwise).
  const double awkward = 0.1 + 0.2;
  ASSERT_TRUE(
      succeeded(cache->store(someKey(3), someMapping(), awkward, 7), error));
  std::optional<CacheEntry> exact = foundOr(cache->find(someKey(3)), error);
  ASSERT_TRUE(exact.has_value()) << error;
  EXPECT_EQ(exact->cost, awkward);

  // Proven optima too.
  OptimumKey optimum{someKey().problem, someKey().arch, "edp"};
  ASSERT_TRUE(
      succeeded(cache->storeOptimum(optimum, someMapping(), 9.25), error))
      << error;
  std::optional<ProvenOptimum> proven =
      foundOr(cache->findOptimum(optimum), error);
  ASSERT_TRUE(proven.has_value()) << error;
  EXPECT_EQ(proven->cost, 9.25);

  std::unique_ptr<MappingCache> again =
      valueOr(MappingCache::open(server->uri), error);
  ASSERT_TRUE(again) << error;
  EXPECT_EQ(valueOr(again->list(), error).size(), 2u);
  ASSERT_TRUE(succeeded(again->clear(), error)) << error;
  EXPECT_FALSE(foundOr(cache->find(someKey()), error).has_value());
  EXPECT_FALSE(foundOr(cache->findOptimum(optimum), error).has_value());
}

TEST_F(PostgresCache, AnEditedEntryIsNotTrusted) {
  std::string error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(server->uri), error);
  ASSERT_TRUE(cache) << error;
  for (const char *sql :
       {"UPDATE marlmap_mappings SET mapping = replace(mapping, 't=2,1,3', "
        "'t=1,1,3')",
        "UPDATE marlmap_mappings SET cost = 1.0",
        "UPDATE marlmap_mappings SET samples = 7"}) {
    ASSERT_TRUE(
        succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
    ASSERT_TRUE(server->psql(sql)) << sql;
    error.clear();
    EXPECT_FALSE(foundOr(cache->find(someKey()), error).has_value()) << sql;
    EXPECT_NE(error.find("does not match its checksum"), std::string::npos)
        << error;
    EXPECT_TRUE(valueOr(cache->list(), error).empty()) << sql;
  }
}

TEST_F(PostgresCache, ARoleThatMayOnlyReadServesHitsAndStoresNothing) {
  std::string error;
  {
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(server->uri), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(
        succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
  }
  ASSERT_TRUE(server->psql(
      "DROP ROLE IF EXISTS reader; CREATE ROLE reader LOGIN PASSWORD "
      "'reads-only'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader"));
  std::unique_ptr<MappingCache> reader =
      valueOr(MappingCache::open(server->as("reader", "reads-only")), error);
  ASSERT_TRUE(reader) << error;
  EXPECT_TRUE(reader->readOnly());
  EXPECT_TRUE(foundOr(reader->find(someKey()), error).has_value()) << error;
  EXPECT_FALSE(
      succeeded(reader->store(someKey(2), someMapping(), 1.0, 1), error));
  EXPECT_NE(error.find("read-only"), std::string::npos) << error;
}

TEST_F(PostgresCache, ManyWritersAtOnceLeaveOneRowPerKey) {
  constexpr int kWriters = 4, kKeys = 40;
  std::vector<std::string> errors(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      std::unique_ptr<MappingCache> cache =
          valueOr(MappingCache::open(server->uri), errors[w]);
      if (!cache)
        return;
      for (int k = 0; k < kKeys; ++k)
        if (!succeeded(cache->store(someKey(k), someMapping(), 1.0 + k, k),
                       errors[w]))
          return;
    });
  for (std::thread &writer : writers)
    writer.join();
  for (const std::string &error : errors)
    EXPECT_EQ(error, "");
  std::string error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(server->uri), error);
  ASSERT_TRUE(cache) << error;
  std::vector<CacheEntry> entries = valueOr(cache->list(), error);
  EXPECT_EQ(entries.size(), size_t(kKeys)) << error;
  for (const CacheEntry &entry : entries)
    EXPECT_EQ(entry.cost, 1.0 + double(entry.key.seed));
}

TEST_F(PostgresCache, NoMessageShowsThePassword) {
  std::string error;
  const std::string password = server->password();
  // A database that is not there, and a wrong password.
  std::string missing = server->uri;
  missing.replace(missing.rfind('/'), std::string::npos, "/no_such_database");
  EXPECT_FALSE(valueOr(MappingCache::open(missing), error));
  EXPECT_NE(error.find("no_such_database"), std::string::npos) << error;
  EXPECT_NE(error.find("marlmap:***@"), std::string::npos) << error;
  EXPECT_EQ(error.find(password), std::string::npos) << error;
  EXPECT_FALSE(
      valueOr(MappingCache::open(server->as("marlmap", "wrong")), error));
  EXPECT_NE(error.find("password authentication failed"), std::string::npos)
      << error;
  EXPECT_EQ(error.find("wrong"), std::string::npos) << error;
  EXPECT_EQ(MappingCache::displayName(server->uri + "?password=x&sslmode=off"),
            MappingCache::displayName(server->uri) +
                "?password=***&sslmode=off");
}

TEST(PostgresCacheGone, AServerThatGoesAwayIsNamedWithoutItsPassword) {
  ScratchServer server;
  ASSERT_TRUE(server.up()) << "the scratch PostgreSQL server did not start";
  std::string error;
  std::unique_ptr<MappingCache> cache =
      valueOr(MappingCache::open(server.uri), error);
  ASSERT_TRUE(cache) << error;
  ASSERT_TRUE(
      succeeded(cache->store(someKey(), someMapping(), 12.5, 2000), error));
  server.stop();
  error.clear();
  EXPECT_FALSE(foundOr(cache->find(someKey()), error).has_value());
  EXPECT_NE(error.find("went away"), std::string::npos) << error;
  EXPECT_NE(error.find("127.0.0.1"), std::string::npos) << error;
  EXPECT_EQ(error.find(server.password()), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(
      succeeded(cache->store(someKey(2), someMapping(), 1.0, 1), error));
  EXPECT_NE(error.find("went away"), std::string::npos) << error;
}

} // namespace
