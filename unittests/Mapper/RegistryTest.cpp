//===- RegistryTest.cpp - Searchers and their options, by name ------------===//

#include "marlmap/Mapper/Registry.h"
#include "Searchers/PolicyEntries.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/Mapper.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace marlmap;

namespace {

SearcherConfig configOf(const std::string &name,
                        std::map<std::string, std::string> options = {}) {
  return SearcherConfig{name, std::move(options), ""};
}

/// A value `option` accepts other than its default: another of its
/// choices, or one of a few numbers (one is in every range the registry
/// holds).
std::optional<std::string> otherValue(const SearcherOption &option) {
  for (const std::string &choice : option.choices)
    if (choice != option.defaultValue)
      return choice;
  for (const char *candidate : {"1", "2", "3", "7", "0", "0.5", "0.01"}) {
    std::optional<std::string> value = option.canonical(candidate);
    if (value && *value != option.defaultValue)
      return value;
  }
  return std::nullopt;
}

TEST(Registry, NamesAreUniqueAndListedInHelp) {
  std::set<std::string> names;
  for (const SearcherEntry &entry : searcherRegistry()) {
    EXPECT_TRUE(names.insert(entry.name).second) << entry.name;
    EXPECT_FALSE(entry.help.empty()) << entry.name;
    EXPECT_EQ(findSearcher(entry.name), &entry);
  }
  // The lists name what the registries hold, in their order.
  std::string searchers, objectives;
  for (const SearcherEntry &entry : searcherRegistry())
    searchers += (searchers.empty() ? "" : ", ") + entry.name;
  EXPECT_EQ(searcherNameList(), searchers);
  const std::vector<ObjectiveEntry> &all = objectiveRegistry();
  for (size_t i = 0; i < all.size(); ++i)
    objectives += std::string(i == 0                ? ""
                              : i + 1 == all.size() ? " or "
                                                    : ", ") +
                  all[i].name;
  EXPECT_EQ(objectiveNameList(), objectives);
  for (const ObjectiveEntry &entry : all)
    EXPECT_EQ(parseObjective(entry.name), entry.objective);
}

TEST(Registry, EverySearcherTakesItsDefaults) {
  for (const SearcherEntry &entry : searcherRegistry()) {
    std::string error;
    std::optional<OptionValues> values =
        optionalOr(resolveSearcher(configOf(entry.name)), error);
    ASSERT_TRUE(values) << entry.name << ": " << error;
    std::string key = entry.name;
    if (entry.revision > 1)
      key += "@" + std::to_string(entry.revision);
    for (const SearcherOption &option : entry.options) {
      // A default is written as the option itself would write it.
      EXPECT_EQ(option.canonical(option.defaultValue), option.defaultValue)
          << option.name;
      EXPECT_EQ(values->text(option.name), option.defaultValue);
      // A file written changes nothing found.
      if (option.role != SearcherOption::Role::OutputFile)
        key += " " + option.name + "=" + option.defaultValue;
    }
    EXPECT_EQ(searcherKey(configOf(entry.name)), key);
    EXPECT_EQ(describeSearcher(configOf(entry.name)), entry.name);
  }
}

TEST(Registry, EveryOptionChangesTheCacheKey) {
  // Files: Mapper.LearntWeightsAreSavedAlikeOnAnyThreadCountAndStartLaterSearches.
  for (const SearcherEntry &entry : searcherRegistry())
    for (const SearcherOption &option : entry.options) {
      if (option.role != SearcherOption::Role::Setting)
        continue;
      std::optional<std::string> value = otherValue(option);
      ASSERT_TRUE(value) << entry.name << " " << option.name;
      SearcherConfig changed = configOf(entry.name, {{option.name, *value}});
      EXPECT_EQ(llvm::toString(checkSearcherConfig(changed)), "")
          << option.name;
      EXPECT_NE(searcherKey(changed), searcherKey(configOf(entry.name)))
          << entry.name << " " << option.name;
      EXPECT_EQ(describeSearcher(changed),
                entry.name + " " + option.name + "=" + *value);
    }
}

TEST(Registry, EveryOptionRefusesWhatItDoesNotAccept) {
  for (const SearcherEntry &entry : searcherRegistry())
    for (const SearcherOption &option : entry.options) {
      // Any name is a file name, but one that a pass's options can carry.
      if (option.role != SearcherOption::Role::Setting) {
        for (const char *bad : {"a b", "a\tb", "a\nb"})
          EXPECT_EQ(llvm::toString(checkSearcherConfig(
                        configOf(entry.name, {{option.name, bad}}))),
                    option.name + " must be a file name, not '" + bad + "'");
        continue;
      }
      for (const char *bad : {"", "x", "nan", "inf", "1e400", "1x", "-1e300",
                              "99999999999999999999999"}) {
        std::string error = llvm::toString(
            checkSearcherConfig(configOf(entry.name, {{option.name, bad}})));
        EXPECT_EQ(error, option.name + " must be " + option.accepted +
                             ", not '" + bad + "'")
            << entry.name;
      }
    }
}

TEST(Registry, RangesAreThoseDocumented) {
  auto check = [](const std::string &name, const std::string &option,
                  const std::string &value) {
    return llvm::toString(
        checkSearcherConfig(configOf(name, {{option, value}})));
  };
  EXPECT_EQ(check("marl", "policy-lr", "10"), "");
  EXPECT_EQ(check("marl", "policy-lr", "0"),
            "policy-lr must be a number above 0, at most 10, not '0'");
  EXPECT_EQ(check("sarl", "policy-epochs", "100"), "");
  EXPECT_EQ(check("sarl", "policy-epochs", "101"),
            "policy-epochs must be an integer from 1 to 100, not '101'");
  EXPECT_EQ(check("marl", "policy-entropy", "-0.1"),
            "policy-entropy must be a number from 0 to 100, not '-0.1'");
  EXPECT_EQ(check("marl", "agents", "0"),
            "agents must be auto, correlation, per-decision, random or a number from 1 "
            "to 100000, not '0'");
  EXPECT_EQ(check("genetic", "genetic-population", "1"),
            "genetic-population must be an integer from 2 to 1000000, not "
            "'1'");
  EXPECT_EQ(check("annealing", "annealing-end", "0"),
            "annealing-end must be a number above 0, at most 1000, not '0'");
  EXPECT_EQ(check("marl", "policy-transfer", "64"), "");
  EXPECT_EQ(check("marl", "policy-transfer", "65"),
            "policy-transfer must be an integer from 0 to 64, not '65'");
  EXPECT_EQ(check("marl", "policy-share", "nan"),
            "policy-share must be an integer from 0 to 64, not 'nan'");
  EXPECT_EQ(check("sarl", "policy-refine", "-1"),
            "policy-refine must be auto or an integer from 0 to 64, not "
            "'-1'");
  EXPECT_EQ(check("marl", "policy-restart", "auto"), "");
  EXPECT_EQ(check("marl", "policy-restart", "0"), "");
  EXPECT_EQ(check("marl", "policy-restart", "often"),
            "policy-restart must be auto or an integer from 0 to "
            "1000000000, not 'often'");
  EXPECT_EQ(check("marl", "policy-head", "both"),
            "policy-head must be joint or factorised, not 'both'");
}

TEST(Registry, ValuesAreKeptInTheirCanonicalSpelling) {
  SearcherConfig config =
      configOf("marl", {{"policy-lr", "0.010"}, {"agents", "04"}});
  EXPECT_EQ(describeSearcher(config), "marl agents=4 policy-lr=0.01");
  EXPECT_EQ(
      searcherKey(config),
      searcherKey(configOf("marl", {{"policy-lr", "1e-2"}, {"agents", "4"}})));
}

TEST(Registry, TheCacheKeyNamesTheSearchersRevision) {
  // policy-restart=auto changed what it means (revision 2), and the spread
  // decisions what the agents draw (3): mappings the learned searchers
  // found before are not theirs now.
  for (const char *name : {"marl", "sarl", "marl-polish"}) {
    const SearcherConfig config = configOf(name, {});
    EXPECT_EQ(searcherKey(config).rfind(std::string(name) + "@3 ", 0), 0u)
        << searcherKey(config);
    EXPECT_EQ(describeSearcher(config), name);
  }
  // A searcher at its first revision keeps the keys it always had.
  EXPECT_EQ(searcherKey(configOf("annealing", {})).rfind("annealing ", 0), 0u);
}

TEST(Registry, OptionsAreCheckedForTheSearcherTheyAreGivenTo) {
  EXPECT_EQ(llvm::toString(checkSearcherConfig(
                configOf("genetic", {{"policy-lr", "0.1"}}))),
            "policy-lr is an option of marl, sarl and marl-polish, not of "
            "genetic");
  EXPECT_EQ(
      llvm::toString(checkSearcherConfig(configOf("sarl", {{"agents", "3"}}))),
      "agents is an option of marl and marl-polish, not of sarl");
  EXPECT_EQ(llvm::toString(
                checkSearcherConfig(configOf("marl", {{"policy-speed", "3"}}))),
            "unknown searcher option 'policy-speed'");
  EXPECT_EQ(llvm::toString(checkSearcherConfig(configOf("tabu"))),
            "unknown searcher 'tabu' (searchers: " + searcherNameList() + ")");
}

TEST(Registry, SharedOptionsNameEverySearcherThatTakesThem) {
  std::set<std::string> names;
  for (const SharedOption &shared : searcherOptions()) {
    EXPECT_TRUE(names.insert(shared.option->name).second);
    if (shared.option->name == "policy-lr") {
      EXPECT_EQ(
          shared.help.rfind("marl, sarl, marl-polish: Adam learning rate (", 0),
          0u)
          << shared.help;
    }
    if (shared.option->name == "agents") {
      EXPECT_EQ(shared.searchers,
                (std::vector<std::string>{"marl", "marl-polish"}));
    }
  }
  // Options shared by name are one option: the same default and help.
  for (const SearcherEntry &entry : searcherRegistry())
    for (const SearcherOption &option : entry.options)
      for (const SharedOption &shared : searcherOptions())
        if (shared.option->name == option.name) {
          EXPECT_EQ(shared.option->defaultValue, option.defaultValue);
          EXPECT_EQ(shared.option->help, option.help);
        }
}

TEST(Registry, BudgetsAndThreadCountsHaveRanges) {
  auto text = [](llvm::Error error) { return errorText(std::move(error)); };
  EXPECT_EQ(text(checkBudget(1)), "");
  EXPECT_EQ(text(checkBudget(kMaxBudget)), "");
  EXPECT_EQ(text(checkBudget(0)),
            "budget must be between 1 and 1000000000 samples, not 0");
  EXPECT_NE(text(checkBudget(kMaxBudget + 1)), "");
  EXPECT_EQ(text(checkSeconds(0.5)), "");
  EXPECT_EQ(text(checkSeconds(-1)),
            "time must be above 0 and at most 1000000 seconds, not -1");
  EXPECT_NE(text(checkSeconds(std::nan(""))), "");
  EXPECT_EQ(text(checkThreads(0)), "");
  EXPECT_EQ(text(checkThreads(kMaxThreads)), "");
  EXPECT_EQ(text(checkThreads(4294967295)),
            "threads must be between 0 (one per core) and 1024, not "
            "4294967295");
}

TEST(Registry, TheBudgetKindIsPartOfTheKey) {
  MapperRequest request;
  EXPECT_EQ(sampleCap(request), kDefaultBudget);
  EXPECT_EQ(budgetKey(request), "samples=2000");
  request.seconds = 2.5;
  EXPECT_EQ(sampleCap(request), kMaxBudget);
  EXPECT_EQ(budgetKey(request), "seconds=2.5");
  request.samples = 500;
  EXPECT_EQ(budgetKey(request), "samples=500 seconds=2.5");
  request.stopAfter = 300;
  EXPECT_EQ(budgetKey(request), "samples=500 seconds=2.5 stop-after=300");
}

TEST(Registry, AutomaticRefinementRefinesOnlyWhenTimeAloneBoundsTheSearch) {
  std::string error;
  for (const char *name : {"marl", "sarl"}) {
    SearcherConfig config;
    config.name = name;
    std::optional<OptionValues> defaults =
        optionalOr(resolveSearcher(config), error);
    ASSERT_TRUE(defaults) << error;
    const bool hasAgents = std::string(name) == "marl";
    EXPECT_EQ(readPolicy(*defaults, SearchBudget(0, 5.0), hasAgents).refine,
              16u);
    EXPECT_EQ(readPolicy(*defaults, SearchBudget(2000, 0.0), hasAgents).refine,
              0u);
    EXPECT_EQ(readPolicy(*defaults, SearchBudget(2000, 5.0), hasAgents).refine,
              0u);
    config.options = {{"policy-refine", "3"}};
    std::optional<OptionValues> three =
        optionalOr(resolveSearcher(config), error);
    ASSERT_TRUE(three) << error;
    EXPECT_EQ(readPolicy(*three, SearchBudget(0, 5.0), hasAgents).refine, 3u);
    EXPECT_EQ(readPolicy(*three, SearchBudget(2000, 0.0), hasAgents).refine,
              3u);
  }
}

} // namespace
