//===- MappingCache.cpp - Search results kept between compiles ------------===//

#include "marlmap/Cache/MappingCache.h"

#include "marlmap/Core/Hash.h"

#include "CacheStore.h"

#include <cstdio>
#include <sstream>

namespace marlmap {

namespace {

/// Bump when the cost model, the map space or a searcher changes what a
/// search returns: older entries then simply stop matching.
constexpr const char *kResultsRevision = "6";

std::string joined(const std::vector<int64_t> &values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text;
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

/// The entry a stored row holds; nullopt when it does not parse or its
/// checksum does not match.
std::optional<CacheEntry> entryOf(const StoredEntry &row) {
  CacheEntry entry;
  entry.id = row.id;
  entry.key.problem = row.problem;
  entry.key.arch = row.arch;
  entry.key.objective = row.objective;
  entry.key.searcher = row.searcher;
  entry.key.budget = row.budget;
  entry.key.seed = uint64_t(row.seed);
  std::optional<Mapping> mapping = parseMappingText(row.mapping);
  if (!mapping)
    return std::nullopt;
  entry.mapping = std::move(*mapping);
  entry.cost = row.cost;
  entry.samples = row.samples;
  entry.created = row.created;
  if (row.checksum !=
      checksumOf(row.key, row.mapping, entry.cost, entry.samples))
    return std::nullopt;
  return entry;
}

} // namespace

namespace {

/// The factor space in a key's text; the perfect space says nothing, as
/// before the others existed.
std::string factorsText(const std::string &factors) {
  return factors == "perfect" ? "" : "\nfactors=" + factors;
}

} // namespace

std::string CacheKey::text() const {
  return std::string("marlmap ") + MARLMAP_VERSION + " results " +
         kResultsRevision + "\n" + problem + "\n" + arch + "\n" + objective +
         "\n" + searcher + "\n" + budget + " seed=" + std::to_string(seed) +
         factorsText(factors);
}

std::string OptimumKey::text() const {
  return std::string("marlmap ") + MARLMAP_VERSION + " results " +
         kResultsRevision + " optimum\n" + problem + "\n" + arch + "\n" +
         objective + factorsText(factors);
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
  os << " | fills " << fillRuleName(arch.fillRule);
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

MappingCache::MappingCache(std::unique_ptr<CacheStore> rows)
    : rows(std::move(rows)) {}

MappingCache::~MappingCache() = default;

llvm::Expected<std::unique_ptr<MappingCache>>
MappingCache::open(const std::string &location) {
  llvm::Expected<std::unique_ptr<CacheStore>> store =
      isPostgresLocation(location) ? openPostgresStore(location)
                                   : openSqliteStore(location);
  if (!store)
    return store.takeError();
  return std::unique_ptr<MappingCache>(new MappingCache(std::move(*store)));
}

std::string MappingCache::displayName(const std::string &location) {
  return redactedLocation(location);
}

bool MappingCache::isDatabase(const std::string &location) {
  return isPostgresLocation(location);
}

bool MappingCache::readOnly() const { return rows->readOnly(); }

llvm::Expected<std::optional<CacheEntry>>
MappingCache::find(const CacheKey &key) {
  llvm::Expected<std::optional<StoredEntry>> row = rows->findEntry(key.text());
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  std::optional<CacheEntry> entry = entryOf(**row);
  if (!entry)
    return makeError(
        "an entry of the mapping cache that does not match its checksum "
        "(edited or damaged) was ignored; searching again");
  return entry;
}

llvm::Error MappingCache::store(const CacheKey &key, const Mapping &mapping,
                                double cost, int64_t samples) {
  if (readOnly())
    return makeError(
        "the mapping cache is read-only: new results are not stored");
  StoredEntry row;
  row.key = key.text();
  row.problem = key.problem;
  row.arch = key.arch;
  row.objective = key.objective;
  row.searcher = key.searcher;
  row.budget = key.budget;
  row.seed = int64_t(key.seed);
  row.mapping = mappingText(mapping);
  row.cost = cost;
  row.samples = samples;
  row.checksum = checksumOf(row.key, row.mapping, cost, samples);
  return rows->putEntry(row);
}

llvm::Expected<std::optional<ProvenOptimum>>
MappingCache::findOptimum(const OptimumKey &key) {
  const std::string keyText = key.text();
  llvm::Expected<std::optional<StoredOptimum>> row = rows->findOptimum(keyText);
  if (!row)
    return row.takeError();
  if (!*row)
    return std::nullopt;
  const StoredOptimum &stored = **row;
  std::optional<Mapping> mapping = parseMappingText(stored.mapping);
  if (!mapping ||
      stored.checksum != checksumOf(keyText, stored.mapping, stored.cost, 0))
    return makeError(
        "a proven optimum in the mapping cache that does not match its "
        "checksum (edited or damaged) was ignored");
  return ProvenOptimum{std::move(*mapping), stored.cost};
}

llvm::Error MappingCache::storeOptimum(const OptimumKey &key,
                                       const Mapping &mapping, double cost) {
  if (readOnly())
    return makeError(
        "the mapping cache is read-only: new results are not stored");
  StoredOptimum row;
  const std::string keyText = key.text();
  row.mapping = mappingText(mapping);
  row.cost = cost;
  row.checksum = checksumOf(keyText, row.mapping, cost, 0);
  return rows->putOptimum(keyText, row);
}

llvm::Expected<std::vector<CacheEntry>> MappingCache::list() {
  llvm::Expected<std::vector<StoredEntry>> stored = rows->listEntries();
  if (!stored)
    return stored.takeError();
  std::vector<CacheEntry> entries;
  for (const StoredEntry &row : *stored)
    if (std::optional<CacheEntry> entry = entryOf(row))
      entries.push_back(std::move(*entry));
  return entries;
}

llvm::Error MappingCache::clear() { return rows->clear(); }

} // namespace marlmap
