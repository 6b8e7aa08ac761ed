//===- SqliteStore.cpp - A mapping cache in an SQLite file ----------------===//
//
// Several processes may share one file (write-ahead log, busy timeout); a
// row is written in one statement, so it is there whole or not at all. A
// file that cannot be written is opened read-only.
//
//===----------------------------------------------------------------------===//

#include "CacheStore.h"

#include <sqlite3.h>

#include <cstdio>

namespace marlmap {

CacheStore::~CacheStore() = default;

namespace {

/// A prepared statement that finalizes itself.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) {
    status = sqlite3_prepare_v2(db, sql, -1, &statement, nullptr);
  }
  ~Statement() { sqlite3_finalize(statement); }
  bool ok() const { return status == SQLITE_OK; }
  void bind(int index, const std::string &text) {
    sqlite3_bind_text(statement, index, text.c_str(), int(text.size()),
                      SQLITE_TRANSIENT);
  }
  void bind(int index, int64_t value) {
    sqlite3_bind_int64(statement, index, value);
  }
  void bind(int index, double value) {
    sqlite3_bind_double(statement, index, value);
  }
  int step() { return sqlite3_step(statement); }
  /// Binds `values` to the parameters in order and steps once: the step's
  /// status, SQLITE_ERROR when the statement did not prepare.
  template <typename... Values> int run(const Values &...values) {
    if (!ok())
      return SQLITE_ERROR;
    int index = 1;
    (bind(index++, values), ...);
    return step();
  }
  std::string text(int column) {
    const unsigned char *value = sqlite3_column_text(statement, column);
    return value ? reinterpret_cast<const char *>(value) : "";
  }
  int64_t integer(int column) {
    return sqlite3_column_int64(statement, column);
  }
  double real(int column) { return sqlite3_column_double(statement, column); }

private:
  sqlite3_stmt *statement = nullptr;
  int status;
};

llvm::Error failure(sqlite3 *db, const std::string &what) {
  return makeError(what + ": " + sqlite3_errmsg(db));
}

constexpr const char *kColumns =
    "id, key, problem, arch, objective, searcher, budget, seed, mapping, "
    "cost, samples, created, checksum";

/// The row at the statement's current step (columns as in kColumns).
StoredEntry readRow(Statement &row) {
  StoredEntry entry;
  entry.id = row.integer(0);
  entry.key = row.text(1);
  entry.problem = row.text(2);
  entry.arch = row.text(3);
  entry.objective = row.text(4);
  entry.searcher = row.text(5);
  entry.budget = row.text(6);
  entry.seed = row.integer(7);
  entry.mapping = row.text(8);
  entry.cost = row.real(9);
  entry.samples = row.integer(10);
  entry.created = row.text(11);
  entry.checksum = row.text(12);
  return entry;
}

/// A URI for `path` (escaped; `file://` before an absolute path, so that a
/// path starting with `//` is not read as a host) with `query`.
std::string fileUri(const std::string &path, const char *query) {
  std::string uri = path.rfind("/", 0) == 0 ? "file://" : "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", (unsigned char)c);
      uri += escaped;
    } else {
      uri += c;
    }
  }
  return uri + "?" + query;
}

/// The tables a cache holds, created when missing; entries written before
/// checksums existed have none and are not trusted.
const std::string &schema() {
  static const std::string text =
      std::string("CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, "
                  "value TEXT);"
                  "INSERT OR IGNORE INTO meta VALUES('format', '") +
      kCacheFormat +
      "');"
      "CREATE TABLE IF NOT EXISTS mappings("
      "  id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL,"
      "  problem TEXT, arch TEXT, objective TEXT, searcher TEXT,"
      "  budget, seed INTEGER, mapping TEXT NOT NULL, cost REAL,"
      "  samples INTEGER, created TEXT DEFAULT (datetime('now')),"
      "  checksum TEXT);"
      "CREATE TABLE IF NOT EXISTS optima("
      "  id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL,"
      "  mapping TEXT NOT NULL, cost REAL,"
      "  created TEXT DEFAULT (datetime('now')), checksum TEXT NOT NULL);";
  return text;
}

bool hasTable(sqlite3 *db, const char *table) {
  Statement query(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                      "name = ?");
  return query.run(std::string(table)) == SQLITE_ROW;
}

bool hasColumn(sqlite3 *db, const char *table, const char *column) {
  Statement info(db, (std::string("PRAGMA table_info(") + table + ")").c_str());
  while (info.ok() && info.step() == SQLITE_ROW)
    if (info.text(1) == column)
      return true;
  return false;
}

/// What opening a file for writing came to: an SQLite status, and SQLite's
/// message when it is not SQLITE_OK.
struct Opened {
  int status = SQLITE_OK;
  std::string message;
};

/// Opens `path` for reading and writing, creating the cache if needed;
/// SQLITE_READONLY when the file or its directory cannot be written.
Opened openWritable(const std::string &path, sqlite3 *&db) {
  int status = sqlite3_open_v2(path.c_str(), &db,
                               SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                   SQLITE_OPEN_FULLMUTEX,
                               nullptr);
  if (status != SQLITE_OK)
    return {status, db ? sqlite3_errmsg(db) : "out of memory"};
  // Several compiles may share the file: wait for each other's writes.
  sqlite3_busy_timeout(db, 10000);
  char *message = nullptr;
  status = sqlite3_exec(db, ("PRAGMA journal_mode=WAL;" + schema()).c_str(),
                        nullptr, nullptr, &message);
  // A cache from before checksums gains the column; another process may
  // have added it in between.
  if (status == SQLITE_OK && !hasColumn(db, "mappings", "checksum") &&
      sqlite3_exec(db, "ALTER TABLE mappings ADD COLUMN checksum TEXT", nullptr,
                   nullptr, &message) != SQLITE_OK &&
      !hasColumn(db, "mappings", "checksum"))
    status = SQLITE_ERROR;
  Opened opened{status & 0xff, ""};
  if (status != SQLITE_OK)
    opened.message = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return opened;
}

class SqliteStore : public CacheStore {
public:
  SqliteStore(sqlite3 *db, bool readOnly)
      : db(db), readOnly_(readOnly), keepsOptima(hasTable(db, "optima")) {}
  ~SqliteStore() override { sqlite3_close(db); }

  bool readOnly() const override { return readOnly_; }

  llvm::Expected<std::optional<StoredEntry>>
  findEntry(const std::string &key) override {
    Statement query(
        db, (std::string("SELECT ") + kColumns + " FROM mappings WHERE key = ?")
                .c_str());
    int status = query.run(key);
    if (status == SQLITE_ROW)
      return readRow(query);
    if (status != SQLITE_DONE)
      return failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }

  llvm::Error putEntry(const StoredEntry &entry) override {
    Statement insert(db, "INSERT OR REPLACE INTO mappings(key, problem, arch, "
                         "objective, searcher, budget, seed, mapping, cost, "
                         "samples, checksum) "
                         "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (insert.run(entry.key, entry.problem, entry.arch, entry.objective,
                   entry.searcher, entry.budget, entry.seed, entry.mapping,
                   entry.cost, entry.samples, entry.checksum) != SQLITE_DONE)
      return failure(db, "cannot write the mapping cache");
    return llvm::Error::success();
  }

  llvm::Expected<std::optional<StoredOptimum>>
  findOptimum(const std::string &key) override {
    // A cache made before optima were kept, opened read-only, has no
    // table: it holds none.
    if (!keepsOptima)
      return std::nullopt;
    Statement query(db,
                    "SELECT mapping, cost, checksum FROM optima WHERE key = ?");
    int status = query.run(key);
    if (status == SQLITE_ROW)
      return StoredOptimum{query.text(0), query.real(1), query.text(2)};
    if (status != SQLITE_DONE)
      return failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }

  llvm::Error putOptimum(const std::string &key,
                         const StoredOptimum &optimum) override {
    Statement insert(db, "INSERT OR REPLACE INTO optima(key, mapping, cost, "
                         "checksum) VALUES(?, ?, ?, ?)");
    if (insert.run(key, optimum.mapping, optimum.cost, optimum.checksum) !=
        SQLITE_DONE)
      return failure(db, "cannot write the mapping cache");
    return llvm::Error::success();
  }

  llvm::Expected<std::vector<StoredEntry>> listEntries() override {
    Statement query(
        db, (std::string("SELECT ") + kColumns + " FROM mappings ORDER BY id")
                .c_str());
    if (!query.ok())
      return failure(db, "cannot read the mapping cache");
    std::vector<StoredEntry> entries;
    int status;
    while ((status = query.step()) == SQLITE_ROW)
      entries.push_back(readRow(query));
    if (status != SQLITE_DONE)
      return failure(db, "cannot read the mapping cache");
    return entries;
  }

  llvm::Error clear() override {
    char *message = nullptr;
    const std::string sql = keepsOptima
                                ? "DELETE FROM mappings; DELETE FROM optima;"
                                : "DELETE FROM mappings;";
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) !=
        SQLITE_OK) {
      llvm::Error error =
          makeError(std::string("cannot clear the mapping cache: ") +
                    (message ? message : sqlite3_errmsg(db)));
      sqlite3_free(message);
      return error;
    }
    return llvm::Error::success();
  }

private:
  sqlite3 *db;
  bool readOnly_;
  /// The file has the table of proven optima (one made before them and
  /// opened read-only has not).
  bool keepsOptima;
};

} // namespace

llvm::Expected<std::unique_ptr<CacheStore>>
openSqliteStore(const std::string &path) {
  sqlite3 *db = nullptr;
  const Opened opened = openWritable(path, db);
  const int status = opened.status;
  bool readOnly = false;
  if (status != SQLITE_OK) {
    sqlite3_close(db);
    db = nullptr;
    // A cache the compiler may not write (a read-only mount, an immutable
    // file, a shared CI cache) is still read.
    if (status != SQLITE_READONLY && status != SQLITE_CANTOPEN &&
        status != SQLITE_PERM)
      return makeError("the mapping cache '" + path +
                       "' is unusable: " + opened.message);
    // Read-only first (it sees other writers' entries); an immutable view
    // where even that is refused (no -shm file may be made).
    for (const char *query : {"mode=ro", "mode=ro&immutable=1"}) {
      sqlite3_close(db);
      db = nullptr;
      if (sqlite3_open_v2(fileUri(path, query).c_str(), &db,
                          SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
                              SQLITE_OPEN_FULLMUTEX,
                          nullptr) == SQLITE_OK &&
          hasColumn(db, "mappings", "checksum"))
        break;
    }
    if (!db || !hasColumn(db, "mappings", "checksum")) {
      sqlite3_close(db);
      return makeError("cannot open the mapping cache '" + path +
                       "': " + opened.message);
    }
    readOnly = true;
  }
  auto store = std::make_unique<SqliteStore>(db, readOnly);
  Statement format(db, "SELECT value FROM meta WHERE name = 'format'");
  if (!format.ok() || format.step() != SQLITE_ROW ||
      format.text(0) != kCacheFormat || !hasColumn(db, "mappings", "checksum"))
    return makeError("'" + path + "' is not a marlmap mapping cache");
  return store;
}

} // namespace marlmap
