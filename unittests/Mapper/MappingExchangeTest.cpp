//===- MappingExchangeTest.cpp - Best mappings passed between problems ----===//

#include "MappingExchange.h"

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Transfer.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

using Point = std::vector<int64_t>;

/// Proposes the same point for each problem at every round and records
/// what it is suggested.
class ScriptedSearcher : public NetworkSearcher {
public:
  explicit ScriptedSearcher(std::vector<Point> script)
      : script(std::move(script)), suggested(this->script.size()) {}

  void ask(unsigned count, std::vector<Proposals> &proposals) override {
    proposals.resize(script.size());
    for (size_t p = 0; p < script.size(); ++p)
      proposals[p] = {script[p]};
  }
  void tell(const std::vector<Proposals> &,
            const std::vector<std::vector<Feedback>> &) override {}
  unsigned suggestionsWanted() const override { return 1; }
  void suggest(size_t problem, Point point) override {
    suggested[problem].push_back(std::move(point));
  }

  std::vector<Point> script;
  std::vector<std::vector<Point>> suggested;
};

std::unique_ptr<MapSpace> space(const Problem &problem, const Arch &arch) {
  std::string error;
  std::unique_ptr<MapSpace> result =
      valueOr(MapSpace::create(problem, arch, {}), error);
  EXPECT_TRUE(result) << error;
  return result;
}

/// A point of `space` whose mapping fits.
Point validPoint(const MapSpace &space, uint64_t seed) {
  Rng rng(seed);
  Point values(space.parameters().size());
  Evaluation evaluation;
  for (int tries = 0; tries < 100000; ++tries) {
    space.sample(rng, values.data());
    if (space.model().evaluate(space.decode(values), evaluation))
      return values;
  }
  ADD_FAILURE() << "no valid point";
  return values;
}

TEST(MappingExchange, ANewBestReachesTheNearestProblemOfItsKindRecast) {
  const Arch arch = *findPreset("eyeriss");
  std::vector<std::unique_ptr<MapSpace>> spaces;
  spaces.push_back(space(makeConv({1, 32, 16, 14, 14, 3, 3}), arch));
  spaces.push_back(space(makeConv({1, 64, 16, 14, 14, 3, 3}), arch));
  spaces.push_back(space(makeConv({1, 64, 16, 56, 56, 1, 1}), arch));
  spaces.push_back(space(makeGemm(64, 32, 16), arch));
  std::vector<Point> script;
  for (size_t p = 0; p < spaces.size(); ++p)
    script.push_back(validPoint(*spaces[p], p + 1));
  ScriptedSearcher searcher(script);
  SearchOptions options;
  options.budget = 10;
  options.batch = 1;
  std::vector<const MapSpace *> pointers;
  for (const auto &s : spaces)
    pointers.push_back(s.get());
  NetworkSearchRun run(pointers, searcher, options);
  std::vector<MappingExchange::Member> members;
  for (size_t p = 0; p < spaces.size(); ++p)
    members.push_back({spaces[p].get(), &run, &searcher, p});
  MappingExchange exchange(members, 1);

  ASSERT_TRUE(run.round());
  exchange.exchange();
  // The two 3x3 convolutions are each other's nearest; the 1x1 one hears
  // from the nearer of them (K = 64); the GEMM has no other GEMM.
  auto recast = [&](size_t from, size_t to) {
    std::optional<Mapping> mapping =
        transferMapping(run.result(from).best, spaces[from]->problem(),
                        spaces[to]->problem(), arch);
    EXPECT_TRUE(mapping);
    return *spaces[to]->encodeNearest(*mapping);
  };
  EXPECT_EQ(searcher.suggested[0], std::vector<Point>{recast(1, 0)});
  EXPECT_EQ(searcher.suggested[1], std::vector<Point>{recast(0, 1)});
  EXPECT_EQ(searcher.suggested[2], std::vector<Point>{recast(1, 2)});
  EXPECT_TRUE(searcher.suggested[3].empty());
  // A 3x3 convolution's own best, recast for its twin with K doubled,
  // keeps the loop orders.
  Mapping twin = spaces[1]->decode(searcher.suggested[1][0]);
  for (size_t l = 0; l < twin.levels.size(); ++l)
    EXPECT_EQ(twin.levels[l].order, run.result(0).best.levels[l].order);

  // Nothing new is found: nothing more is passed on.
  ASSERT_TRUE(run.round());
  exchange.exchange();
  for (size_t p = 0; p < spaces.size(); ++p)
    EXPECT_EQ(searcher.suggested[p].size(), p == 3 ? 0u : 1u);
}

} // namespace
