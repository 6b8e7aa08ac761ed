//===- MapperTest.cpp - Mapping a network's problems ----------------------===//

#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Mapper/Defaults.h"
#include "marlmap/Mapper/Errors.h"

#include "marlmap/Cache/MappingCache.h"

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

#include <atomic>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <unistd.h>

using namespace marlmap;

namespace {

MapperRequest requestFor(const std::string &searcher, int64_t samples) {
  MapperRequest request;
  request.arch = *findPreset("eyeriss");
  request.searcher.name = searcher;
  request.samples = samples;
  return request;
}

/// A small network: a GEMM twice, a conv and another GEMM.
std::vector<MapperProblem> network() {
  return {{makeGemm(64, 32, 16), std::nullopt},
          {makeConv({1, 16, 8, 14, 14, 3, 3}), std::nullopt},
          {makeGemm(64, 32, 16), std::nullopt},
          {makeGemm(8, 8, 8), std::nullopt}};
}

/// A path for a cache file that does not exist yet; the file and SQLite's
/// companions are removed with it.
struct TemporaryCache {
  std::string path;
  TemporaryCache() {
    char name[] = "/tmp/marlmap-mapper-XXXXXX";
    int fd = mkstemp(name);
    if (fd >= 0)
      close(fd);
    path = name;
    std::remove(name);
  }
  ~TemporaryCache() {
    for (const char *suffix : {"", "-wal", "-shm"})
      std::remove((path + suffix).c_str());
  }
};

/// The Mapper of a request that should run; null, with the test failed,
/// when it is refused (each caller asserts it before use).
std::unique_ptr<Mapper> mapperFor(const MapperRequest &request) {
  llvm::Expected<std::unique_ptr<Mapper>> mapper = Mapper::create(request);
  if (!mapper) {
    ADD_FAILURE() << errorText(mapper.takeError());
    return nullptr;
  }
  return std::move(*mapper);
}

/// The small network mapped under `request`; a result that says why, with
/// the test failed, when the request is refused.
MapperResult mapNetwork(const MapperRequest &request, Executor &executor) {
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  if (!mapper) {
    MapperResult refused;
    refused.error = "the request was refused";
    return refused;
  }
  return mapper->map(network(), executor);
}

/// Why `request` is refused ("" when it is not).
std::string refusalOf(MapperRequest request) {
  llvm::Expected<std::unique_ptr<Mapper>> mapper =
      Mapper::create(std::move(request));
  return mapper ? "" : errorText(mapper.takeError());
}

TEST(Mapper, EqualProblemsAreSearchedOnceAndCountedPerOp) {
  std::unique_ptr<Mapper> mapper = mapperFor(requestFor("genetic", 300));
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult result = mapper->map(network(), *executor);
  ASSERT_EQ(result.problems.size(), 3u);
  EXPECT_EQ(result.distinctOf, (std::vector<size_t>{0, 1, 0, 2}));
  EXPECT_EQ(result.problems[0].inputs, (std::vector<size_t>{0, 2}));
  double energy = 0;
  int64_t cycles = 0, macs = 0;
  for (const ProblemOutcome &outcome : result.problems) {
    ASSERT_TRUE(outcome.found) << outcome.notFound;
    EXPECT_EQ(outcome.source, Source::Searched);
    EXPECT_EQ(outcome.samples, 300);
    EXPECT_GE(outcome.boundRatio, 1.0);
    energy += double(outcome.inputs.size()) * outcome.evaluation.energy;
    cycles += int64_t(outcome.inputs.size()) * outcome.evaluation.cycles;
    macs += int64_t(outcome.inputs.size()) * outcome.problem.iterations();
  }
  const NetworkTotals &totals = result.totals;
  EXPECT_EQ(totals.opsMapped, 4u);
  EXPECT_EQ(totals.distinctProblems, 3u);
  EXPECT_EQ(totals.searched, 3u);
  EXPECT_EQ(totals.samples, 900);
  EXPECT_DOUBLE_EQ(totals.energy, energy);
  EXPECT_EQ(totals.cycles, cycles);
  EXPECT_EQ(totals.macs, macs);
  EXPECT_DOUBLE_EQ(totals.edp, energy * double(cycles));
  EXPECT_DOUBLE_EQ(totals.latencySeconds,
                   double(cycles) / (mapper->request().arch.clockMHz * 1e6));
}

TEST(Mapper, ResultsDoNotDependOnTheExecutor) {
  // marl's problems pass mappings to each other between rounds; with
  // policy-refine, rounds of refinement follow each update; with
  // policy-share, alike problems share agents (the two GEMMs here); with a
  // short policy-restart, agents restart, alone or by share class.
  const std::map<std::string, std::string> refining = {
      {"policy-refine", "2"}};
  for (const auto &[searcher, options] :
       std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
           {"genetic", {}},
           {"annealing", {}},
           {"marl", {}},
           {"marl", refining},
           {"marl", {{"policy-share", "4"}}},
           {"marl", {{"policy-restart", "32"}}},
           {"marl", {{"policy-restart", "32"}, {"policy-share", "0"}}}}) {
    MapperRequest request = requestFor(searcher, 200);
    request.searcher.options = options;
    std::unique_ptr<Mapper> mapper = mapperFor(request);
    ASSERT_TRUE(mapper);
    std::vector<MapperResult> results;
    for (unsigned threads : {1u, 2u, 3u}) {
      std::unique_ptr<Executor> executor = makeThreadExecutor(threads);
      results.push_back(mapper->map(network(), *executor));
    }
    for (const MapperResult &result : results)
      for (size_t p = 0; p < result.problems.size(); ++p) {
        EXPECT_EQ(result.problems[p].mapping, results[0].problems[p].mapping)
            << searcher;
        EXPECT_EQ(result.problems[p].curve, results[0].problems[p].curve)
            << searcher;
      }
  }
}

TEST(Mapper, GivenMappingsAreCostedNotSearched) {
  std::unique_ptr<Mapper> mapper = mapperFor(requestFor("genetic", 100));
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult searched = mapper->map(network(), *executor);
  std::vector<MapperProblem> problems = network();
  problems[1].given = searched.problems[1].mapping;
  MapperResult result = mapper->map(problems, *executor);
  const ProblemOutcome &given = result.problems[result.distinctOf[1]];
  EXPECT_EQ(given.source, Source::Given);
  EXPECT_EQ(given.samples, 0);
  EXPECT_EQ(given.evaluation.edp, searched.problems[1].evaluation.edp);
  EXPECT_EQ(result.totals.searched, 2u);

  // One that does not fit the problem is an error, not a search.
  problems[1].given = searched.problems[0].mapping;
  result = mapper->map(problems, *executor);
  const ProblemOutcome &misfit = result.problems[result.distinctOf[1]];
  EXPECT_FALSE(misfit.found);
  EXPECT_EQ(misfit.error.rfind("the mapping it carries does not fit", 0), 0u)
      << misfit.error;
  EXPECT_EQ(result.totals.opsNotMapped, 1u);
}

// factors=auto: the 197-row product takes partial tiles, the convolution
// whose columns fill eyeriss's rows keeps whole factors, and a given
// mapping (costed, not searched) keeps the perfect space's name.
TEST(Mapper, AutoFactorsChooseEachProblemsSpace) {
  MapperRequest request = requestFor("random", 50);
  request.factors = FactorSpace::Imperfect;
  request.factorsWhereTheyPay = true;
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  std::vector<MapperProblem> problems = {
      {makeGemm(197, 64, 64), std::nullopt},
      {makeConv({1, 64, 64, 56, 56, 3, 3}), std::nullopt}};
  MapperResult result = mapper->map(problems, *executor);
  ASSERT_EQ(result.problems.size(), 2u);
  EXPECT_EQ(result.problems[0].factors, FactorSpace::Imperfect);
  EXPECT_EQ(result.problems[1].factors, FactorSpace::Perfect);
  problems.push_back({makeGemm(197, 64, 64), result.problems[0].mapping});
  result = mapper->map(problems, *executor);
  ASSERT_EQ(result.problems.size(), 3u);
  EXPECT_EQ(result.problems[2].source, Source::Given);
  EXPECT_EQ(result.problems[2].factors, FactorSpace::Perfect);
  EXPECT_EQ(result.problems[0].factors, FactorSpace::Imperfect);
}

// Under a time budget a problem's cached result is its network's: the same
// network under factors=auto, whose other problems take partial tiles,
// is another network, even for the problem auto keeps whole.
TEST(Mapper, AutoFactorsAreAnotherNetworkUnderTime) {
  TemporaryCache file;
  MapperRequest perfect = requestFor("random", 0);
  perfect.seconds = 0.2;
  perfect.cache = file.path;
  MapperRequest automatic = perfect;
  automatic.factors = FactorSpace::Imperfect;
  automatic.factorsWhereTheyPay = true;
  const std::vector<MapperProblem> problems = {
      {makeGemm(197, 64, 64), std::nullopt},
      {makeConv({1, 64, 64, 56, 56, 3, 3}), std::nullopt}};
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  auto cacheHits = [&](const MapperRequest &request) {
    std::unique_ptr<Mapper> mapper = mapperFor(request);
    return mapper ? mapper->map(problems, *executor).totals.cacheHits
                  : size_t(99);
  };
  EXPECT_EQ(cacheHits(perfect), 0u);
  EXPECT_EQ(cacheHits(automatic), 0u);
  EXPECT_EQ(cacheHits(perfect), 2u);
  EXPECT_EQ(cacheHits(automatic), 2u);
}

TEST(Mapper, TheCacheAnswersASecondMapping) {
  TemporaryCache file;
  const std::string &path = file.path;
  MapperRequest request = requestFor("genetic", 150);
  request.cache = path;
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  MapperResult first = mapper->map(network(), *executor);
  MapperResult second = mapper->map(network(), *executor);
  EXPECT_EQ(first.totals.cacheHits, 0u);
  EXPECT_EQ(second.totals.cacheHits, 3u);
  EXPECT_EQ(second.totals.searched, 0u);
  EXPECT_EQ(second.totals.edp, first.totals.edp);
  // Another budget, or a victory condition, is another search.
  request.samples = 151;
  EXPECT_EQ(mapNetwork(request, *executor).totals.cacheHits, 0u);
  request.stopAfter = 50;
  EXPECT_EQ(mapNetwork(request, *executor).totals.cacheHits, 0u);
  // Under a time budget a result is kept for the network it was found in.
  request.stopAfter = 0;
  request.samples = 0;
  request.seconds = 0.2;
  std::unique_ptr<Mapper> timed = mapperFor(request);
  ASSERT_TRUE(timed);
  EXPECT_EQ(timed->map(network(), *executor).totals.cacheHits, 0u);
  EXPECT_EQ(timed->map(network(), *executor).totals.cacheHits, 3u);
  std::vector<MapperProblem> fewer = network();
  fewer.pop_back();
  EXPECT_EQ(timed->map(fewer, *executor).totals.cacheHits, 0u);
}

TEST(Mapper, AnEntryThatDoesNotCostWhatItSaysIsSearchedAgain) {
  TemporaryCache file;
  const std::string &path = file.path;
  MapperRequest request = requestFor("genetic", 150);
  request.cache = path;
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult first = mapper->map(network(), *executor);
  {
    // An entry rewritten through the cache itself (so its checksum holds)
    // with a figure its mapping does not give.
    std::string error;
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(path), error);
    ASSERT_TRUE(cache) << error;
    const ProblemOutcome &outcome = first.problems[0];
    CacheKey key{
        outcome.problem.key(),         cacheText(request.arch), "edp",
        searcherKey(request.searcher), budgetKey(request),      request.seed};
    ASSERT_TRUE(succeeded(cache->store(key, outcome.mapping, 1.0, 150), error))
        << error;
  }
  MapperResult second = mapper->map(network(), *executor);
  EXPECT_EQ(second.totals.cacheHits, 2u);
  EXPECT_EQ(second.problems[0].source, Source::Searched);
  ASSERT_EQ(second.warnings.size(), 1u);
  EXPECT_EQ(second.warnings[0], "an entry of the mapping cache does not cost "
                                "what it says; searching again");
  // Searched again from its own seed: what the first mapping found.
  EXPECT_EQ(second.problems[0].mapping, first.problems[0].mapping);
}

/// Products small enough for `optimal` to prove in a moment.
std::vector<MapperProblem> tinyNetwork() {
  return {{makeGemm(4, 4, 4), std::nullopt},
          {makeGemm(8, 4, 4), std::nullopt},
          {makeGemm(4, 4, 4), std::nullopt}};
}

TEST(Mapper, AProvenOptimumMeasuresEveryLaterSearch) {
  TemporaryCache file;
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  MapperRequest proving = requestFor("optimal", 100000);
  proving.cache = file.path;
  std::unique_ptr<Mapper> prover = mapperFor(proving);
  ASSERT_TRUE(prover);
  MapperResult proved = prover->map(tinyNetwork(), *executor);
  for (const ProblemOutcome &outcome : proved.problems) {
    ASSERT_TRUE(outcome.provedOptimal);
    ASSERT_TRUE(outcome.optimum);
    EXPECT_EQ(gapToOptimum(outcome, Objective::EDP), 0.0);
  }
  ASSERT_TRUE(proved.totals.gapToOptimum);
  EXPECT_EQ(*proved.totals.gapToOptimum, 0.0);

  // Random sampling, with the same cache: each op's gap to its optimum,
  // and the network's, never below 0 (the optima are proved).
  MapperRequest sampling = requestFor("random", 20);
  sampling.cache = file.path;
  std::unique_ptr<Mapper> sampler = mapperFor(sampling);
  ASSERT_TRUE(sampler);
  MapperResult sampled = sampler->map(tinyNetwork(), *executor);
  EXPECT_TRUE(sampled.warnings.empty());
  for (size_t p = 0; p < sampled.problems.size(); ++p) {
    const ProblemOutcome &outcome = sampled.problems[p];
    ASSERT_TRUE(outcome.optimum);
    EXPECT_EQ(outcome.optimum->edp, proved.problems[p].evaluation.edp);
    std::optional<double> gap = gapToOptimum(outcome, Objective::EDP);
    ASSERT_TRUE(gap);
    EXPECT_NEAR(*gap,
                outcome.evaluation.edp / proved.problems[p].evaluation.edp - 1,
                1e-12);
    EXPECT_GE(*gap, 0.0);
    // The optimum is a lower bound no mapping beats.
    EXPECT_EQ(outcome.objectiveLowerBound, proved.problems[p].evaluation.edp);
    EXPECT_EQ(outcome.provedOptimal, *gap == 0.0);
  }
  ASSERT_TRUE(sampled.totals.gapToOptimum);
  EXPECT_NEAR(*sampled.totals.gapToOptimum,
              sampled.totals.edp / proved.totals.edp - 1, 1e-12);

  // Another objective has optima of its own: none known.
  sampling.objective = Objective::Energy;
  std::unique_ptr<Mapper> energySampler = mapperFor(sampling);
  ASSERT_TRUE(energySampler);
  MapperResult other = energySampler->map(tinyNetwork(), *executor);
  for (const ProblemOutcome &outcome : other.problems)
    EXPECT_FALSE(outcome.optimum);
  EXPECT_FALSE(other.totals.gapToOptimum);
}

TEST(Mapper, AnOptimumThatIsBeatenOrStaleIsIgnored) {
  TemporaryCache file;
  // A searcher that proves nothing itself.
  MapperRequest request = requestFor("random", 300);
  request.arch = *findPreset("edge");
  request.cache = file.path;
  const Problem gemm = makeGemm(2, 2, 2);
  const Mapping outermost = Mapping::outermostOnly(gemm, request.arch);
  const Evaluation poor = CostModel(gemm, request.arch).evaluate(outermost);
  ASSERT_TRUE(poor.valid);
  const OptimumKey key{gemm.key(), cacheText(request.arch), "edp"};
  auto keep = [&](double cost) {
    std::string error;
    std::unique_ptr<MappingCache> cache =
        valueOr(MappingCache::open(file.path), error);
    ASSERT_TRUE(cache) << error;
    ASSERT_TRUE(succeeded(cache->storeOptimum(key, outermost, cost), error))
        << error;
  };
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);

  // A "proven optimum" the search beats: a contradiction, never a
  // negative gap.
  keep(poor.edp);
  MapperResult beaten = mapper->map({{gemm, std::nullopt}}, *executor);
  ASSERT_LT(beaten.problems[0].evaluation.edp, poor.edp);
  EXPECT_FALSE(beaten.problems[0].optimum);
  ASSERT_EQ(beaten.warnings.size(), 1u);
  EXPECT_NE(beaten.warnings[0].find("beats the proven optimum"),
            std::string::npos)
      << beaten.warnings[0];

  // One whose mapping no longer costs what it says.
  keep(poor.edp / 4);
  MapperResult stale = mapper->map({{gemm, std::nullopt}}, *executor);
  EXPECT_FALSE(stale.problems[0].optimum);
  ASSERT_EQ(stale.warnings.size(), 1u);
  EXPECT_NE(stale.warnings[0].find("no longer costs what it says"),
            std::string::npos)
      << stale.warnings[0];
}

/// The small network mapped by `searcher` under `seconds` alone, on two
/// threads.
MapperResult mapUnderTime(const char *searcher, double seconds) {
  MapperRequest request = requestFor(searcher, 0);
  request.seconds = seconds;
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  if (!mapper)
    return MapperResult();
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  return mapper->map(network(), *executor);
}

TEST(Mapper, ATimeBudgetAloneLiftsTheSampleCap) {
  for (const char *searcher : {"genetic", "marl"}) {
    MapperResult result = mapUnderTime(searcher, 0.5);
    ASSERT_FALSE(result.problems.empty()) << searcher;
    for (const ProblemOutcome &outcome : result.problems)
      EXPECT_TRUE(outcome.found) << searcher;
    // Not a timing test: the run ends, having spent what it reports.
    EXPECT_GT(result.totals.samples, 0);
    EXPECT_GT(result.totals.seconds, 0.0);
    EXPECT_LT(result.totals.seconds, 60.0);
  }
}

TEST(Mapper, UnderATimeBudgetAloneLightProblemsTakeTheDefaultBudget) {
  // The 8x8x8 GEMM computes 512 of the network's 291,840 MACs, under a
  // tenth of an equal share: it is searched first, as budget=2000 would
  // search it, and the others share the rest of the time. Its part of the
  // time (its weight's, a sixth: half a second) holds its 2000 samples many
  // times over once the policy library, which loads once per process
  // inside the budget, is loaded: a first run loads it.
  const MapperProblem light{makeGemm(8, 8, 8), std::nullopt};
  for (const char *searcher : {"genetic", "marl"}) {
    SCOPED_TRACE(searcher);
    mapUnderTime(searcher, 1e-9);
    MapperResult result = mapUnderTime(searcher, 3.0);
    ASSERT_EQ(result.problems.size(), 3u); // distinct problems
    for (const ProblemOutcome &outcome : result.problems) {
      EXPECT_TRUE(outcome.found);
      if (outcome.problem.key() == light.problem.key())
        EXPECT_EQ(outcome.samples, kDefaultBudget);
      else
        EXPECT_GT(outcome.samples, kDefaultBudget);
    }
  }
}

TEST(Mapper, ASpentTimeBudgetStillGivesEveryProblemOneBatch) {
  for (const char *searcher : {"genetic", "marl"}) {
    MapperResult result = mapUnderTime(searcher, 1e-9);
    ASSERT_FALSE(result.problems.empty()) << searcher;
    for (const ProblemOutcome &outcome : result.problems) {
      EXPECT_EQ(outcome.samples, 64) << searcher;
      EXPECT_TRUE(outcome.found) << searcher;
    }
  }
}

TEST(Mapper, WhicheverBudgetRunsOutFirstEndsTheSearch) {
  MapperRequest request = requestFor("genetic", 256);
  request.seconds = 1000;
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult result = mapper->map(network(), *executor);
  for (const ProblemOutcome &outcome : result.problems)
    EXPECT_EQ(outcome.samples, 256);
}

TEST(Mapper, ProgressComesOneCallAtATimeFromStartToFinish) {
  std::unique_ptr<Mapper> mapper = mapperFor(requestFor("genetic", 2000));
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(3);
  std::vector<MapperEvent::Kind> kinds;
  std::atomic<int> inside{0};
  bool overlapped = false;
  int64_t lastSamples = 0;
  bool samplesFell = false;
  MapperResult result =
      mapper->map(network(), *executor, [&](const MapperEvent &event) {
        overlapped |= inside++ != 0;
        kinds.push_back(event.kind);
        samplesFell |= event.samples < lastSamples;
        lastSamples = event.samples;
        EXPECT_EQ(event.total, 3u);
        --inside;
      });
  EXPECT_FALSE(overlapped);
  EXPECT_FALSE(samplesFell);
  ASSERT_GE(kinds.size(), 5u);
  EXPECT_EQ(kinds.front(), MapperEvent::Kind::Start);
  EXPECT_EQ(kinds.back(), MapperEvent::Kind::Finish);
  EXPECT_EQ(
      std::count(kinds.begin(), kinds.end(), MapperEvent::Kind::ProblemDone),
      3);
  EXPECT_EQ(lastSamples, 6000);
}

TEST(Mapper, RequestsThatCannotRunAreRefused) {
  auto refusal = [](MapperRequest request) {
    std::string error = refusalOf(std::move(request));
    EXPECT_NE(error, "");
    return error;
  };
  MapperRequest request = requestFor("genetic", -1);
  EXPECT_EQ(refusal(request),
            "budget must be between 1 and 1000000000 samples, not -1");
  request = requestFor("genetic", 10);
  request.seconds = -2;
  EXPECT_EQ(refusal(request),
            "time must be above 0 and at most 1000000 seconds, not -2");
  request = requestFor("genetic", 10);
  request.searcher.options["agents"] = "2";
  EXPECT_EQ(refusal(request),
            "agents is an option of marl and marl-polish, not of genetic");
  request = requestFor("genetic", 10);
  request.arch.levels.clear();
  EXPECT_FALSE(refusal(request).empty());
}

} // namespace

namespace {

std::string fileText(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST(Mapper, LearntWeightsAreSavedAlikeOnAnyThreadCountAndStartLaterSearches) {
  TemporaryCache file;
  const std::string &path = file.path;
  MapperRequest request = requestFor("marl", 200);
  request.searcher.options = {{"policy-save", path}};
  std::unique_ptr<Mapper> saving = mapperFor(request);
  ASSERT_TRUE(saving);
  std::vector<std::string> texts;
  for (unsigned threads : {1u, 2u, 3u}) {
    std::unique_ptr<Executor> executor = makeThreadExecutor(threads);
    MapperResult result = saving->map(network(), *executor);
    EXPECT_EQ(result.error, "");
    texts.push_back(fileText(path));
  }
  EXPECT_EQ(texts[1], texts[0]);
  EXPECT_EQ(texts[2], texts[0]);
  std::string error;
  std::optional<PolicyWeights> saved =
      optionalOr(loadPolicyWeights(path), error);
  ASSERT_TRUE(saved) << error;
  // Agents of both op kinds, keyed by the accelerator and the kind.
  EXPECT_NE(saved->agents().front().key.rfind("eyeriss|conv|", 0),
            std::string::npos);
  EXPECT_NE(saved->agents().back().key.rfind("eyeriss|gemm|", 0),
            std::string::npos);

  // Started from the file, the search goes elsewhere than a fresh one.
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  MapperResult fresh = mapNetwork(requestFor("marl", 200), *executor);
  MapperRequest starting = requestFor("marl", 200);
  starting.searcher.options = {{"policy-weights", path}};
  MapperResult started = mapNetwork(starting, *executor);
  bool differs = false;
  for (size_t p = 0; p < fresh.problems.size(); ++p)
    differs = differs || fresh.problems[p].curve != started.problems[p].curve;
  EXPECT_TRUE(differs);
  // And the same on one thread.
  std::unique_ptr<Executor> one = makeThreadExecutor(1);
  MapperResult startedOnOne = mapNetwork(starting, *one);
  for (size_t p = 0; p < started.problems.size(); ++p)
    EXPECT_EQ(startedOnOne.problems[p].curve, started.problems[p].curve);

  // The cache key holds what the file holds; policy-save is not in it.
  const std::string key = searcherKey(starting.searcher);
  EXPECT_NE(key.find("policy-weights=" + path + "#"), std::string::npos) << key;
  EXPECT_EQ(key.find("policy-save"), std::string::npos) << key;
  std::ofstream(path, std::ios::app) << "\n";
  EXPECT_NE(searcherKey(starting.searcher), key);
  EXPECT_EQ(searcherKey(request.searcher), searcherKey(requestFor("marl", 1).searcher));
}

TEST(Mapper, AMapperReadsItsWeightsOnceWhenItIsMade) {
  TemporaryCache file;
  MapperRequest saving = requestFor("marl", 200);
  saving.searcher.options = {{"policy-save", file.path}};
  std::unique_ptr<Executor> executor = makeThreadExecutor(2);
  ASSERT_EQ(mapNetwork(saving, *executor).error, "");

  MapperRequest starting = requestFor("marl", 200);
  starting.searcher.options = {{"policy-weights", file.path}};
  std::unique_ptr<Mapper> mapper = mapperFor(starting);
  ASSERT_TRUE(mapper);
  const MapperResult first = mapper->map(network(), *executor);
  const std::string key = searcherKey(mapper->request().searcher);
  // The file changes under the mapper: its searches keep what it read,
  // and so does the cache key.
  std::ofstream(file.path) << "not weights\n";
  const MapperResult second = mapper->map(network(), *executor);
  EXPECT_EQ(second.error, "");
  ASSERT_EQ(second.problems.size(), first.problems.size());
  for (size_t p = 0; p < first.problems.size(); ++p) {
    EXPECT_EQ(second.problems[p].error, "");
    EXPECT_GT(second.problems[p].agentsFromWeights, 0u);
    EXPECT_EQ(second.problems[p].curve, first.problems[p].curve);
  }
  EXPECT_EQ(searcherKey(mapper->request().searcher), key);
  EXPECT_NE(searcherKey(starting.searcher), key);
}

TEST(Mapper, WeightsThatCannotBeUsedAreRefused) {
  TemporaryCache file;
  MapperRequest request = requestFor("marl", 100);
  request.searcher.options = {{"policy-weights", file.path}};
  std::string error = refusalOf(request);
  EXPECT_NE(error.find("cannot read the policy weights"), std::string::npos)
      << error;
  std::ofstream(file.path) << "marlmap-policy-weights 1\nend 0 0\n";
  error = refusalOf(request);
  EXPECT_NE(error.find("checksum does not match"), std::string::npos) << error;

  // Agents that do not observe their problem are of no use to another.
  request.searcher.options = {{"policy-save", file.path},
                              {"policy-share", "0"}};
  error = refusalOf(request);
  EXPECT_NE(error.find("policy-save needs agents that observe their problem"),
            std::string::npos)
      << error;

  // A file that cannot be written fails the network, not its ops.
  request.searcher.options = {{"policy-save", "/nonexistent-folder/w.txt"}};
  std::unique_ptr<Mapper> mapper = mapperFor(request);
  ASSERT_TRUE(mapper);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult result = mapper->map(network(), *executor);
  EXPECT_NE(result.error.find("cannot write the policy weights"),
            std::string::npos)
      << result.error;
  EXPECT_TRUE(result.problems[0].found);
}
