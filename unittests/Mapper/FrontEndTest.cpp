//===- FrontEndTest.cpp - What the pass, the tools and Python share -------===//

#include "marlmap/Mapper/FrontEnd.h"

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// The option an error names, "" for any other error.
std::string optionOf(llvm::Error error) {
  std::string option;
  llvm::handleAllErrors(
      std::move(error),
      [&](const OptionError &refused) { option = refused.option(); },
      [](const llvm::ErrorInfoBase &) {});
  return option;
}

TEST(FrontEnd, OptionsBecomeTheRequest) {
  MapperOptions options;
  options.objective = "latency";
  options.searcher = "annealing";
  options.searcherOptions = {{"annealing-start", "0.5"}};
  options.budget = 300;
  options.seconds = 2.5;
  options.seed = 7;
  options.stopAfter = 40;
  options.cache = "mappings.sqlite";
  llvm::Expected<MapperRequest> request = makeRequest(options);
  ASSERT_TRUE(bool(request)) << errorText(request.takeError());
  EXPECT_EQ(request->objective, Objective::Latency);
  EXPECT_EQ(request->searcher.name, "annealing");
  EXPECT_EQ(request->searcher.options, options.searcherOptions);
  EXPECT_EQ(request->samples, 300);
  EXPECT_EQ(request->seconds, 2.5);
  EXPECT_EQ(request->seed, 7u);
  EXPECT_EQ(request->stopAfter, 40);
  EXPECT_EQ(request->cache, "mappings.sqlite");
}

TEST(FrontEnd, DefaultsAreThePasses) {
  llvm::Expected<MapperRequest> request = makeRequest(MapperOptions());
  ASSERT_TRUE(bool(request)) << errorText(request.takeError());
  MapperRequest defaults;
  EXPECT_EQ(request->objective, defaults.objective);
  EXPECT_EQ(request->searcher.name, defaults.searcher.name);
  // No budget given: the default cap, decided with the time budget.
  EXPECT_EQ(request->samples, 0);
  EXPECT_EQ(sampleCap(*request), kDefaultBudget);
  EXPECT_EQ(request->seconds, 0.0);
}

TEST(FrontEnd, RefusedValuesNameTheirOption) {
  auto refused = [](auto change) {
    MapperOptions options;
    change(options);
    llvm::Expected<MapperRequest> request = makeRequest(options);
    return request ? std::string("accepted") : optionOf(request.takeError());
  };
  EXPECT_EQ(refused([](MapperOptions &o) { o.objective = "speed"; }),
            "objective");
  // Given, 0 is no budget at all, not "the default".
  EXPECT_EQ(refused([](MapperOptions &o) { o.budget = 0; }), "budget");
  EXPECT_EQ(refused([](MapperOptions &o) { o.budget = kMaxBudget + 1; }),
            "budget");
  EXPECT_EQ(refused([](MapperOptions &o) { o.seconds = 0.0; }), "time");
  EXPECT_EQ(refused([](MapperOptions &o) { o.seconds = -1.0; }), "time");
  EXPECT_EQ(refused([](MapperOptions &o) { o.threads = kMaxThreads + 1; }),
            "threads");
  EXPECT_EQ(refused([](MapperOptions &o) { o.threads = -1; }), "threads");
}

TEST(FrontEnd, MakingTheMapperChecksTheRest) {
  const Arch eyeriss = *findPreset("eyeriss");
  MapperOptions options;
  options.stopAfter = -1;
  llvm::Expected<std::unique_ptr<Mapper>> mapper = makeMapper(options, eyeriss);
  ASSERT_FALSE(bool(mapper));
  EXPECT_EQ(optionOf(mapper.takeError()), "stop-after");

  options = MapperOptions();
  options.searcher = "magic";
  mapper = makeMapper(options, eyeriss);
  ASSERT_FALSE(bool(mapper));
  EXPECT_NE(errorText(mapper.takeError()).find("unknown searcher 'magic'"),
            std::string::npos);

  Arch impossible = eyeriss;
  impossible.clockMHz = -1;
  mapper = makeMapper(MapperOptions(), impossible);
  EXPECT_FALSE(bool(mapper));
  llvm::consumeError(mapper.takeError());
}

TEST(FrontEnd, ErrorsSpellOptionsAsTheFrontEndDoes) {
  auto flag = [](const std::string &option) { return "--" + option; };
  EXPECT_EQ(errorText(checkBudget(0), flag),
            "--budget must be between 1 and 1000000000 samples, not 0");
  EXPECT_EQ(errorText(checkBudget(0)),
            "budget must be between 1 and 1000000000 samples, not 0");
  // Other errors are told as they are.
  EXPECT_EQ(errorText(llvm::createStringError("no such file"), flag),
            "no such file");
  EXPECT_EQ(errorText(llvm::Error::success()), "");
}

TEST(FrontEnd, AGivenMappingIsCostedOrRefused) {
  const Arch eyeriss = *findPreset("eyeriss");
  Problem gemm = makeGemm(16, 8, 4);
  Mapping outermost = Mapping::outermostOnly(gemm, eyeriss);
  llvm::Expected<CostedMapping> costed = costMapping(outermost, gemm, eyeriss);
  ASSERT_TRUE(bool(costed)) << errorText(costed.takeError());
  EXPECT_TRUE(costed->evaluation.valid);
  EXPECT_EQ(costed->evaluation.macs, 16 * 8 * 4);
  EXPECT_LE(costed->bound.energy, costed->evaluation.energy);

  // The mapping of another problem does not fit this one.
  Problem other = makeGemm(32, 8, 4);
  costed = costMapping(outermost, other, eyeriss);
  ASSERT_FALSE(bool(costed));
  EXPECT_EQ(errorText(costed.takeError()).rfind("does not fit 'eyeriss': ", 0),
            0u);
}

TEST(FrontEnd, SearchingOneProblemIsTheMappersOutcome) {
  const Arch eyeriss = *findPreset("eyeriss");
  MapperOptions options;
  options.searcher = "random";
  options.budget = 200;
  options.seed = 3;
  std::unique_ptr<Mapper> mapper = llvm::cantFail(makeMapper(options, eyeriss));
  Problem conv = makeConv({1, 16, 8, 14, 14, 3, 3});
  llvm::Expected<SearchedProblem> searched = searchProblem(*mapper, conv, {});
  ASSERT_TRUE(bool(searched)) << errorText(searched.takeError());
  ASSERT_TRUE(searched->space);
  const ProblemOutcome &outcome = searched->outcome();
  EXPECT_TRUE(outcome.found);
  EXPECT_EQ(outcome.samples, 200);

  // The same as the Mapper gives for the problem in a network of one.
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  MapperResult direct = mapper->map({{conv, std::nullopt}}, *executor);
  EXPECT_EQ(direct.problems.front().mapping, outcome.mapping);
  EXPECT_EQ(direct.problems.front().curve, outcome.curve);
}

TEST(FrontEnd, AProblemWithoutAMapSpaceIsAnInputError) {
  std::unique_ptr<Mapper> mapper =
      llvm::cantFail(makeMapper(MapperOptions(), *findPreset("edge")));
  llvm::Expected<SearchedProblem> searched =
      searchProblem(*mapper, makeGemm(int64_t(1) << 41, 1, 1), {});
  ASSERT_FALSE(bool(searched));
  llvm::Error error = searched.takeError();
  EXPECT_FALSE(error.isA<SearchError>());
  EXPECT_NE(errorText(std::move(error)).find("the map space factors bounds"),
            std::string::npos);
}

TEST(FrontEnd, AFailureUnderneathIsASearchError) {
  MapperOptions options;
  options.searcher = "marl";
  options.budget = 64;
  options.searcherOptions = {{"policy-save", "/nonexistent-folder/w.txt"}};
  llvm::Expected<std::unique_ptr<Mapper>> mapper =
      makeMapper(options, *findPreset("eyeriss"));
  ASSERT_TRUE(bool(mapper)) << errorText(mapper.takeError());
  llvm::Expected<SearchedProblem> searched =
      searchProblem(**mapper, makeGemm(16, 8, 4), {});
  ASSERT_FALSE(bool(searched));
  llvm::Error error = searched.takeError();
  EXPECT_TRUE(error.isA<SearchError>());
  EXPECT_NE(errorText(std::move(error)).find("/nonexistent-folder/w.txt"),
            std::string::npos);
}

} // namespace
