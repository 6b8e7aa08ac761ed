//===- SearchersTest.cpp - The classical searchers ------------------------===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Mapper/Registry.h"
#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/PolicyLibrary.h"
#include "marlmap/Search/Searcher.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <thread>

using namespace marlmap;

namespace {

/// The searcher registered as `name`, with its default options.
std::unique_ptr<Searcher> searcherNamed(const std::string &name,
                                        const MapSpace &space, uint64_t seed,
                                        int64_t budget, std::string &error) {
  return valueOr(makeSearcher(SearcherConfig{name, {}, ""}, space, seed, budget,
                              Objective::EDP),
                 error);
}

/// A GEMM on the output-stationary array's hierarchy (without its
/// dataflow) with every loop order fixed: 15 x 5 x 5 factor splits x 16 keep
/// choices = 6000 points.
std::unique_ptr<MapSpace> smallSpace() {
  Constraints fixedOrders;
  fixedOrders.levels.resize(3);
  for (LevelConstraints &level : fixedOrders.levels)
    level.order = std::vector<unsigned>{0, 1, 2};
  Arch arch = *findPreset("systolic-os");
  arch.constraints.clear();
  std::string error;
  auto space =
      valueOr(MapSpace::create(makeGemm(4, 2, 2), arch, fixedOrders), error);
  EXPECT_TRUE(space) << error;
  return space;
}

SearchResult run(const MapSpace &space, const std::string &name, int64_t budget,
                 uint64_t seed, unsigned batch = 64) {
  std::string error;
  std::unique_ptr<Searcher> searcher =
      searcherNamed(name, space, seed, budget, error);
  EXPECT_TRUE(searcher) << error;
  if (!searcher)
    return {};
  SearchOptions options;
  options.objective = Objective::EDP;
  options.budget = budget;
  options.batch = batch;
  return runSearch(space, *searcher, options);
}

TEST(Searchers, ExhaustiveVisitsEveryPointOnce) {
  auto space = smallSpace();
  ASSERT_TRUE(space);
  SearchResult all = run(*space, "exhaustive", 1000000, 0);
  EXPECT_EQ(all.samples, 6000);
  EXPECT_TRUE(all.found);
  // Checked against the space's own enumeration.
  double best = std::numeric_limits<double>::infinity();
  Evaluation e;
  space->enumerate(10000, [&](const std::vector<int64_t> &values) {
    if (space->model().evaluate(space->decode(values), e))
      best = std::min(best, e.edp);
    return true;
  });
  EXPECT_DOUBLE_EQ(all.bestCost, best);
}

TEST(Searchers, EachFindsTheOptimumOfASmallSpace) {
  auto space = smallSpace();
  ASSERT_TRUE(space);
  double optimum = run(*space, "exhaustive", 1000000, 0).bestCost;
  // The learners get fewer samples: they train a network per batch.
  for (auto [name, budget] : {std::pair<const char *, int64_t>{"random", 20000},
                              {"genetic", 20000},
                              {"annealing", 20000},
                              {"marl", 6000},
                              {"sarl", 6000}}) {
    SearchResult result = run(*space, name, budget, 1);
    EXPECT_EQ(result.samples, budget) << name;
    EXPECT_DOUBLE_EQ(result.bestCost, optimum) << name;
  }
}

TEST(Searchers, SameSeedSameSearch) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  for (const char *name : {"random", "genetic", "annealing", "marl", "sarl"}) {
    SearchResult a = run(*space, name, 800, 7);
    SearchResult b = run(*space, name, 800, 7);
    EXPECT_EQ(a.curve, b.curve) << name;
    EXPECT_TRUE(a.best == b.best) << name;
    SearchResult other = run(*space, name, 800, 8);
    EXPECT_NE(a.curve, other.curve) << name;
  }
  // Random search does not depend on how proposals are batched (the others
  // learn, anneal or breed once per batch, so for them it does).
  EXPECT_EQ(run(*space, "random", 1000, 3, 1).curve,
            run(*space, "random", 1000, 3, 64).curve);
}

/// Mixes `proposals` into an FNV-1a `hash`.
void mixInto(uint64_t &hash,
             const std::vector<std::vector<int64_t>> &proposals) {
  for (const std::vector<int64_t> &proposal : proposals)
    for (int64_t value : proposal)
      hash = (hash ^ uint64_t(value)) * 1099511628211ull;
}

/// Forwards to a searcher and hashes every proposal it makes: two searches
/// with the same hash followed the same trajectory, sample for sample.
class Fingerprinted : public Searcher {
public:
  explicit Fingerprinted(std::unique_ptr<Searcher> inner)
      : inner(std::move(inner)) {}
  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    inner->ask(count, proposals);
    mixInto(hash, proposals);
  }
  void tell(const std::vector<std::vector<int64_t>> &proposals,
            const std::vector<Feedback> &feedback) override {
    inner->tell(proposals, feedback);
  }
  std::string failure() const override { return inner->failure(); }
  uint64_t hash = 1469598103934665603ull;

private:
  std::unique_ptr<Searcher> inner;
};

TEST(Searchers, PolicySearchesSideBySideMatchTheSameSearchesAlone) {
  // Searches of different problems share the process: LibTorch, its
  // thread settings and the BLAS under it. Each must follow exactly the
  // trajectory it follows alone.
  std::vector<std::unique_ptr<MapSpace>> spaces;
  std::string error;
  for (const Problem &problem :
       {makeConv({1, 64, 64, 56, 56, 3, 3}),
        makeConv({1, 128, 64, 28, 28, 1, 1}), makeGemm(128, 64, 256),
        makeConv({1, 32, 16, 14, 14, 3, 3})}) {
    spaces.push_back(
        valueOr(MapSpace::create(problem, *findPreset("eyeriss"), {}), error));
    ASSERT_TRUE(spaces.back()) << error;
  }
  struct Search {
    const MapSpace *space;
    std::string searcher;
  };
  std::vector<Search> searches;
  for (const auto &space : spaces)
    for (const char *name : {"marl", "sarl"})
      searches.push_back({space.get(), name});
  auto fingerprint = [](const Search &search) -> uint64_t {
    std::string error;
    std::unique_ptr<Searcher> searcher =
        searcherNamed(search.searcher, *search.space, 5, 320, error);
    EXPECT_TRUE(searcher) << error;
    if (!searcher)
      return 0;
    Fingerprinted recorded(std::move(searcher));
    SearchOptions options;
    options.budget = 320;
    SearchResult result = runSearch(*search.space, recorded, options);
    EXPECT_EQ(result.error, "");
    return recorded.hash;
  };
  std::vector<uint64_t> alone;
  for (const Search &search : searches)
    alone.push_back(fingerprint(search));
  for (int round = 0; round < 3; ++round) {
    std::vector<uint64_t> together(searches.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < searches.size(); ++i)
      threads.emplace_back([&, i] { together[i] = fingerprint(searches[i]); });
    for (std::thread &thread : threads)
      thread.join();
    EXPECT_EQ(together, alone) << "round " << round;
  }
}

/// Hashes every problem's proposals, as Fingerprinted does for one.
class FingerprintedPack : public NetworkSearcher {
public:
  FingerprintedPack(std::unique_ptr<NetworkSearcher> inner, size_t problems)
      : inner(std::move(inner)), hashes(problems, 1469598103934665603ull) {}
  void ask(unsigned count, std::vector<Proposals> &proposals) override {
    inner->ask(count, proposals);
    for (size_t p = 0; p < proposals.size(); ++p)
      mixInto(hashes[p], proposals[p]);
  }
  void tell(const std::vector<Proposals> &proposals,
            const std::vector<std::vector<Feedback>> &feedback) override {
    inner->tell(proposals, feedback);
  }
  std::string failure() const override { return inner->failure(); }

private:
  std::unique_ptr<NetworkSearcher> inner;

public:
  std::vector<uint64_t> hashes;
};

TEST(Searchers, APackSearchesEachProblemAsItWouldBeSearchedAlone) {
  // Problems of different shapes, with different agent widths, so that a
  // pack stacks agents that alone would run in other company.
  std::vector<std::unique_ptr<MapSpace>> owned;
  std::string error;
  for (const Problem &problem :
       {makeConv({1, 64, 64, 56, 56, 3, 3}), makeGemm(128, 64, 256),
        makeConv({1, 32, 16, 14, 14, 3, 3}), makeGemm(7, 5, 3)}) {
    owned.push_back(
        valueOr(MapSpace::create(problem, *findPreset("simba"), {}), error));
    ASSERT_TRUE(owned.back()) << error;
  }
  const int64_t budget = 300; // A last batch of 44 as well.
  for (const char *name : {"marl", "sarl"}) {
    SearcherConfig config;
    config.name = name;
    // Problems that share agents learn from each other (the next test).
    config.options = {{"policy-share", "0"}};
    SearchOptions options;
    options.budget = budget;
    std::vector<uint64_t> alone;
    std::vector<SearchResult> aloneResults;
    for (size_t p = 0; p < owned.size(); ++p) {
      std::unique_ptr<Searcher> searcher = valueOr(
          makeSearcher(config, *owned[p], 100 + p, budget, Objective::EDP),
          error);
      ASSERT_TRUE(searcher) << error;
      Fingerprinted recorded(std::move(searcher));
      aloneResults.push_back(runSearch(*owned[p], recorded, options));
      alone.push_back(recorded.hash);
    }
    // The whole set, then the last three together.
    for (size_t first : {size_t(0), size_t(1)}) {
      std::vector<const MapSpace *> spaces;
      std::vector<uint64_t> seeds;
      for (size_t p = first; p < owned.size(); ++p) {
        spaces.push_back(owned[p].get());
        seeds.push_back(100 + p);
      }
      std::unique_ptr<NetworkSearcher> pack =
          valueOr(makeNetworkSearcher(config, spaces, seeds, {}, budget,
                                      Objective::EDP),
                  error);
      ASSERT_TRUE(pack) << error;
      FingerprintedPack recorded(std::move(pack), spaces.size());
      std::vector<SearchResult> results =
          runNetworkSearch(spaces, recorded, options);
      for (size_t p = first; p < owned.size(); ++p) {
        SCOPED_TRACE(std::string(name) + " problem " + std::to_string(p) +
                     " in a pack from " + std::to_string(first));
        EXPECT_EQ(recorded.hashes[p - first], alone[p]);
        const SearchResult &together = results[p - first];
        EXPECT_EQ(together.samples, budget);
        EXPECT_EQ(together.validSamples, aloneResults[p].validSamples);
        EXPECT_EQ(together.curve, aloneResults[p].curve);
        EXPECT_TRUE(together.best == aloneResults[p].best);
      }
    }
  }
}

/// Hands every problem's proposals and feedback to `seen` as well.
class RecordedPack : public NetworkSearcher {
public:
  RecordedPack(std::unique_ptr<NetworkSearcher> inner, size_t problems)
      : inner(std::move(inner)), seen(problems) {}
  void ask(unsigned count, std::vector<Proposals> &proposals) override {
    inner->ask(count, proposals);
  }
  void tell(const std::vector<Proposals> &proposals,
            const std::vector<std::vector<Feedback>> &feedback) override {
    for (size_t p = 0; p < proposals.size(); ++p) {
      seen[p].points.insert(seen[p].points.end(), proposals[p].begin(),
                            proposals[p].end());
      seen[p].feedback.insert(seen[p].feedback.end(), feedback[p].begin(),
                              feedback[p].end());
    }
    inner->tell(proposals, feedback);
  }
  SearchHistory history(size_t problem) const override {
    return inner->history(problem);
  }

  std::unique_ptr<NetworkSearcher> inner;
  std::vector<SearchHistory> seen;
};

TEST(Searchers, TheUniformWarmUpHandsOnItsFirstDrawsAndItsBest) {
  std::string error;
  std::unique_ptr<MapSpace> space = valueOr(
      MapSpace::create(makeGemm(128, 64, 256), *findPreset("simba"), {}),
      error);
  ASSERT_TRUE(space) << error;
  PolicyOptions options;
  const std::vector<const MapSpace *> spaces = {space.get()};
  RecordedPack warmUp(makeUniformWarmUp(spaces, {7}, options), 1);
  SearchOptions run;
  run.budget = 640;
  runNetworkSearch(spaces, warmUp, run);
  const SearchHistory &seen = warmUp.seen[0];
  ASSERT_EQ(seen.points.size(), 640u);
  const SearchHistory kept = warmUp.history(0);
  ASSERT_EQ(kept.points.size(), size_t(options.warmup + options.replay));
  for (size_t i = 0; i < options.warmup; ++i)
    EXPECT_EQ(kept.points[i], seen.points[i]);
  // The rest: the best distinct valid draws after the first, best first.
  std::vector<std::pair<double, std::vector<int64_t>>> later;
  for (size_t i = options.warmup; i < seen.points.size(); ++i)
    if (seen.feedback[i].valid)
      later.push_back({seen.feedback[i].cost, seen.points[i]});
  std::sort(later.begin(), later.end());
  later.erase(std::unique(later.begin(), later.end()), later.end());
  ASSERT_GE(later.size(), size_t(options.replay));
  for (size_t k = 0; k < options.replay; ++k) {
    EXPECT_TRUE(kept.feedback[options.warmup + k].valid);
    EXPECT_EQ(kept.feedback[options.warmup + k].cost, later[k].first);
  }
  // Its draws are uniform over the same decisions as marl's, fitted into
  // the fanouts: every one is a point of the space.
  Mapping mapping;
  for (const std::vector<int64_t> &point : seen.points)
    space->decode(point.data(), mapping);
}

TEST(Searchers, APackGoesOnFromAWarmUpDrawnWithoutIt) {
  std::string error;
  std::vector<std::unique_ptr<MapSpace>> owned;
  for (const Problem &problem :
       {makeGemm(128, 64, 256), makeConv({1, 32, 16, 14, 14, 3, 3})}) {
    owned.push_back(
        valueOr(MapSpace::create(problem, *findPreset("eyeriss"), {}), error));
    ASSERT_TRUE(owned.back()) << error;
  }
  const std::vector<const MapSpace *> spaces = {owned[0].get(), owned[1].get()};
  const std::vector<uint64_t> seeds = {3, 4};
  SearcherConfig config;
  config.name = "marl";
  std::unique_ptr<NetworkSearcher> warmUp =
      valueOr(makeWhileLoadingSearcher(config, spaces, seeds,
                                       SearchBudget(256, 0), Objective::EDP),
              error);
  ASSERT_TRUE(warmUp) << error;
  SearchOptions options;
  options.budget = 256;
  NetworkSearchRun warming(spaces, *warmUp, options);
  while (warming.round())
    ;
  std::vector<SearchResult> warmed = warming.finish();
  std::unique_ptr<NetworkSearcher> pack =
      valueOr(makeNetworkSearcher(config, spaces, seeds, {},
                                  SearchBudget(1280, 0), Objective::EDP),
              error);
  ASSERT_TRUE(pack) << error;
  // Before: no agents until a warm-up batch; after: agents at once.
  EXPECT_TRUE(pack->agentView(0)->clusters().empty());
  for (size_t p = 0; p < spaces.size(); ++p)
    pack->startFrom(p, warmUp->history(p));
  for (size_t p = 0; p < spaces.size(); ++p)
    EXPECT_FALSE(pack->agentView(p)->clusters().empty()) << "problem " << p;
  // The run goes on from the warm-up's results: its samples count towards
  // the budget, and its best is kept until beaten.
  options.budget = 1280;
  NetworkSearchRun run(spaces, *pack, options, warmed);
  while (run.round())
    ;
  std::vector<SearchResult> results = run.finish();
  EXPECT_EQ(pack->failure(), "");
  for (size_t p = 0; p < spaces.size(); ++p) {
    SCOPED_TRACE("problem " + std::to_string(p));
    EXPECT_EQ(results[p].samples, 1280);
    ASSERT_TRUE(warmed[p].found);
    ASSERT_FALSE(results[p].curve.empty());
    EXPECT_LE(results[p].bestCost, warmed[p].bestCost);
    EXPECT_EQ(results[p].curve.front(), warmed[p].curve.front());
  }
}

TEST(Searchers, GroupsThatShareAgentsInOnePackLearnOnlyWithinTheirGroup) {
  // Four problems of one op kind in two groups: each group searched in the
  // pack with the other is searched as in a pack of its own.
  std::vector<std::unique_ptr<MapSpace>> owned;
  std::string error;
  for (const Problem &problem : {makeGemm(64, 32, 16), makeGemm(128, 32, 16),
                                 makeGemm(16, 64, 64), makeGemm(16, 128, 64)}) {
    owned.push_back(
        valueOr(MapSpace::create(problem, *findPreset("simba"), {}), error));
    ASSERT_TRUE(owned.back()) << error;
  }
  SearcherConfig config;
  config.name = "marl";
  config.options = {{"policy-share", "4"}, {"policy-hidden", "8"}};
  SearchOptions options;
  options.budget = 300;
  auto search = [&](size_t first, size_t count,
                    const std::vector<unsigned> &groups) {
    std::vector<const MapSpace *> spaces;
    std::vector<uint64_t> seeds;
    for (size_t p = first; p < first + count; ++p) {
      spaces.push_back(owned[p].get());
      seeds.push_back(100 + p);
    }
    std::string error;
    std::unique_ptr<NetworkSearcher> pack =
        valueOr(makeNetworkSearcher(config, spaces, seeds, groups,
                                    options.budget, options.objective),
                error);
    EXPECT_TRUE(pack) << error;
    return pack ? runNetworkSearch(spaces, *pack, options)
                : std::vector<SearchResult>();
  };
  std::vector<SearchResult> together = search(0, 4, {7, 7, 3, 3});
  std::vector<SearchResult> apart = search(0, 2, {});
  for (SearchResult &result : search(2, 2, {0, 0}))
    apart.push_back(std::move(result));
  ASSERT_EQ(together.size(), 4u);
  ASSERT_EQ(apart.size(), 4u);
  for (size_t p = 0; p < 4; ++p) {
    SCOPED_TRACE("problem " + std::to_string(p));
    EXPECT_EQ(together[p].samples, 300);
    EXPECT_EQ(together[p].curve, apart[p].curve);
    EXPECT_TRUE(together[p].best == apart[p].best);
  }
  // All four as one group do learn from each other.
  std::vector<SearchResult> oneGroup = search(0, 4, {});
  bool anyDiffers = false;
  for (size_t p = 0; p < 4; ++p)
    anyDiffers = anyDiffers || oneGroup[p].curve != together[p].curve;
  EXPECT_TRUE(anyDiffers);
}

TEST(Searchers, APolicySearchThatFailsEndsWithTheError) {
  std::string error;
  auto space = valueOr(
      MapSpace::create(makeGemm(64, 32, 16), *findPreset("edge"), {}), error);
  ASSERT_TRUE(space) << error;
  PolicyOptions policy;
  policy.testThrowAfter = 100;
  std::unique_ptr<Searcher> searcher =
      valueOr(makePolicySearcher(*space, 1, 1000, policy, ""), error);
  ASSERT_TRUE(searcher) << error;
  SearchOptions options;
  options.budget = 1000;
  SearchResult result = runSearch(*space, *searcher, options);
  // The failing update comes after the second batch; nothing is asked for
  // after it.
  EXPECT_EQ(result.samples, 128);
  EXPECT_NE(result.error.find("a failure made on purpose after 128 samples"),
            std::string::npos)
      << result.error;
}

TEST(Searchers, TheBudgetCountsInvalidSamplesToo) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  SearchResult result = run(*space, "random", 777, 2, 50);
  EXPECT_EQ(result.samples, 777);
  EXPECT_LT(result.validSamples, result.samples);
  // The curve only improves, and ends at the best.
  for (size_t i = 1; i < result.curve.size(); ++i) {
    EXPECT_GT(result.curve[i].first, result.curve[i - 1].first);
    EXPECT_LT(result.curve[i].second, result.curve[i - 1].second);
  }
  ASSERT_FALSE(result.curve.empty());
  EXPECT_EQ(result.curve.back().second, result.bestCost);
}

TEST(Searchers, UnknownNamesAndHugeExhaustiveSpacesAreRefused) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space);
  EXPECT_FALSE(searcherNamed("magic", *space, 1, 10, error));
  EXPECT_EQ(error.rfind("unknown searcher 'magic' (searchers: ", 0), 0u)
      << error;
  EXPECT_FALSE(searcherNamed("exhaustive", *space, 1, 10, error));
  EXPECT_NE(error.find("exhaustive search takes at most"), std::string::npos);
}

TEST(Searchers, MarlGivesEachClusterAnAgentAndSarlOneAgent) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  for (const std::string name : {"marl", "sarl"}) {
    std::unique_ptr<Searcher> searcher =
        searcherNamed(name, *space, 3, 600, error);
    SearchOptions options;
    options.budget = 600;
    runSearch(*space, *searcher, options);
    ASSERT_NE(searcher->agentView(), nullptr);
    Clusters clusters = searcher->agentView()->clusters();
    unsigned covered = 0;
    for (const auto &cluster : clusters)
      covered += cluster.size();
    EXPECT_GT(covered, space->parameters().size()) << name; // split decisions
    if (name == "sarl")
      EXPECT_EQ(clusters.size(), 1u);
    else
      EXPECT_GT(clusters.size(), 1u);
  }
  EXPECT_TRUE(searcherNamed("random", *space, 1, 10, error)->agentView() ==
              nullptr);
}

/// Checks that `lateOption` (stall entropy, restarts), set to 64 samples
/// without a new best, leaves a policy search as it is until a learning
/// batch brings no new best, and changes it after.
void expectActsOnlyOnceTheBestStopsImproving(
    unsigned PolicyOptions::*lateOption) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  using Curve = std::vector<std::pair<int64_t, double>>;
  const int64_t budget = 640;
  auto curve = [&](uint64_t seed, unsigned samples) {
    PolicyOptions policy;
    policy.stall = 0;
    policy.restart = 0;
    policy.*lateOption = samples;
    std::unique_ptr<Searcher> searcher =
        valueOr(makePolicySearcher(*space, seed, budget, policy, ""), error);
    EXPECT_TRUE(searcher) << error;
    if (!searcher)
      return Curve();
    SearchOptions options;
    options.budget = budget;
    return runSearch(*space, *searcher, options).curve;
  };
  // The end of the first learning batch (64 samples each, after the
  // 64-sample warm-up) without a new best: the update after it is the
  // first that the option changes, so up to there the search must be the
  // same. A seed whose first three learning batches all improve makes that
  // a test of three updates.
  auto firstStall = [](const Curve &points) {
    int64_t end = 128;
    while (end < budget &&
           std::any_of(points.begin(), points.end(), [&](const auto &point) {
             return point.first > end - 64 && point.first <= end;
           }))
      end += 64;
    return end;
  };
  Curve off;
  uint64_t seed = 1;
  for (; seed <= 100; ++seed) {
    off = curve(seed, 0);
    if (firstStall(off) >= 320 && firstStall(off) < budget)
      break;
  }
  ASSERT_LE(seed, 100u) << "no seed learns for three batches, then stalls";
  const int64_t end = firstStall(off);
  const Curve changed = curve(seed, 64);
  auto upTo = [&](const Curve &points) {
    Curve prefix;
    for (const auto &point : points)
      if (point.first <= end)
        prefix.push_back(point);
    return prefix;
  };
  EXPECT_EQ(upTo(changed), upTo(off)) << "seed " << seed;
  // After it the policies differ, and so do the searches.
  EXPECT_NE(changed, off) << "seed " << seed;
}

TEST(Searchers, StallEntropyActsOnlyOnceTheBestStopsImproving) {
  expectActsOnlyOnceTheBestStopsImproving(&PolicyOptions::stall);
}

TEST(Searchers, RestartsActOnlyOnceTheBestStopsImproving) {
  expectActsOnlyOnceTheBestStopsImproving(&PolicyOptions::restart);
}

TEST(Searchers, RestartWindowIsAShareOfTheBudgetWhenThatIsMore) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  const int64_t budget = 1280;
  auto curve = [&](uint64_t seed, unsigned restart, unsigned share,
                   unsigned most = 0) {
    PolicyOptions policy;
    policy.restart = restart;
    policy.restartShare = share;
    policy.restartMost = most;
    std::unique_ptr<Searcher> searcher =
        valueOr(makePolicySearcher(*space, seed, budget, policy, ""), error);
    EXPECT_TRUE(searcher) << error;
    if (!searcher)
      return std::vector<std::pair<int64_t, double>>();
    SearchOptions options;
    options.budget = budget;
    return runSearch(*space, *searcher, options).curve;
  };
  bool windowMatters = false, mostMatters = false;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const auto fixed320 = curve(seed, 320, 0);
    // A quarter of 1280 samples is more than 64: the window is 320.
    EXPECT_EQ(curve(seed, 64, 4), fixed320) << "seed " << seed;
    // A 64th is less than 320: the least window stands.
    EXPECT_EQ(curve(seed, 320, 64), fixed320) << "seed " << seed;
    // A quarter, 320, is more than the most, 160: the most stands.
    const auto fixed160 = curve(seed, 160, 0);
    EXPECT_EQ(curve(seed, 64, 4, 160), fixed160) << "seed " << seed;
    windowMatters = windowMatters || curve(seed, 64, 0) != fixed320;
    mostMatters = mostMatters || fixed160 != fixed320;
  }
  // Otherwise the checks above could not fail.
  EXPECT_TRUE(windowMatters);
  EXPECT_TRUE(mostMatters);
}

TEST(Searchers, PoliciesSampleASpaceWithoutChoices) {
  // One DRAM level, one MAC, one loop of 1: no parameter at all.
  Arch single;
  single.name = "single";
  single.compute.energyPerMac = 1.0;
  StorageLevel dram;
  dram.name = "DRAM";
  dram.readEnergy = dram.writeEnergy = dram.updateEnergy = 200.0;
  dram.holds = RoleSet::all();
  single.levels = {dram};
  std::string error;
  Problem copy;
  copy.dims = {{"N", 1, LoopKind::Parallel}};
  copy.operands = {
      {"Inputs", TensorRole::Inputs, Access::Read, {Coordinate{{{0, 1}}, 0}}},
      {"Outputs",
       TensorRole::Outputs,
       Access::Write,
       {Coordinate{{{0, 1}}, 0}}}};
  auto space = valueOr(MapSpace::create(copy, single, {}), error);
  ASSERT_TRUE(space) << error;
  ASSERT_TRUE(space->parameters().empty());
  for (const char *name : {"marl", "sarl", "exhaustive"}) {
    SearchResult result = run(*space, name, 300, 1);
    EXPECT_TRUE(result.found) << name;
  }
}

TEST(Searchers, StopRuleEndsAStalledSearch) {
  auto space = smallSpace();
  ASSERT_TRUE(space);
  std::string error;
  std::unique_ptr<Searcher> searcher =
      searcherNamed("random", *space, 1, 100000, error);
  SearchOptions options;
  options.budget = 100000;
  options.stopAfter = 500;
  SearchResult result = runSearch(*space, *searcher, options);
  EXPECT_TRUE(result.stoppedEarly);
  EXPECT_LT(result.samples, 100000);
  ASSERT_FALSE(result.curve.empty());
  // It stopped exactly 500 samples after the last improvement.
  EXPECT_EQ(result.samples - result.curve.back().first, 500);
}

TEST(Searchers, ExhaustiveNeedsABudgetForEveryPoint) {
  auto space = smallSpace();
  ASSERT_TRUE(space);
  std::string error;
  EXPECT_FALSE(searcherNamed("exhaustive", *space, 1, 5999, error));
  EXPECT_EQ(error, "exhaustive search of 6000 points needs a budget of at "
                   "least that, not 5999");
}

} // namespace

namespace {

/// The decisions of `values` into `chosen`: each in range, and decoding
/// back to `values`.
void codeBothWays(const DecisionSpace &decisions,
                  const std::vector<int64_t> &values,
                  std::vector<int64_t> &chosen) {
  decisions.fromParameters(values.data(), chosen.data());
  for (size_t d = 0; d < chosen.size(); ++d) {
    EXPECT_GE(chosen[d], 0);
    EXPECT_LT(chosen[d], decisions.decisions()[d].choices);
  }
  std::vector<int64_t> back(values.size());
  decisions.toParameters(chosen.data(), back.data());
  ASSERT_EQ(back, values);
}

TEST(Decisions, ParametersComeBackFromTheirDecisions) {
  // Splits of many copies, Lehmer-coded orders, plain parameters, and the
  // spreads of eyeriss's 14x12 array (simba's levels each spread along one
  // axis: none there).
  for (const char *preset : {"simba", "eyeriss"}) {
    SCOPED_TRACE(preset);
    std::string error;
    auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                          *findPreset(preset), {}),
                         error);
    ASSERT_TRUE(space) << error;
    DecisionSpace decisions(*space);
    ASSERT_GT(decisions.decisions().size(), space->parameters().size());
    // A two-dimensional array's spread along each axis is a decision too;
    // without them the copies alone place the spatial factors.
    DecisionSpace copiesAlone(*space, 64, /*levelSpreads=*/false);
    unsigned spreadDecisions = 0;
    for (const Decision &decision : decisions.decisions())
      spreadDecisions += decision.name.rfind("spread ", 0) == 0;
    if (std::string(preset) == "simba")
      EXPECT_EQ(spreadDecisions, 0u);
    else
      EXPECT_GT(spreadDecisions, 0u);
    EXPECT_EQ(copiesAlone.decisions().size() + spreadDecisions,
              decisions.decisions().size());
    Rng rng(5);
    std::vector<int64_t> values(space->parameters().size()),
        chosen(decisions.decisions().size());
    for (int i = 0; i < 1000; ++i) {
      space->sample(rng, values.data());
      ASSERT_NO_FATAL_FAILURE(codeBothWays(decisions, values, chosen));
    }
  }
}

TEST(Decisions, LoopFactorsComeBackFromTheirDecisions) {
  // The imperfect spaces: loop factors with up to 64 candidates are one
  // decision, larger ones two digits; fitted decisions are the fitted
  // point.
  for (FactorSpace factors :
       {FactorSpace::SpatialImperfect, FactorSpace::Imperfect}) {
    SCOPED_TRACE(factorSpaceName(factors));
    std::string error;
    // 2^4 x 3^2 x 5 x 7 x 11 has 120 divisors.
    auto space = valueOr(MapSpace::create(makeGemm(55440, 768, 96),
                                          *findPreset("simba"), {}, factors),
                         error);
    ASSERT_TRUE(space) << error;
    DecisionSpace decisions(*space);
    unsigned digits = 0;
    for (const Decision &decision : decisions.decisions())
      digits += decision.name.find(" #high") != std::string::npos;
    EXPECT_GT(digits, 0u);
    Rng rng(5);
    std::vector<int64_t> values(space->parameters().size()),
        back(values.size()), fitted(values.size()),
        chosen(decisions.decisions().size());
    unsigned moved = 0;
    for (int i = 0; i < 1000; ++i) {
      space->sample(rng, values.data());
      ASSERT_NO_FATAL_FAILURE(codeBothWays(decisions, values, chosen));
      fitted = values;
      const bool spaceMoved = space->fitSpread(fitted.data());
      ASSERT_EQ(decisions.fitSpread(chosen.data(), values.data()), spaceMoved);
      ASSERT_EQ(values, fitted);
      decisions.toParameters(chosen.data(), back.data());
      ASSERT_EQ(back, fitted);
      moved += spaceMoved;
    }
    EXPECT_GT(moved, 0u);
  }
}

TEST(Decisions, FittedDecisionsAreTheFittedPoint) {
  // Drawn decisions that overflow a fanout, fitted: their parameters are
  // the fitted point, and only the copies that moved changed (and the
  // spreads they changed), with and without spread decisions.
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 512, 64, 28, 28, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  for (bool levelSpreads : {false, true}) {
    SCOPED_TRACE(levelSpreads ? "spreads" : "copies");
    DecisionSpace decisions(*space, 64, levelSpreads);
    Rng rng(11);
    std::vector<int64_t> chosen(decisions.decisions().size()),
        values(space->parameters().size()), fitted(values.size());
    unsigned moved = 0;
    for (int i = 0; i < 500; ++i) {
      for (size_t d = 0; d < chosen.size(); ++d)
        chosen[d] = rng.below(decisions.decisions()[d].choices);
      const std::vector<int64_t> drawn = chosen;
      decisions.toParameters(chosen.data(), values.data());
      fitted = values;
      const bool spaceMoved = space->fitSpread(fitted.data());
      ASSERT_EQ(decisions.fitSpread(chosen.data(), values.data()), spaceMoved);
      ASSERT_EQ(values, fitted);
      std::vector<int64_t> back(values.size());
      decisions.toParameters(chosen.data(), back.data());
      ASSERT_EQ(back, fitted);
      // Only the decisions of factor splits and spreads change.
      for (size_t d = 0; d < chosen.size(); ++d)
        if (chosen[d] != drawn[d]) {
          const std::string &name = decisions.decisions()[d].name;
          EXPECT_TRUE(name.find("split") != std::string::npos ||
                      name.rfind("spread ", 0) == 0)
              << name;
        }
      moved += spaceMoved;
    }
    // Uniform draws overflow the 14x12 array most of the time; a spread
    // decision fits it by construction, so with them only the draws that
    // leave every spread to the copies overflow (a few).
    EXPECT_GT(moved, levelSpreads ? 0u : 250u);
  }
}

} // namespace

namespace {

/// Parameters in which two proposals differ.
unsigned differences(const std::vector<int64_t> &a,
                     const std::vector<int64_t> &b) {
  unsigned count = 0;
  for (size_t i = 0; i < a.size(); ++i)
    count += a[i] != b[i];
  return count;
}

TEST(Searchers, RefinementRoundsRedrawOneOrTwoDecisionsOfAnElite) {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  PolicyOptions policy;
  policy.refine = 2;
  // Fitting a refined proposal into the fanouts may move more copies, and
  // a level's spread moves the copies of every prime it spreads: this is
  // the refinement alone, over the copies.
  policy.fitSpread = false;
  policy.levelSpreads = false;
  std::unique_ptr<Searcher> searcher =
      valueOr(makePolicySearcher(*space, 3, 1000, policy, ""), error);
  ASSERT_TRUE(searcher) << error;
  // Rounds of 64: the warm-up, a drawn round (an update follows), two
  // refinement rounds, then drawn again.
  std::vector<std::vector<int64_t>> proposals, told;
  std::vector<Feedback> feedback;
  Mapping mapping;
  Evaluation evaluation;
  for (int round = 0; round < 5; ++round) {
    searcher->ask(64, proposals);
    ASSERT_EQ(proposals.size(), 64u);
    if (round == 2 || round == 3) {
      // Each proposal is an earlier valid one with one or two decisions
      // redrawn: at most two parameters differ (a split's copy, an order's
      // digit, a keep). Two copies of a prime that swap slots leave their
      // split as it was, so a few may be repeats.
      unsigned repeats = 0;
      for (const std::vector<int64_t> &proposal : proposals) {
        unsigned nearest = ~0u;
        for (const std::vector<int64_t> &earlier : told)
          nearest = std::min(nearest, differences(proposal, earlier));
        EXPECT_LE(nearest, 2u);
        repeats += nearest == 0;
      }
      EXPECT_LE(repeats, 6u);
    }
    feedback.clear();
    for (const std::vector<int64_t> &proposal : proposals) {
      space->decode(proposal.data(), mapping);
      bool valid = space->model().evaluate(mapping, evaluation);
      feedback.push_back({valid, valid ? evaluation.edp : 0.0});
      if (valid && round < 2)
        told.push_back(proposal);
    }
    searcher->tell(proposals, feedback);
  }
  EXPECT_EQ(searcher->failure(), "");
}

} // namespace

namespace {

/// The samples `result` took to reach `target` (its budget and one more
/// when it never did).
int64_t samplesToReach(const SearchResult &result, double target) {
  for (const auto &[samples, cost] : result.curve)
    if (cost <= target)
      return samples;
  return result.samples + 1;
}

int64_t median(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

TEST(Searchers, AgentsTrainedOnAFamilyFindGoodMappingsOfAnUnseenMemberSooner) {
  // A family of 3x3 convs that differ in their output channels; the member
  // with 128 is never trained on.
  const Arch &arch = *findPreset("eyeriss");
  auto spaceOf = [&](int64_t k) {
    std::string error;
    std::unique_ptr<MapSpace> space = valueOr(
        MapSpace::create(makeConv({1, k, 64, 28, 28, 3, 3}), arch, {}), error);
    EXPECT_TRUE(space) << error;
    return space;
  };
  std::vector<std::unique_ptr<MapSpace>> family;
  std::vector<const MapSpace *> spaces;
  for (int64_t k : {32, 64, 256, 512}) {
    family.push_back(spaceOf(k));
    spaces.push_back(family.back().get());
  }
  const PolicyOptions policy;
  std::string error;
  std::unique_ptr<NetworkSearcher> pack = valueOr(
      makePolicyPack(spaces, {11, 12, 13, 14}, {}, 3000, policy, ""), error);
  ASSERT_TRUE(pack) << error;
  SearchOptions training;
  training.budget = 3000;
  runNetworkSearch(spaces, *pack, training);
  auto trained = std::make_shared<PolicyWeights>();
  for (size_t p = 0; p < spaces.size(); ++p)
    pack->agentView(p)->learntWeights(*trained);
  ASSERT_FALSE(trained->empty());

  std::unique_ptr<MapSpace> unseen = spaceOf(128);
  PolicyOptions pretrained = policy;
  pretrained.weights = trained;
  SearchOptions options;
  options.budget = 1000;
  auto searchUnseen = [&](const PolicyOptions &with, uint64_t seed) {
    std::string error;
    std::unique_ptr<Searcher> searcher = valueOr(
        makePolicySearcher(*unseen, seed, options.budget, with, ""), error);
    EXPECT_TRUE(searcher) << error;
    return searcher ? runSearch(*unseen, *searcher, options) : SearchResult();
  };
  std::vector<SearchResult> fresh, warm;
  std::vector<double> freshFinal;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    fresh.push_back(searchUnseen(policy, seed));
    warm.push_back(searchUnseen(pretrained, seed));
    freshFinal.push_back(fresh.back().bestCost);
  }
  // The target: what fresh agents reach with the whole budget, in median.
  std::sort(freshFinal.begin(), freshFinal.end());
  const double target = freshFinal[freshFinal.size() / 2];
  std::vector<int64_t> freshSamples, warmSamples;
  for (size_t s = 0; s < fresh.size(); ++s) {
    freshSamples.push_back(samplesToReach(fresh[s], target));
    warmSamples.push_back(samplesToReach(warm[s], target));
  }
  // (3x, not more: the agents of eyeriss's spread decisions are named by
  // their loops' free factors, K among them, so on the unseen member they
  // start afresh; docs/Search.md, "Spreads as decisions".)
  EXPECT_LT(median(warmSamples) * 3, median(freshSamples))
      << "fresh " << testing::PrintToString(freshSamples) << ", trained "
      << testing::PrintToString(warmSamples);
}

TEST(Searchers, AgentsStartedFromWeightsThatProposeNothingValidStillSearch) {
  std::string error;
  std::unique_ptr<MapSpace> space =
      valueOr(MapSpace::create(makeConv({1, 256, 256, 28, 28, 3, 3}),
                               *findPreset("eyeriss"), {}),
              error);
  ASSERT_TRUE(space) << error;
  const PolicyOptions policy;
  std::unique_ptr<Searcher> trainer =
      valueOr(makePolicySearcher(*space, 1, 200, policy, ""), error);
  ASSERT_TRUE(trainer) << error;
  SearchOptions options;
  options.budget = 200;
  runSearch(*space, *trainer, options);
  PolicyWeights learnt;
  trainer->agentView()->learntWeights(learnt);
  ASSERT_FALSE(learnt.empty());

  // An invalid point, and agents all but certain to propose it.
  DecisionSpace decisions(*space);
  const std::vector<Decision> &list = decisions.decisions();
  Rng rng(5);
  std::vector<int64_t> invalid(list.size()), values(space->parameters().size());
  do {
    for (size_t d = 0; d < list.size(); ++d)
      invalid[d] = rng.below(list[d].choices);
    decisions.toParameters(invalid.data(), values.data());
  } while (!llvm::errorToBool(space->checkMapping(space->decode(values))));
  auto stubborn = std::make_shared<PolicyWeights>();
  for (AgentWeights agent : learnt.agents()) {
    // One agent per decision: its key ends with the decision's name.
    auto owned = std::find_if(list.begin(), list.end(), [&](const Decision &d) {
      const std::string name = "|" + d.name + "/" + std::to_string(d.choices);
      return agent.key.size() > name.size() &&
             agent.key.compare(agent.key.size() - name.size(), name.size(),
                               name) == 0;
    });
    ASSERT_NE(owned, list.end()) << agent.key;
    const int64_t value = invalid[size_t(owned - list.begin())];
    float *head = agent.values.data() + agent.values.size() - agent.width;
    for (int64_t c = 0; c < agent.width; ++c)
      head[c] = c == value ? 60.0f : -60.0f;
    stubborn->add(std::move(agent));
  }
  EXPECT_EQ(stubborn->agents().size(), list.size());

  PolicyOptions started = policy;
  started.weights = stubborn;
  std::unique_ptr<Searcher> searcher =
      valueOr(makePolicySearcher(*space, 2, 1000, started, ""), error);
  ASSERT_TRUE(searcher) << error;
  options.budget = 1000;
  SearchResult result = runSearch(*space, *searcher, options);
  EXPECT_TRUE(result.found);
  EXPECT_GT(result.validSamples, 0);
}
