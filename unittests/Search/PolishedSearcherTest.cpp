//===- PolishedSearcherTest.cpp - A searcher with the exact one's polish --===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Search/Searcher.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// Random proposals that records what it was asked for and told, and
/// checks that it is told of its own proposals only, in order.
class SpySearcher : public Searcher {
public:
  explicit SpySearcher(const MapSpace &space)
      : random(makeRandomSearcher(space, 7)) {}
  std::unique_ptr<Searcher> random;
  std::vector<std::vector<int64_t>> asked;
  int64_t proposed = 0, told = 0, mismatches = 0;

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    random->ask(count, proposals);
    asked = proposals;
    proposed += int64_t(proposals.size());
  }
  void tell(const std::vector<std::vector<int64_t>> &points,
            const std::vector<Feedback> &feedback) override {
    // Told of the batch it was asked for, nothing else.
    mismatches += points != asked || feedback.size() > points.size();
    told += int64_t(feedback.size());
    random->tell(points, feedback);
  }
};

/// A GEMM on eyeriss, made once for every test here.
const MapSpace &gemmSpace() {
  static const std::unique_ptr<MapSpace> space = [] {
    std::string why;
    std::unique_ptr<MapSpace> made = valueOr(
        MapSpace::create(makeGemm(64, 96, 48), *findPreset("eyeriss"), {}),
        why);
    EXPECT_TRUE(made) << why;
    return made;
  }();
  return *space;
}

TEST(PolishedSearcher, TellsTheInnerSearcherOfItsOwnProposalsOnly) {
  const MapSpace &space = gemmSpace();
  auto spy = std::make_unique<SpySearcher>(space);
  SpySearcher *inner = spy.get();
  std::unique_ptr<Searcher> searcher =
      makePolishedSearcher(space, Objective::EDP, std::move(spy), 1);
  SearchOptions options;
  options.budget = 3000;
  const SearchResult result = runSearch(space, *searcher, options);
  EXPECT_EQ(result.samples, 3000);
  EXPECT_EQ(inner->mismatches, 0);
  // Told of all it proposed but what the budget's end cut from a batch.
  EXPECT_LE(inner->told, inner->proposed);
  EXPECT_GT(inner->told + int64_t(options.batch), inner->proposed);
  // The polish had batches of its own: the inner searcher proposed less
  // than the budget.
  EXPECT_LT(inner->proposed, 3000);
  EXPECT_GT(inner->proposed, 0);
  EXPECT_TRUE(result.found);
}

TEST(PolishedSearcher, DescendsBelowItsInnerSearcherAlone) {
  // Random proposals alone against the same proposals with the polish
  // descending from each better one, at equal samples: the descent ends
  // at a local optimum of single moves, which random sampling of this
  // space does not reach in the budget (5 seeds, every one).
  const MapSpace &space = gemmSpace();
  SearchOptions options;
  options.budget = 4000;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    SCOPED_TRACE(seed);
    std::unique_ptr<Searcher> alone = makeRandomSearcher(space, seed);
    std::unique_ptr<Searcher> polished = makePolishedSearcher(
        space, Objective::EDP, makeRandomSearcher(space, seed), seed);
    const SearchResult a = runSearch(space, *alone, options);
    const SearchResult b = runSearch(space, *polished, options);
    ASSERT_TRUE(a.found && b.found);
    EXPECT_LT(b.bestCost, a.bestCost);
  }
}

TEST(PolishedSearcher, IsDeterministic) {
  const MapSpace &space = gemmSpace();
  SearchOptions options;
  options.budget = 2000;
  auto run = [&] {
    std::unique_ptr<Searcher> searcher = makePolishedSearcher(
        space, Objective::Energy, makeRandomSearcher(space, 3), 3);
    return runSearch(space, *searcher, options);
  };
  const SearchResult first = run(), second = run();
  EXPECT_EQ(first.bestCost, second.bestCost);
  EXPECT_EQ(first.curve, second.curve);
}

} // namespace
