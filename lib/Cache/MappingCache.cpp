//===- MappingCache.cpp - Search results kept between compiles ------------===//

#include "marlmap/Cache/MappingCache.h"

#include "marlmap/Core/Hash.h"

#include <sqlite3.h>

#include <cstdio>
#include <sstream>

namespace marlmap {

namespace {

/// Bump when the cost model, the map space or a searcher changes what a
/// search returns: older entries then simply stop matching.
constexpr const char *kResultsRevision = "6";
constexpr const char *kFormat = "marlmap-cache-1";

std::string joined(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text;
}

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

std::string failure(sqlite3 *db, const std::string &what) {
  return what + ": " + sqlite3_errmsg(db);
}

/// What verifies an entry: a hash of its key and its value. It catches an
/// entry edited by hand or damaged on disk; it is not a signature.
std::string checksumOf(const std::string &keyText,
                       const std::string &mappingText, double cost,
                       int64_t samples) {
  char costText[32];
  std::snprintf(costText, sizeof(costText), "%.17g", cost);
  uint64_t hash = kFnvOffset;
  for (const std::string &part :
       {keyText, mappingText, std::string(costText), std::to_string(samples)})
    hash = fnv1a(part + '\n', hash);
  return hexText(hash);
}

/// Reads the entry at the statement's current row (columns as in
/// kColumns); nullopt when it does not parse or its checksum does not
/// match.
std::optional<CacheEntry> readEntry(Statement &row) {
  CacheEntry entry;
  entry.id = row.integer(0);
  const std::string keyText = row.text(1);
  entry.key.problem = row.text(2);
  entry.key.arch = row.text(3);
  entry.key.objective = row.text(4);
  entry.key.searcher = row.text(5);
  entry.key.budget = row.text(6);
  entry.key.seed = uint64_t(row.integer(7));
  const std::string mappingText = row.text(8);
  std::optional<Mapping> mapping = parseMappingText(mappingText);
  if (!mapping)
    return std::nullopt;
  entry.mapping = std::move(*mapping);
  entry.cost = row.real(9);
  entry.samples = row.integer(10);
  entry.created = row.text(11);
  if (row.text(12) !=
      checksumOf(keyText, mappingText, entry.cost, entry.samples))
    return std::nullopt;
  return entry;
}

constexpr const char *kColumns =
    "id, key, problem, arch, objective, searcher, budget, seed, mapping, "
    "cost, samples, created, checksum";

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

} // namespace

std::string CacheKey::text() const {
  return std::string("marlmap ") + MARLMAP_VERSION + " results " +
         kResultsRevision + "\n" + problem + "\n" + arch + "\n" + objective +
         "\n" + searcher + "\n" + budget + " seed=" + std::to_string(seed);
}

std::string OptimumKey::text() const {
  return std::string("marlmap ") + MARLMAP_VERSION + " results " +
         kResultsRevision + " optimum\n" + problem + "\n" + arch + "\n" +
         objective;
}

std::string cacheText(const Arch &arch) {
  std::ostringstream os;
  os.precision(17);
  auto optional = [&](const auto &value) {
    if (value)
      os << *value;
    else
      os << "-";
    os << ' ';
  };
  const ComputeArray &c = arch.compute;
  os << arch.name << ' ' << arch.clockMHz << " | " << c.instances << ' '
     << c.meshX << ' ' << c.meshY << ' ' << c.wordBits << ' ' << c.macsPerCycle
     << ' ' << c.energyPerMac;
  for (const StorageLevel &l : arch.levels) {
    os << " | " << l.name << ' ' << int(l.technology) << ' ';
    optional(l.entries);
    os << l.wordBits << ' ' << l.blockSize << ' ' << l.instances << ' '
       << l.meshX << ' ' << l.meshY << ' ';
    optional(l.readBandwidth);
    optional(l.writeBandwidth);
    os << l.readEnergy << ' ' << l.writeEnergy << ' ' << l.updateEnergy << ' '
       << l.multipleBuffering << ' ' << l.holds.str();
  }
  // The dataflow shapes the space, so it is part of the key.
  for (const Constraint &constraint : arch.constraints)
    os << " | #" << constraint.str();
  return os.str();
}

std::string mappingText(const Mapping &mapping) {
  std::string text;
  for (const LevelMapping &level : mapping.levels) {
    std::vector<int64_t> order(level.order.begin(), level.order.end());
    std::vector<int64_t> keep(level.keep.begin(), level.keep.end());
    text += (text.empty() ? "" : ";") + std::string("t=") +
            joined(level.temporal) + " o=" + joined(order) +
            " x=" + joined(level.spatialX) + " y=" + joined(level.spatialY) +
            " k=" + joined(keep);
  }
  return text;
}

std::optional<Mapping> parseMappingText(const std::string &text) {
  Mapping mapping;
  std::stringstream levels(text);
  std::string levelText;
  while (std::getline(levels, levelText, ';')) {
    LevelMapping level;
    std::stringstream fields(levelText);
    std::string field;
    unsigned seen = 0;
    while (fields >> field) {
      if (field.size() < 2 || field[1] != '=')
        return std::nullopt;
      std::vector<int64_t> values;
      std::stringstream numbers(field.substr(2));
      std::string number;
      while (std::getline(numbers, number, ',')) {
        char *end = nullptr;
        long long value = std::strtoll(number.c_str(), &end, 10);
        if (number.empty() || *end != '\0')
          return std::nullopt;
        values.push_back(value);
      }
      switch (field[0]) {
      case 't':
        level.temporal = values;
        break;
      case 'o':
        level.order.assign(values.begin(), values.end());
        break;
      case 'x':
        level.spatialX = values;
        break;
      case 'y':
        level.spatialY = values;
        break;
      case 'k':
        level.keep.assign(values.begin(), values.end());
        break;
      default:
        return std::nullopt;
      }
      ++seen;
    }
    if (seen != 5)
      return std::nullopt;
    mapping.levels.push_back(std::move(level));
  }
  if (mapping.levels.empty())
    return std::nullopt;
  return mapping;
}

namespace {

/// The tables a cache holds, created when missing; entries written before
/// checksums existed have none and are not trusted.
const std::string &schema() {
  static const std::string text =
      std::string("CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, "
                  "value TEXT);"
                  "INSERT OR IGNORE INTO meta VALUES('format', '") +
      kFormat +
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
  if (!query.ok())
    return false;
  query.bind(1, std::string(table));
  return query.step() == SQLITE_ROW;
}

bool hasColumn(sqlite3 *db, const char *table, const char *column) {
  Statement info(db, (std::string("PRAGMA table_info(") + table + ")").c_str());
  while (info.ok() && info.step() == SQLITE_ROW)
    if (info.text(1) == column)
      return true;
  return false;
}

/// Opens `path` for reading and writing, creating the cache if needed;
/// SQLITE_READONLY when the file or its directory cannot be written.
int openWritable(const std::string &path, sqlite3 *&db, std::string &error) {
  int status = sqlite3_open_v2(path.c_str(), &db,
                               SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                                   SQLITE_OPEN_FULLMUTEX,
                               nullptr);
  if (status != SQLITE_OK) {
    error = db ? sqlite3_errmsg(db) : "out of memory";
    return status;
  }
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
  if (status != SQLITE_OK)
    error = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return status & 0xff;
}

} // namespace

std::unique_ptr<MappingCache> MappingCache::open(const std::string &path,
                                                 std::string &error) {
  sqlite3 *db = nullptr;
  std::string why;
  int status = openWritable(path, db, why);
  bool readOnly = false;
  if (status != SQLITE_OK) {
    sqlite3_close(db);
    db = nullptr;
    // A cache the compiler may not write (a read-only mount, an immutable
    // file, a shared CI cache) is still read.
    if (status != SQLITE_READONLY && status != SQLITE_CANTOPEN &&
        status != SQLITE_PERM) {
      error = "the mapping cache '" + path + "' is unusable: " + why;
      return nullptr;
    }
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
      error = "cannot open the mapping cache '" + path + "': " + why;
      sqlite3_close(db);
      return nullptr;
    }
    readOnly = true;
  }
  std::unique_ptr<MappingCache> cache(
      new MappingCache(db, readOnly, hasTable(db, "optima")));
  Statement format(db, "SELECT value FROM meta WHERE name = 'format'");
  if (!format.ok() || format.step() != SQLITE_ROW ||
      format.text(0) != kFormat || !hasColumn(db, "mappings", "checksum")) {
    error = "'" + path + "' is not a marlmap mapping cache";
    return nullptr;
  }
  return cache;
}

MappingCache::~MappingCache() { sqlite3_close(db); }

std::optional<CacheEntry> MappingCache::find(const CacheKey &key,
                                             std::string &error) {
  Statement query(
      db, (std::string("SELECT ") + kColumns + " FROM mappings WHERE key = ?")
              .c_str());
  if (!query.ok()) {
    error = failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }
  query.bind(1, key.text());
  int status = query.step();
  if (status == SQLITE_DONE)
    return std::nullopt;
  if (status != SQLITE_ROW) {
    error = failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }
  std::optional<CacheEntry> entry = readEntry(query);
  if (!entry)
    error = "an entry of the mapping cache that does not match its checksum "
            "(edited or damaged) was ignored; searching again";
  return entry;
}

bool MappingCache::store(const CacheKey &key, const Mapping &mapping,
                         double cost, int64_t samples, std::string &error) {
  if (readOnly_) {
    error = "the mapping cache is read-only: new results are not stored";
    return false;
  }
  Statement insert(db, "INSERT OR REPLACE INTO mappings(key, problem, arch, "
                       "objective, searcher, budget, seed, mapping, cost, "
                       "samples, checksum) "
                       "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!insert.ok()) {
    error = failure(db, "cannot write the mapping cache");
    return false;
  }
  const std::string keyText = key.text(), text = mappingText(mapping);
  insert.bind(1, keyText);
  insert.bind(2, key.problem);
  insert.bind(3, key.arch);
  insert.bind(4, key.objective);
  insert.bind(5, key.searcher);
  insert.bind(6, key.budget);
  insert.bind(7, int64_t(key.seed));
  insert.bind(8, text);
  insert.bind(9, cost);
  insert.bind(10, samples);
  insert.bind(11, checksumOf(keyText, text, cost, samples));
  if (insert.step() != SQLITE_DONE) {
    error = failure(db, "cannot write the mapping cache");
    return false;
  }
  return true;
}

std::optional<ProvenOptimum> MappingCache::findOptimum(const OptimumKey &key,
                                                       std::string &error) {
  // A cache made before optima were kept, opened read-only, has no table:
  // it holds none.
  if (!keepsOptima)
    return std::nullopt;
  Statement query(db,
                  "SELECT mapping, cost, checksum FROM optima WHERE key = ?");
  if (!query.ok()) {
    error = failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }
  const std::string keyText = key.text();
  query.bind(1, keyText);
  int status = query.step();
  if (status == SQLITE_DONE)
    return std::nullopt;
  if (status != SQLITE_ROW) {
    error = failure(db, "cannot read the mapping cache");
    return std::nullopt;
  }
  const std::string text = query.text(0);
  const double cost = query.real(1);
  std::optional<Mapping> mapping = parseMappingText(text);
  if (!mapping || query.text(2) != checksumOf(keyText, text, cost, 0)) {
    error = "a proven optimum in the mapping cache that does not match its "
            "checksum (edited or damaged) was ignored";
    return std::nullopt;
  }
  return ProvenOptimum{std::move(*mapping), cost};
}

bool MappingCache::storeOptimum(const OptimumKey &key, const Mapping &mapping,
                                double cost, std::string &error) {
  if (readOnly_) {
    error = "the mapping cache is read-only: new results are not stored";
    return false;
  }
  Statement insert(db, "INSERT OR REPLACE INTO optima(key, mapping, cost, "
                       "checksum) VALUES(?, ?, ?, ?)");
  if (!insert.ok()) {
    error = failure(db, "cannot write the mapping cache");
    return false;
  }
  const std::string keyText = key.text(), text = mappingText(mapping);
  insert.bind(1, keyText);
  insert.bind(2, text);
  insert.bind(3, cost);
  insert.bind(4, checksumOf(keyText, text, cost, 0));
  if (insert.step() != SQLITE_DONE) {
    error = failure(db, "cannot write the mapping cache");
    return false;
  }
  return true;
}

std::vector<CacheEntry> MappingCache::list(std::string &error) {
  std::vector<CacheEntry> entries;
  Statement query(
      db, (std::string("SELECT ") + kColumns + " FROM mappings ORDER BY id")
              .c_str());
  if (!query.ok()) {
    error = failure(db, "cannot read the mapping cache");
    return entries;
  }
  int status;
  while ((status = query.step()) == SQLITE_ROW)
    if (std::optional<CacheEntry> entry = readEntry(query))
      entries.push_back(std::move(*entry));
  if (status != SQLITE_DONE)
    error = failure(db, "cannot read the mapping cache");
  return entries;
}

bool MappingCache::clear(std::string &error) {
  char *message = nullptr;
  const std::string sql = keepsOptima
                              ? "DELETE FROM mappings; DELETE FROM optima;"
                              : "DELETE FROM mappings;";
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    error = std::string("cannot clear the mapping cache: ") +
            (message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return false;
  }
  return true;
}

} // namespace marlmap
