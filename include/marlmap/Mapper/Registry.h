//===- Registry.h - Searchers and objectives as users name them -*- C++ -*-===//
//
// Every searcher registers once: its name, one line of help, its options
// (name, default, the values it accepts, help) and how it is made. The
// passes' options, the tools' flags, their help, the cache keys and the
// reports are all derived from these entries, so that an option cannot be
// known in one place and missing in another. Option values are kept as
// text in their canonical spelling ("0.030" becomes "0.03"): equal texts,
// equal searches.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_REGISTRY_H
#define MARLMAP_MAPPER_REGISTRY_H

#include "marlmap/Mapper/Defaults.h"
#include "marlmap/Search/Searcher.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// One option of a searcher, as the passes and the tools spell it.
struct SearcherOption {
  std::string name;
  std::string help;
  /// Canonical text.
  std::string defaultValue;
  /// What it accepts, for help and errors: "0 to 100", "joint or
  /// factorised".
  std::string accepted;
  /// The canonical spelling of `text`, or nullopt when it is not accepted.
  std::function<std::optional<std::string>(const std::string &text)> canonical;
  /// Every value a choice option accepts, in the order help lists them;
  /// empty for numbers and files.
  std::vector<std::string> choices;
  /// Testing only: left out of help.
  bool hidden = false;
  /// What the value is to the search: a setting; a file it reads (a cache
  /// key holds a digest of the file's content too); or a file it writes,
  /// which changes nothing found (no cache key holds it).
  enum class Role { Setting, InputFile, OutputFile };
  Role role = Role::Setting;
};

/// A text option naming a file (empty: none).
SearcherOption fileOption(std::string name, std::string help,
                          SearcherOption::Role role);

/// The shortest text that reads back as exactly `value`, without an
/// exponent where plain digits do: how options and keys spell numbers.
std::string canonicalNumber(double value);

/// An integer option in [lowest, highest].
SearcherOption integerOption(std::string name, std::string help,
                             int64_t defaultValue, int64_t lowest,
                             int64_t highest);
/// A real option in [lowest, highest] (above `lowest` when `openBelow`).
SearcherOption realOption(std::string name, std::string help,
                          double defaultValue, double lowest, double highest,
                          bool openBelow = false);
/// One of `choices`.
SearcherOption choiceOption(std::string name, std::string help,
                            std::string defaultValue,
                            std::vector<std::string> choices);

/// The values a searcher is made with: every one of its options, canonical.
class OptionValues {
public:
  explicit OptionValues(std::map<std::string, std::string> values)
      : values(std::move(values)) {}
  /// The value of option `name`. A searcher that reads an option it does
  /// not register (a bug in its entry, not the user's input) gets "", and
  /// misuse() names the option.
  const std::string &text(const std::string &name) const;
  int64_t integer(const std::string &name) const;
  double real(const std::string &name) const;
  /// "searcher 'S' reads option 'O', which it does not register" for the
  /// first such read, if there was one.
  llvm::Error misuse(const std::string &searcher) const;

private:
  std::map<std::string, std::string> values;
  /// The first option read that is not registered. Each set of values
  /// belongs to the one call that resolved it.
  mutable std::string unregistered;
};

/// A searcher as a user names it: its name, the options given (others take
/// their defaults), and where the policy library is (PolicyLibrary.h; not
/// part of what is found).
struct SearcherConfig {
  std::string name = kDefaultSearcher;
  std::map<std::string, std::string> options;
  std::string policyLibrary;
  /// The agents its `policy-weights` file holds, once read
  /// (readSearcherInputs): every search of a compile shares them. Null:
  /// each search reads the file itself.
  std::shared_ptr<const PolicyWeights> weights;
  /// Each input file's content digest when it was read (by option name):
  /// the cache key holds what was read, not what the file holds later.
  std::map<std::string, std::string> inputDigests;
};

/// What a searcher is made from.
struct SearcherRequest {
  const OptionValues &options;
  const SearchBudget &budget;
  const std::string &policyLibrary;
  const std::shared_ptr<const PolicyWeights> &weights;
  /// What the search minimises (searchers that bound it need it).
  Objective objective;
};

struct SearcherEntry {
  std::string name;
  std::string help;
  std::vector<SearcherOption> options;
  /// Raised whenever what the searcher finds under the same options, seed
  /// and budget changes on purpose (what a default such as `auto` means, a
  /// fix): the cache key holds it past 1, so mappings found before are not
  /// served as the searcher's.
  unsigned revision = 1;
  /// It learns, with LibTorch: it needs the policy library.
  bool learns = false;
  /// It walks the structure of the perfect factor space (MapSpace's
  /// factor slots), not its parameters: it refuses the imperfect spaces.
  bool perfectFactorsOnly = false;
  /// It proves optima (exhaustive, optimal): under a time budget every
  /// problem gets its share of the time, light ones too (docs/Mapper.md).
  bool provesOptima = false;
  /// A searcher for one problem, or why it cannot be made.
  std::function<llvm::Expected<std::unique_ptr<Searcher>>(
      const SearcherRequest &, const MapSpace &, uint64_t seed)>
      make;
  /// When set: one searcher for several problems at once (in lockstep, or
  /// learning across them), giving each what `make` would. `groups[p]` is
  /// the group problem p learns with (see groupSize; empty: all one).
  std::function<llvm::Expected<std::unique_ptr<NetworkSearcher>>(
      const SearcherRequest &, const std::vector<const MapSpace *> &,
      const std::vector<uint64_t> &seeds, const std::vector<unsigned> &groups)>
      makeNetwork;
  /// When set (searchers that learn): a searcher of the same problems that
  /// needs no policy library, run while it loads under a time budget;
  /// makeNetwork's searcher then starts from what it drew
  /// (NetworkSearcher::startFrom).
  std::function<llvm::Expected<std::unique_ptr<NetworkSearcher>>(
      const SearcherRequest &, const std::vector<const MapSpace *> &,
      const std::vector<uint64_t> &seeds)>
      makeWhileLoading;
  /// When set, and it gives N > 0: makeNetwork learns across the problems
  /// of a group, so the driver makes groups of up to N alike problems
  /// (groupSimilarProblems), the same whatever the thread count; a
  /// problem's search then depends on its group alone, not on the other
  /// groups searched beside it.
  std::function<unsigned(const OptionValues &)> groupSize;
  /// When set: what is wrong with a set of values that each option's own
  /// check cannot see (a file that does not read, options that contradict
  /// each other), if anything is.
  std::function<llvm::Error(const OptionValues &)> check;
  /// When set: reads what the values' input files hold into `config`
  /// (SearcherConfig::weights), or says why it cannot.
  std::function<llvm::Error(const OptionValues &, SearcherConfig &config)>
      readInputs;
  /// When set, and keepsLearnt says so for the values: the driver gathers
  /// what the searchers' agents learnt over a network (each agent from the
  /// first problem, in the network's order, that has it) and hands it to
  /// keepLearnt, with the config it was searched with, which says why it
  /// could not keep it, if it could not.
  std::function<bool(const OptionValues &)> keepsLearnt;
  std::function<llvm::Error(const OptionValues &, const SearcherConfig &,
                            const PolicyWeights &)>
      keepLearnt;
};

/// Every searcher, in the order help lists them: marlmap's, then those
/// registered with registerSearcher.
const std::vector<SearcherEntry> &searcherRegistry();
/// Adds an embedder's own searcher (docs/Embedding.md). Call it at
/// start-up, from one thread, before anything reads the registry (before
/// passes are registered or made, before tool options are parsed, before a
/// Mapper is made): the first read seals the registry, and a later
/// registration is refused. Refused too: a name that is taken or holds
/// spaces, commas, quotes, braces or '='; no help; no `make`; an option
/// not named `NAME-...` after the searcher (front ends make every option a
/// flag, so names must not clash) or that refuses its own default.
llvm::Error registerSearcher(SearcherEntry entry);
/// The entry named `name`, or nullptr.
const SearcherEntry *findSearcher(const std::string &name);
/// "random, exhaustive, genetic, ...".
std::string searcherNameList();

/// An option name and every searcher that takes it (marl and sarl share
/// their policy options): what a pass or a tool offers as one flag.
struct SharedOption {
  const SearcherOption *option;
  std::vector<std::string> searchers;
  /// "marl, sarl: <help> (<accepted>; default <default>)".
  std::string help;
};
/// Every option of every searcher, by name, in registration order.
const std::vector<SharedOption> &searcherOptions();

/// The options `config` is made with (defaults filled in, canonical), or
/// why not: an unknown searcher or option, an option of another searcher, a
/// value not accepted.
llvm::Expected<OptionValues> resolveSearcher(const SearcherConfig &config);
/// Why `config` cannot be used, if it cannot: what resolveSearcher says,
/// then its entry's check.
llvm::Error checkSearcherConfig(const SearcherConfig &config);
/// Reads the input files `config` names (SearcherEntry::readInputs) into
/// it, so that the searches made from it share what they hold; an error
/// when one does not read.
llvm::Error readSearcherInputs(SearcherConfig &config);

/// The name, then each option that differs from its default, as passes
/// spell them: "marl agents=4 policy-lr=0.01". For people.
std::string describeSearcher(const SearcherConfig &config);
/// The name and every option's value, defaults too: what a cache key
/// holds, so that an option added later cannot be left out of it (an
/// input file's value with a digest of its content; output files left
/// out).
std::string searcherKey(const SearcherConfig &config);

/// Makes the searcher `config` names (see SearcherEntry), or says why not.
llvm::Expected<std::unique_ptr<Searcher>>
makeSearcher(const SearcherConfig &config, const MapSpace &space, uint64_t seed,
             const SearchBudget &budget, Objective objective);
/// The group size `config`'s makeNetwork wants (SearcherEntry::groupSize),
/// 0 when it takes any split of a network's problems or `config` is not
/// valid.
unsigned networkGroupSize(const SearcherConfig &config);
/// For searchers that search several problems at once (makeNetwork).
llvm::Expected<std::unique_ptr<NetworkSearcher>> makeNetworkSearcher(
    const SearcherConfig &config, const std::vector<const MapSpace *> &spaces,
    const std::vector<uint64_t> &seeds, const std::vector<unsigned> &groups,
    const SearchBudget &budget, Objective objective);

/// The searcher to run while the policy library loads (makeWhileLoading),
/// or nullptr when the searcher has none.
llvm::Expected<std::unique_ptr<NetworkSearcher>>
makeWhileLoadingSearcher(const SearcherConfig &config,
                         const std::vector<const MapSpace *> &spaces,
                         const std::vector<uint64_t> &seeds,
                         const SearchBudget &budget, Objective objective);

/// Every searcher and its options as Markdown (docs/reference/Searchers.md
/// is this text).
std::string searcherReference();

/// "latency, energy or edp", from objectiveRegistry() (Searcher.h).
std::string objectiveNameList();
/// `factors=auto` (MapperRequest::factorsWhereTheyPay).
inline constexpr const char *kFactorsAuto = "auto";
/// Every value `factors` takes: each of kFactorSpaces, the smallest first,
/// then "auto".
std::vector<std::string> factorsOptionValues();
/// "perfect, spatial-imperfect, imperfect or auto".
std::string factorSpaceNameList();

} // namespace marlmap

#endif // MARLMAP_MAPPER_REGISTRY_H
