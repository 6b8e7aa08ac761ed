//===- SearcherContractTest.cpp - What every registered searcher keeps ----===//
//
// Every searcher the registry holds, whatever it is, keeps the same
// contract with the Mapper: its defaults are valid, the same seed gives the
// same result on any thread count, it spends no more than its sample
// budget, a time budget alone ends it, and what it cannot do is an error
// that says why, never a crash. A searcher added to the registry is held to
// it without a line here.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/FrontEnd.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// Two problems, one twice: small enough for any searcher.
std::vector<MapperProblem> smallNetwork() {
  return {{makeGemm(4, 2, 2), std::nullopt},
          {makeGemm(2, 4, 2), std::nullopt},
          {makeGemm(4, 2, 2), std::nullopt}};
}

MapperOptions optionsFor(const std::string &searcher) {
  MapperOptions options;
  options.searcher = searcher;
  options.budget = 300;
  options.seed = 5;
  return options;
}

/// Either a mapping found within `budget`, or an error that says why and
/// spent nothing.
void expectKeptItsBudget(const ProblemOutcome &outcome, int64_t budget) {
  if (!outcome.error.empty()) {
    EXPECT_EQ(outcome.samples, 0) << outcome.error;
    return;
  }
  EXPECT_TRUE(outcome.found) << outcome.notFound;
  EXPECT_GT(outcome.samples, 0);
  EXPECT_LE(outcome.samples, budget);
  EXPECT_GE(outcome.validSamples, 1);
}

TEST(SearcherContract, EverySearcherIsDeterministicAndKeepsItsBudget) {
  const Arch edge = *findPreset("edge");
  for (const SearcherEntry &entry : searcherRegistry()) {
    SCOPED_TRACE(entry.name);
    llvm::Expected<std::unique_ptr<Mapper>> mapper =
        makeMapper(optionsFor(entry.name), edge);
    ASSERT_TRUE(bool(mapper)) << errorText(mapper.takeError());
    std::unique_ptr<Executor> one = makeThreadExecutor(1),
                              two = makeThreadExecutor(2);
    MapperResult first = (*mapper)->map(smallNetwork(), *one);
    MapperResult second = (*mapper)->map(smallNetwork(), *two);
    ASSERT_EQ(first.problems.size(), 2u);
    ASSERT_EQ(second.problems.size(), 2u);
    EXPECT_EQ(first.error, "");
    for (size_t p = 0; p < first.problems.size(); ++p) {
      expectKeptItsBudget(first.problems[p], 300);
      EXPECT_EQ(first.problems[p].error, second.problems[p].error);
      EXPECT_EQ(first.problems[p].mapping, second.problems[p].mapping);
      EXPECT_EQ(first.problems[p].curve, second.problems[p].curve);
      EXPECT_EQ(first.problems[p].samples, second.problems[p].samples);
    }
    EXPECT_EQ(first.totals.edp, second.totals.edp);
  }
}

TEST(SearcherContract, ATimeBudgetAloneEndsEverySearcher) {
  const Arch edge = *findPreset("edge");
  for (const SearcherEntry &entry : searcherRegistry()) {
    SCOPED_TRACE(entry.name);
    MapperOptions options = optionsFor(entry.name);
    options.budget.reset();
    options.seconds = 0.2;
    llvm::Expected<std::unique_ptr<Mapper>> mapper = makeMapper(options, edge);
    ASSERT_TRUE(bool(mapper)) << errorText(mapper.takeError());
    std::unique_ptr<Executor> executor = makeThreadExecutor(2);
    MapperResult result = (*mapper)->map(smallNetwork(), *executor);
    // Not a timing test: the run ends, having spent what it reports.
    EXPECT_LT(result.totals.seconds, 60.0);
    for (const ProblemOutcome &outcome : result.problems)
      expectKeptItsBudget(outcome, kMaxBudget);
  }
}

TEST(SearcherContract, WhatASearcherCannotTakeIsRefusedWithTheReason) {
  const Arch edge = *findPreset("edge");
  for (const SearcherEntry &entry : searcherRegistry()) {
    SCOPED_TRACE(entry.name);
    MapperOptions options = optionsFor(entry.name);
    options.searcherOptions = {{"no-such-option", "1"}};
    llvm::Expected<std::unique_ptr<Mapper>> mapper = makeMapper(options, edge);
    ASSERT_FALSE(bool(mapper));
    EXPECT_NE(errorText(mapper.takeError()).find("no-such-option"),
              std::string::npos);
    // Each of its options refuses a value no option takes.
    for (const SearcherOption &option : entry.options) {
      if (option.role != SearcherOption::Role::Setting)
        continue;
      options.searcherOptions = {{option.name, "not a value"}};
      mapper = makeMapper(options, edge);
      ASSERT_FALSE(bool(mapper)) << option.name;
      EXPECT_NE(errorText(mapper.takeError()).find(option.name),
                std::string::npos);
    }
  }
}

} // namespace
