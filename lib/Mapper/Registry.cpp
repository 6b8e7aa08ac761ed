//===- Registry.cpp - Searchers and objectives as users name them ---------===//

#include "marlmap/Mapper/Registry.h"

#include "Searchers/Entries.h"

#include "marlmap/Core/Error.h"
#include "marlmap/Core/Hash.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>

namespace marlmap {

namespace {

/// marlmap's searchers, then those embedders register at start-up. The
/// first read seals it: what readers hold (entries, options, the flags
/// made from them) stays valid for the life of the process.
struct Registry {
  std::vector<SearcherEntry> entries = {
#define MARLMAP_SEARCHER(name) name##SearcherEntry(),
#include "Searchers/Searchers.def"
  };
  std::atomic<bool> sealed{false};
};

Registry &registry() {
  static Registry instance;
  return instance;
}

/// Why `entry` cannot join `entries`, if it cannot.
llvm::Error checkRegistrable(const SearcherEntry &entry,
                             const std::vector<SearcherEntry> &entries) {
  if (entry.name.empty() ||
      entry.name.find_first_of(" ,=\"{}") != std::string::npos)
    return makeError(
        "a searcher needs a name without spaces, commas, quotes, braces "
        "or '=', not '" +
        entry.name + "'");
  for (const SearcherEntry &known : entries)
    if (known.name == entry.name)
      return makeError("a searcher named '" + entry.name +
                       "' is registered already");
  if (entry.help.empty())
    return makeError("searcher '" + entry.name + "' needs a line of help");
  if (!entry.make && !entry.makeNetwork)
    return makeError("searcher '" + entry.name +
                     "' says how it is made (make)");
  // Its options are flags of every front end beside their own: named after
  // the searcher, they cannot take another's name.
  for (const SearcherOption &option : entry.options) {
    if (option.name.rfind(entry.name + "-", 0) != 0 ||
        option.name.size() == entry.name.size() + 1)
      return makeError("option '" + option.name + "' of searcher '" +
                       entry.name + "' must be named '" + entry.name + "-...'");
    if (!option.canonical || !option.canonical(option.defaultValue))
      return makeError("option '" + option.name + "' of searcher '" +
                       entry.name + "' must accept its own default");
  }
  return llvm::Error::success();
}

} // namespace

const std::vector<SearcherEntry> &searcherRegistry() {
  Registry &instance = registry();
  instance.sealed.store(true, std::memory_order_release);
  return instance.entries;
}

llvm::Error registerSearcher(SearcherEntry entry) {
  Registry &instance = registry();
  if (instance.sealed.load(std::memory_order_acquire))
    return makeError(
        "searcher '" + entry.name +
        "' is registered too late: searchers are registered at start-up, "
        "before any pass, tool option or Mapper reads the registry");
  if (llvm::Error why = checkRegistrable(entry, instance.entries))
    return why;
  instance.entries.push_back(std::move(entry));
  return llvm::Error::success();
}

const SearcherEntry *findSearcher(const std::string &name) {
  for (const SearcherEntry &entry : searcherRegistry())
    if (entry.name == name)
      return &entry;
  return nullptr;
}

namespace {

std::string joinNames(const std::vector<std::string> &names, const char *last) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 < names.size() ? ", " : last) + names[i];
  return text;
}

/// An option's default as help shows it: "none" for an empty file name.
std::string defaultText(const SearcherOption &option) {
  return option.defaultValue.empty() ? "none" : option.defaultValue;
}

const SearcherOption *findOption(const SearcherEntry &entry,
                                 const std::string &name) {
  for (const SearcherOption &option : entry.options)
    if (option.name == name)
      return &option;
  return nullptr;
}

} // namespace

std::string searcherNameList() {
  std::vector<std::string> names;
  for (const SearcherEntry &entry : searcherRegistry())
    names.push_back(entry.name);
  return joinNames(names, ", ");
}

const std::vector<SharedOption> &searcherOptions() {
  static const std::vector<SharedOption> options = [] {
    std::vector<SharedOption> shared;
    for (const SearcherEntry &entry : searcherRegistry())
      for (const SearcherOption &option : entry.options) {
        auto it = std::find_if(shared.begin(), shared.end(),
                               [&](const SharedOption &known) {
                                 return known.option->name == option.name;
                               });
        if (it == shared.end())
          shared.push_back({&option, {entry.name}, ""});
        else
          it->searchers.push_back(entry.name);
      }
    for (SharedOption &known : shared)
      known.help = joinNames(known.searchers, ", ") + ": " +
                   known.option->help + " (" + known.option->accepted +
                   "; default " + defaultText(*known.option) + ")";
    return shared;
  }();
  return options;
}

llvm::Expected<OptionValues> resolveSearcher(const SearcherConfig &config) {
  const SearcherEntry *entry = findSearcher(config.name);
  if (!entry)
    return makeError("unknown searcher '" + config.name +
                     "' (searchers: " + searcherNameList() + ")");
  std::map<std::string, std::string> values;
  for (const SearcherOption &option : entry->options)
    values[option.name] = option.defaultValue;
  for (const auto &[name, text] : config.options) {
    const SearcherOption *option = findOption(*entry, name);
    if (!option) {
      auto shared =
          std::find_if(searcherOptions().begin(), searcherOptions().end(),
                       [&](const SharedOption &known) {
                         return known.option->name == name;
                       });
      return makeError(shared == searcherOptions().end()
                           ? "unknown searcher option '" + name + "'"
                           : name + " is an option of " +
                                 joinNames(shared->searchers, " and ") +
                                 ", not of " + config.name);
    }
    std::optional<std::string> canonical = option->canonical(text);
    if (!canonical)
      return makeError(name + " must be " + option->accepted + ", not '" +
                       text + "'");
    values[name] = *canonical;
  }
  return OptionValues(std::move(values));
}

llvm::Error checkSearcherConfig(const SearcherConfig &config) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values)
    return values.takeError();
  const SearcherEntry &entry = *findSearcher(config.name);
  if (entry.check)
    if (llvm::Error problem = entry.check(*values))
      return problem;
  // What the entry reads of its values without side effects, read now, so
  // that an option it reads but does not register is an error before any
  // search rather than a silent "" later.
  if (entry.groupSize)
    entry.groupSize(*values);
  if (entry.keepsLearnt)
    entry.keepsLearnt(*values);
  return values->misuse(config.name);
}

namespace {

/// Sixteen hex digits of the content of the file at `path`, or
/// "unreadable".
std::string contentDigest(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return in ? hexText(fnv1a(text.str())) : "unreadable";
}

/// The name and the options' canonical values: for people, those that
/// differ from their default; for a cache key (`forKey`), every one that
/// shapes the search, input files with their content's digest. "" when
/// `config` is not valid.
std::string searcherText(const SearcherConfig &config, bool forKey) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values) {
    llvm::consumeError(values.takeError());
    return "";
  }
  const SearcherEntry &entry = *findSearcher(config.name);
  std::string text = config.name;
  if (forKey && entry.revision > 1)
    text += "@" + std::to_string(entry.revision);
  for (const SearcherOption &option : entry.options) {
    const std::string &value = values->text(option.name);
    if (forKey && option.role == SearcherOption::Role::OutputFile)
      continue;
    if (forKey || value != option.defaultValue)
      text += " " + option.name + "=" + value;
    if (forKey && option.role == SearcherOption::Role::InputFile &&
        !value.empty()) {
      auto read = config.inputDigests.find(option.name);
      text += "#" + (read != config.inputDigests.end() ? read->second
                                                       : contentDigest(value));
    }
  }
  return text;
}

} // namespace

llvm::Error readSearcherInputs(SearcherConfig &config) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values)
    return values.takeError();
  const SearcherEntry &entry = *findSearcher(config.name);
  for (const SearcherOption &option : entry.options)
    if (option.role == SearcherOption::Role::InputFile &&
        !values->text(option.name).empty())
      config.inputDigests[option.name] =
          contentDigest(values->text(option.name));
  if (entry.readInputs)
    if (llvm::Error problem = entry.readInputs(*values, config))
      return problem;
  return values->misuse(config.name);
}

std::string describeSearcher(const SearcherConfig &config) {
  return searcherText(config, /*forKey=*/false);
}

std::string searcherKey(const SearcherConfig &config) {
  return searcherText(config, /*forKey=*/true);
}

namespace {

/// `made`, unless its entry read an option it does not register: that bug
/// is the error then, whatever making it came to.
template <typename SearcherType>
llvm::Expected<std::unique_ptr<SearcherType>>
withoutMisuse(llvm::Expected<std::unique_ptr<SearcherType>> made,
              const OptionValues &values, const std::string &name) {
  if (llvm::Error misuse = values.misuse(name)) {
    if (!made)
      llvm::consumeError(made.takeError());
    return std::move(misuse);
  }
  return made;
}

} // namespace

llvm::Expected<std::unique_ptr<Searcher>>
makeSearcher(const SearcherConfig &config, const MapSpace &space, uint64_t seed,
             const SearchBudget &budget, Objective objective) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values)
    return values.takeError();
  return withoutMisuse(findSearcher(config.name)
                           ->make({*values, budget, config.policyLibrary,
                                   config.weights, objective},
                                  space, seed),
                       *values, config.name);
}

unsigned networkGroupSize(const SearcherConfig &config) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values) {
    llvm::consumeError(values.takeError());
    return 0;
  }
  const SearcherEntry &entry = *findSearcher(config.name);
  return entry.groupSize ? entry.groupSize(*values) : 0;
}

llvm::Expected<std::unique_ptr<NetworkSearcher>> makeNetworkSearcher(
    const SearcherConfig &config, const std::vector<const MapSpace *> &spaces,
    const std::vector<uint64_t> &seeds, const std::vector<unsigned> &groups,
    const SearchBudget &budget, Objective objective) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values)
    return values.takeError();
  const SearcherEntry &entry = *findSearcher(config.name);
  if (!entry.makeNetwork)
    return makeError(config.name + " searches one problem at a time");
  return withoutMisuse(entry.makeNetwork({*values, budget, config.policyLibrary,
                                          config.weights, objective},
                                         spaces, seeds, groups),
                       *values, config.name);
}

llvm::Expected<std::unique_ptr<NetworkSearcher>>
makeWhileLoadingSearcher(const SearcherConfig &config,
                         const std::vector<const MapSpace *> &spaces,
                         const std::vector<uint64_t> &seeds,
                         const SearchBudget &budget, Objective objective) {
  llvm::Expected<OptionValues> values = resolveSearcher(config);
  if (!values)
    return values.takeError();
  const SearcherEntry &entry = *findSearcher(config.name);
  if (!entry.makeWhileLoading)
    return std::unique_ptr<NetworkSearcher>();
  return entry.makeWhileLoading(
      {*values, budget, config.policyLibrary, config.weights, objective},
      spaces, seeds);
}

std::string searcherReference() {
  std::string text =
      "# Searchers and their options\n\n"
      "Written by `marlmap-explore --list-searchers` from marlmap's searcher "
      "registry (utils/update-docs.sh refreshes this file). `--marl-map` "
      "takes each option as `name=value`, `marlmap-explore` as "
      "`--name value`; an option of another searcher than the one chosen is "
      "an error. docs/Search.md describes the searchers.\n";
  for (const SearcherEntry &entry : searcherRegistry()) {
    text += "\n## " + entry.name + "\n\n" + entry.help + ".\n";
    if (entry.learns)
      text += "\nIt learns, with LibTorch: it needs the policy library "
              "(`policy-library=`).\n";
    bool any = false;
    for (const SearcherOption &option : entry.options) {
      if (option.hidden)
        continue;
      if (!any)
        text += "\n| option | default | accepts | |\n|---|---|---|---|\n";
      any = true;
      text += "| `" + option.name + "` | " + defaultText(option) + " | " +
              option.accepted + " | " + option.help + " |\n";
    }
    if (!any)
      text += "\nNo options.\n";
  }
  return text;
}

std::string objectiveNameList() {
  std::vector<std::string> names;
  for (const ObjectiveEntry &entry : objectiveRegistry())
    names.push_back(entry.name);
  return joinNames(names, " or ");
}

std::vector<std::string> factorsOptionValues() {
  std::vector<std::string> names;
  for (FactorSpace space : kFactorSpaces)
    names.push_back(factorSpaceName(space));
  names.push_back(kFactorsAuto);
  return names;
}

std::string factorSpaceNameList() {
  return joinNames(factorsOptionValues(), " or ");
}

} // namespace marlmap
