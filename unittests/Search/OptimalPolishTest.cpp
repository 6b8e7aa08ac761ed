//===- OptimalPolishTest.cpp - The exact searcher's local improvement -----===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "OptimalPolish.h"

#include "gtest/gtest.h"

#include <set>

using namespace marlmap;

namespace {

/// The factor of `dim` at each (level, kind) slot, kind 0 temporal, 1 X,
/// 2 Y.
std::vector<int64_t> slotFactors(const Mapping &mapping, unsigned dim) {
  std::vector<int64_t> factors;
  for (const LevelMapping &level : mapping.levels) {
    factors.push_back(level.temporal[dim]);
    factors.push_back(level.spatialX[dim]);
    factors.push_back(level.spatialY[dim]);
  }
  return factors;
}

bool isPrime(int64_t n) {
  if (n < 2)
    return false;
  for (int64_t p = 2; p * p <= n; ++p)
    if (n % p == 0)
      return false;
  return true;
}

/// Whether `b` is `a` with one prime of one dim moved from one slot to
/// another, orders and keeps as they were.
bool onePrimeMoved(const Mapping &a, const Mapping &b, unsigned numDims) {
  unsigned changedDims = 0;
  for (unsigned d = 0; d < numDims; ++d) {
    const std::vector<int64_t> x = slotFactors(a, d), y = slotFactors(b, d);
    std::vector<unsigned> differ;
    for (unsigned k = 0; k < x.size(); ++k)
      if (x[k] != y[k])
        differ.push_back(k);
    if (differ.empty())
      continue;
    ++changedDims;
    if (differ.size() != 2)
      return false;
    const unsigned up = x[differ[0]] < y[differ[0]] ? differ[0] : differ[1];
    const unsigned down = up == differ[0] ? differ[1] : differ[0];
    if (y[up] % x[up] || x[down] % y[down] ||
        y[up] / x[up] != x[down] / y[down] || !isPrime(y[up] / x[up]))
      return false;
  }
  for (unsigned l = 0; l < a.levels.size(); ++l)
    if (a.levels[l].keep != b.levels[l].keep ||
        a.levels[l].order != b.levels[l].order)
      return false;
  return changedDims == 1;
}

std::vector<std::vector<int64_t>> drain(Polish &polish) {
  std::vector<std::vector<int64_t>> neighbours;
  std::vector<int64_t> point;
  while (polish.next(point, /*mayKick=*/false))
    neighbours.push_back(point);
  return neighbours;
}

TEST(OptimalPolish, QueuesEverySingleMoveThatFitsAndNothingThatDoesNot) {
  // A small space enumerated (orders fixed): every point one prime away
  // from the centre that fits is queued; every queued point fits.
  Problem gemm = makeGemm(4, 6, 2);
  for (const char *preset : {"edge", "eyeriss", "simba"}) {
    SCOPED_TRACE(preset);
    const Arch arch = *findPreset(preset);
    Constraints fixedOrders;
    fixedOrders.levels.resize(arch.levels.size());
    for (LevelConstraints &level : fixedOrders.levels)
      level.order = {0, 1, 2};
    std::string error;
    auto space = valueOr(MapSpace::create(gemm, arch, fixedOrders), error);
    ASSERT_TRUE(space) << error;
    PartialBound bounds(*space, Objective::EDP);
    const CostModel &model = space->model();
    std::vector<std::vector<int64_t>> valid;
    ASSERT_TRUE(space->enumerate(3'000'000, [&](const std::vector<int64_t> &v) {
      if (model.evaluate(space->decode(v)).valid && valid.size() < 4000)
        valid.push_back(v);
      return true;
    }));
    ASSERT_GT(valid.size(), 10u);
    for (size_t c = 0; c < valid.size(); c += valid.size() / 7) {
      Polish polish(*space, bounds, /*seed=*/1);
      polish.report(valid[c], 1.0, /*polished=*/false);
      const auto queued = drain(polish);
      const std::set<std::vector<int64_t>> queuedSet(queued.begin(),
                                                     queued.end());
      for (const std::vector<int64_t> &point : queued)
        EXPECT_TRUE(model.evaluate(space->decode(point)).valid);
      const Mapping center = space->decode(valid[c]);
      unsigned moves = 0;
      for (const std::vector<int64_t> &point : valid)
        if (onePrimeMoved(center, space->decode(point), 3)) {
          ++moves;
          EXPECT_TRUE(queuedSet.count(point));
        }
      EXPECT_GT(moves, 0u);
    }
  }
}

/// A valid point of a conv on eyeriss, drawn with `seed`.
std::vector<int64_t> validPoint(const MapSpace &space, uint64_t seed) {
  Rng rng(seed);
  std::vector<int64_t> point(space.parameters().size());
  do
    space.sample(rng, point.data());
  while (!space.model().evaluate(space.decode(point)).valid);
  return point;
}

std::unique_ptr<MapSpace> convOnEyeriss() {
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 8, 4, 7, 7, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  EXPECT_TRUE(space) << error;
  return space;
}

TEST(OptimalPolish, OnlyABetterMappingRequeues) {
  auto space = convOnEyeriss();
  ASSERT_TRUE(space);
  PartialBound bounds(*space, Objective::EDP);
  Polish polish(*space, bounds, /*seed=*/1);
  polish.report(validPoint(*space, 2), 10.0, /*polished=*/false);
  const auto first = drain(polish);
  EXPECT_GT(first.size(), 10u);
  polish.report(first.front(), 10.0, true); // no better: nothing new
  EXPECT_TRUE(drain(polish).empty());
  polish.report(first.front(), 9.0, true);
  EXPECT_FALSE(drain(polish).empty());
  EXPECT_FALSE(polish.afterKick());
}

TEST(OptimalPolish, KicksLeaveTheBestAndDescendFromWhereTheyLand) {
  auto space = convOnEyeriss();
  ASSERT_TRUE(space);
  PartialBound bounds(*space, Objective::EDP);
  const std::vector<int64_t> best = validPoint(*space, 3);
  auto kickedFrom = [&](uint64_t seed) {
    Polish polish(*space, bounds, seed);
    polish.report(best, 10.0, /*polished=*/false);
    drain(polish); // the best's neighbours: a local optimum
    std::vector<int64_t> kick;
    EXPECT_TRUE(polish.next(kick, /*mayKick=*/true));
    EXPECT_TRUE(polish.afterKick());
    // A worse mapping from elsewhere moves nothing; the kick's own
    // mapping, worse than the best, becomes the centre of a descent.
    polish.report(validPoint(*space, 4), 20.0, /*polished=*/false);
    EXPECT_FALSE(polish.queued());
    polish.report(kick, 12.0, /*polished=*/true);
    EXPECT_TRUE(polish.queued());
    EXPECT_TRUE(polish.afterKick());
    return kick;
  };
  const std::vector<int64_t> kick = kickedFrom(7);
  EXPECT_NE(kick, best);
  EXPECT_TRUE(space->model().evaluate(space->decode(kick)).valid);
  EXPECT_EQ(kickedFrom(7), kick); // the seed decides
  // A few primes moved, orders and keeps as they were.
  const Mapping from = space->decode(best), to = space->decode(kick);
  unsigned changed = 0;
  for (unsigned d = 0; d < space->problem().dims.size(); ++d) {
    const std::vector<int64_t> x = slotFactors(from, d), y = slotFactors(to, d);
    for (unsigned k = 0; k < x.size(); ++k)
      changed += x[k] != y[k];
  }
  EXPECT_GE(changed, 2u);
  EXPECT_LE(changed, 6u);
  for (unsigned l = 0; l < from.levels.size(); ++l) {
    EXPECT_EQ(from.levels[l].order, to.levels[l].order);
    EXPECT_EQ(from.levels[l].keep, to.levels[l].keep);
  }
}

} // namespace
