//===- OptimalPolishTest.cpp - The exact searcher's local improvement -----===//

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
  while (polish.next(point))
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
    auto space = MapSpace::create(gemm, arch, fixedOrders, error);
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
      Polish polish(*space, bounds);
      polish.report(valid[c], 1.0);
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

TEST(OptimalPolish, OnlyABetterMappingRequeues) {
  Problem conv = makeConv({1, 8, 4, 7, 7, 3, 3});
  std::string error;
  auto space = MapSpace::create(conv, *findPreset("eyeriss"), {}, error);
  ASSERT_TRUE(space) << error;
  PartialBound bounds(*space, Objective::EDP);
  Rng rng(2);
  std::vector<int64_t> point(space->parameters().size());
  do
    space->sample(rng, point.data());
  while (!space->model().evaluate(space->decode(point)).valid);
  Polish polish(*space, bounds);
  polish.report(point, 10.0);
  const auto first = drain(polish);
  EXPECT_GT(first.size(), 10u);
  polish.report(first.front(), 10.0); // no better: nothing new
  EXPECT_TRUE(drain(polish).empty());
  polish.report(first.front(), 9.0);
  EXPECT_FALSE(drain(polish).empty());
}

} // namespace
