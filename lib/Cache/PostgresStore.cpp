//===- PostgresStore.cpp - A mapping cache in a PostgreSQL database -------===//
//
// One database shared by many machines: the sweep's workers and ordinary
// compiles read and write it at once. Its tables are created once, under an
// advisory lock (two first users do not race); a row is written by one
// upsert, whole or not at all, and writing the same result twice leaves one
// row. A role that may only read the tables gets a read-only cache. A
// connection that drops is reset once before an operation fails; the
// message names the database without its password.
//
//===----------------------------------------------------------------------===//

#include "CacheStore.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

#ifdef MARLMAP_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

namespace marlmap {

bool isPostgresLocation(const std::string &location) {
  return location.rfind("postgresql://", 0) == 0 ||
         location.rfind("postgres://", 0) == 0;
}

std::string redactedLocation(const std::string &location) {
  if (!isPostgresLocation(location))
    return location;
  std::string text = location;
  // user:password@ in the authority.
  const size_t authority = text.find("://") + 3;
  const size_t end = std::min(text.find('/', authority), text.find('?'));
  const size_t at = text.rfind('@', end);
  if (at != std::string::npos && at >= authority) {
    const size_t colon = text.find(':', authority);
    if (colon != std::string::npos && colon < at)
      text.replace(colon + 1, at - colon - 1, "***");
  }
  // password=... among the parameters.
  for (size_t at = text.find("password="); at != std::string::npos;
       at = text.find("password=", at + 1)) {
    const size_t value = at + 9;
    const size_t stop = text.find('&', value);
    text.replace(
        value, (stop == std::string::npos ? text.size() : stop) - value, "***");
  }
  return text;
}

#ifndef MARLMAP_HAVE_LIBPQ

llvm::Expected<std::unique_ptr<CacheStore>>
openPostgresStore(const std::string &uri) {
  return makeError("cannot use the mapping cache '" + redactedLocation(uri) +
                   "': this marlmap was built without libpq (install "
                   "libpq-dev and configure again)");
}

#else

namespace {

/// A query's result, cleared when it goes.
class Result {
public:
  explicit Result(PGresult *result) : result(result) {}
  ~Result() { PQclear(result); }
  Result(const Result &) = delete;
  Result &operator=(const Result &) = delete;
  bool ok() const {
    ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
  }
  int rows() const { return result ? PQntuples(result) : 0; }
  std::string text(int row, int column) const {
    return PQgetvalue(result, row, column);
  }
  int64_t integer(int row, int column) const {
    return std::strtoll(PQgetvalue(result, row, column), nullptr, 10);
  }
  double real(int row, int column) const {
    return std::strtod(PQgetvalue(result, row, column), nullptr);
  }
  /// The SQLSTATE of a failure ("" when there is none).
  std::string state() const {
    const char *code =
        result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    return code ? code : "";
  }

private:
  PGresult *result;
};

/// libpq's last message on `connection`, without its trailing newline.
std::string lastMessage(PGconn *connection) {
  std::string message = PQerrorMessage(connection);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
    message.pop_back();
  return message;
}

/// Every digit of a double, both ways, for the session (a reset
/// connection is a new session).
void sendAllDigits(PGconn *connection) {
  Result digits(PQexec(connection, "SET extra_float_digits = 3"));
}

std::string realText(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return text;
}

/// The tables, created under a lock that serialises first users.
constexpr const char *kSchema =
    "BEGIN;"
    "SELECT pg_advisory_xact_lock(7071734617);"
    "CREATE TABLE IF NOT EXISTS marlmap_meta(name TEXT PRIMARY KEY, "
    "  value TEXT);"
    "INSERT INTO marlmap_meta VALUES('format', 'marlmap-cache-1') "
    "  ON CONFLICT DO NOTHING;"
    "CREATE TABLE IF NOT EXISTS marlmap_mappings("
    "  id BIGSERIAL PRIMARY KEY, key TEXT UNIQUE NOT NULL,"
    "  problem TEXT, arch TEXT, objective TEXT, searcher TEXT, budget TEXT,"
    "  seed BIGINT, mapping TEXT NOT NULL, cost DOUBLE PRECISION,"
    "  samples BIGINT, created TIMESTAMP DEFAULT (now() AT TIME ZONE 'utc'),"
    "  checksum TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS marlmap_optima("
    "  id BIGSERIAL PRIMARY KEY, key TEXT UNIQUE NOT NULL,"
    "  mapping TEXT NOT NULL, cost DOUBLE PRECISION,"
    "  created TIMESTAMP DEFAULT (now() AT TIME ZONE 'utc'),"
    "  checksum TEXT NOT NULL);"
    "COMMIT;";

constexpr const char *kColumns =
    "id, key, problem, arch, objective, searcher, budget, seed, mapping, "
    "cost, samples, to_char(created, 'YYYY-MM-DD HH24:MI:SS'), checksum";

StoredEntry entryAt(const Result &result, int row) {
  StoredEntry entry;
  entry.id = result.integer(row, 0);
  entry.key = result.text(row, 1);
  entry.problem = result.text(row, 2);
  entry.arch = result.text(row, 3);
  entry.objective = result.text(row, 4);
  entry.searcher = result.text(row, 5);
  entry.budget = result.text(row, 6);
  entry.seed = result.integer(row, 7);
  entry.mapping = result.text(row, 8);
  entry.cost = result.real(row, 9);
  entry.samples = result.integer(row, 10);
  entry.created = result.text(row, 11);
  entry.checksum = result.text(row, 12);
  return entry;
}

class PostgresStore : public CacheStore {
public:
  PostgresStore(PGconn *connection, std::string where)
      : connection(connection), where(std::move(where)) {}
  ~PostgresStore() override { PQfinish(connection); }

  /// Creates the tables if needed and finds out whether the role may
  /// write them; an error when the database is no cache.
  llvm::Error prepare() {
    sendAllDigits(connection);
    Result present(PQexec(
        connection,
        "SELECT has_table_privilege(c.oid, 'INSERT, UPDATE') FROM pg_class c "
        "WHERE c.relname = 'marlmap_mappings' AND pg_table_is_visible(c.oid)"));
    if (!present.ok())
      return failure("cannot read");
    if (present.rows() == 0) {
      Result created(PQexec(connection, kSchema));
      if (!created.ok()) {
        Result rollback(PQexec(connection, "ROLLBACK"));
        return failure("cannot create the tables of");
      }
    }
    Result writable(PQexec(
        connection,
        "SELECT bool_and(has_table_privilege(c.oid, 'INSERT, UPDATE, "
        "DELETE')) FROM pg_class c WHERE c.relname IN ('marlmap_mappings', "
        "'marlmap_optima') AND pg_table_is_visible(c.oid)"));
    Result format(PQexec(connection, "SELECT value FROM marlmap_meta WHERE "
                                     "name = 'format'"));
    if (!writable.ok() || !format.ok() || format.rows() != 1 ||
        format.text(0, 0) != kCacheFormat)
      return makeError("'" + where + "' holds no marlmap mapping cache");
    readOnly_ = writable.text(0, 0) != "t";
    return llvm::Error::success();
  }

  bool readOnly() const override { return readOnly_; }

  llvm::Expected<std::optional<StoredEntry>>
  findEntry(const std::string &key) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result = run(std::string("SELECT ") + kColumns +
                          " FROM marlmap_mappings WHERE key = $1",
                      {key});
    if (!result->ok())
      return failure("cannot read");
    if (result->rows() == 0)
      return std::nullopt;
    return entryAt(*result, 0);
  }

  llvm::Error putEntry(const StoredEntry &entry) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result = run(
        "INSERT INTO marlmap_mappings(key, problem, arch, objective, "
        "searcher, budget, seed, mapping, cost, samples, checksum) "
        "VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
        "ON CONFLICT (key) DO UPDATE SET problem = EXCLUDED.problem, "
        "arch = EXCLUDED.arch, objective = EXCLUDED.objective, "
        "searcher = EXCLUDED.searcher, budget = EXCLUDED.budget, "
        "seed = EXCLUDED.seed, mapping = EXCLUDED.mapping, "
        "cost = EXCLUDED.cost, samples = EXCLUDED.samples, "
        "checksum = EXCLUDED.checksum, "
        "created = now() AT TIME ZONE 'utc'",
        {entry.key, entry.problem, entry.arch, entry.objective, entry.searcher,
         entry.budget, std::to_string(entry.seed), entry.mapping,
         realText(entry.cost), std::to_string(entry.samples), entry.checksum});
    return result->ok() ? llvm::Error::success() : failure("cannot write");
  }

  llvm::Expected<std::optional<StoredOptimum>>
  findOptimum(const std::string &key) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result = run("SELECT mapping, cost, checksum FROM marlmap_optima "
                      "WHERE key = $1",
                      {key});
    if (!result->ok())
      return failure("cannot read");
    if (result->rows() == 0)
      return std::nullopt;
    return StoredOptimum{result->text(0, 0), result->real(0, 1),
                         result->text(0, 2)};
  }

  llvm::Error putOptimum(const std::string &key,
                         const StoredOptimum &optimum) override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result =
        run("INSERT INTO marlmap_optima(key, mapping, cost, checksum) "
            "VALUES($1, $2, $3, $4) ON CONFLICT (key) DO UPDATE SET "
            "mapping = EXCLUDED.mapping, cost = EXCLUDED.cost, "
            "checksum = EXCLUDED.checksum, "
            "created = now() AT TIME ZONE 'utc'",
            {key, optimum.mapping, realText(optimum.cost), optimum.checksum});
    return result->ok() ? llvm::Error::success() : failure("cannot write");
  }

  llvm::Expected<std::vector<StoredEntry>> listEntries() override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result = run(std::string("SELECT ") + kColumns +
                          " FROM marlmap_mappings ORDER BY id",
                      {});
    if (!result->ok())
      return failure("cannot read");
    std::vector<StoredEntry> entries;
    for (int row = 0; row < result->rows(); ++row)
      entries.push_back(entryAt(*result, row));
    return entries;
  }

  llvm::Error clear() override {
    std::lock_guard<std::mutex> lock(mutex);
    auto result = run("DELETE FROM marlmap_mappings; ", {});
    auto optima = run("DELETE FROM marlmap_optima", {});
    return result->ok() && optima->ok() ? llvm::Error::success()
                                        : failure("cannot clear");
  }

private:
  /// `sql` with `params` (as text); a connection that dropped is reset
  /// and the query tried once more.
  std::unique_ptr<Result> run(const std::string &sql,
                              const std::vector<std::string> &params) {
    std::vector<const char *> values;
    for (const std::string &param : params)
      values.push_back(param.c_str());
    for (int attempt = 0;; ++attempt) {
      auto result = std::make_unique<Result>(
          PQexecParams(connection, sql.c_str(), int(values.size()), nullptr,
                       values.data(), nullptr, nullptr, 0));
      if (result->ok() || attempt == 1 || PQstatus(connection) == CONNECTION_OK)
        return result;
      PQreset(connection);
      if (PQstatus(connection) != CONNECTION_OK)
        return result;
      sendAllDigits(connection);
    }
  }

  /// What went wrong `doing` the cache.
  llvm::Error failure(const char *doing) const {
    const std::string message = lastMessage(connection);
    if (PQstatus(connection) != CONNECTION_OK)
      return makeError("the database of the mapping cache '" + where +
                       "' went away: " + message);
    return makeError(std::string(doing) + " the mapping cache '" + where +
                     "': " + message);
  }

  PGconn *connection;
  const std::string where;
  bool readOnly_ = false;
  std::mutex mutex;
};

} // namespace

llvm::Expected<std::unique_ptr<CacheStore>>
openPostgresStore(const std::string &uri) {
  const std::string where = redactedLocation(uri);
  PGconn *connection = PQconnectdb(uri.c_str());
  if (!connection)
    return makeError("cannot connect to the mapping cache '" + where +
                     "': out of memory");
  if (PQstatus(connection) != CONNECTION_OK) {
    const std::string message = lastMessage(connection);
    PQfinish(connection);
    return makeError("cannot connect to the mapping cache '" + where +
                     "': " + message);
  }
  auto store = std::make_unique<PostgresStore>(connection, where);
  if (llvm::Error error = store->prepare())
    return std::move(error);
  return store;
}

#endif // MARLMAP_HAVE_LIBPQ

} // namespace marlmap
