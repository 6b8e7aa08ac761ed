//===- LevelSpreadsTest.cpp - A level's spread as one decision ------------===//
//
// The spreads LevelSpreads lists must be every spread a valid mapping can
// take at a level and axis (or the learned searchers lose mappings), and a
// spread decision must place its whole spread whatever the copies chose.
//
//===----------------------------------------------------------------------===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"
#include "marlmap/Search/Decisions.h"

#include "LevelSpreads.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <limits>
#include <memory>

using namespace marlmap;

namespace {

std::vector<Problem> problems() {
  return {makeConv({1, 64, 64, 56, 56, 3, 3}),
          makeConv({1, 512, 64, 28, 28, 3, 3}), makeGemm(512, 768, 768),
          makeConv({1, 24, 144, 56, 56, 1, 1})};
}

/// The factor of `dim` along `axis` (1 X, 2 Y) at `level` of `mapping`.
int64_t spatialFactor(const Mapping &mapping, unsigned level, unsigned axis,
                      unsigned dim) {
  const LevelMapping &at = mapping.levels[level];
  return axis == 1 ? at.spatialX[dim] : at.spatialY[dim];
}

/// The decision values of `plan` (the decisions named after it) that pick
/// spread `index`.
void pick(const DecisionSpace &decisions, const std::string &name,
          int64_t index, std::vector<int64_t> &values) {
  unsigned set = 0;
  for (size_t d = 0; d < decisions.decisions().size(); ++d) {
    const std::string &decision = decisions.decisions()[d].name;
    if (decision == name)
      values[d] = index;
    else if (decision == name + " #high")
      values[d] = index / 64;
    else if (decision == name + " #low")
      values[d] = index % 64;
    else
      continue;
    ++set;
  }
  ASSERT_GT(set, 0u) << "no decision named " << name;
}

bool fitsEveryFanout(const MapSpace &space, const Mapping &mapping) {
  for (unsigned l = 0; l < mapping.levels.size(); ++l)
    for (unsigned axis : {1u, 2u}) {
      int64_t along = 1;
      for (unsigned d = 0; d < space.problem().dims.size(); ++d)
        along *= spatialFactor(mapping, l, axis, d);
      if (along >
          (axis == 1 ? space.arch().fanoutX(l) : space.arch().fanoutY(l)))
        return false;
    }
  return true;
}

TEST(LevelSpreads, EveryValidPointsSpreadIsListed) {
  // A valid point's spread at every governed level and axis is one of the
  // plan's, read back as itself.
  for (const std::string &preset : presetNames())
    for (const Problem &problem : problems()) {
      SCOPED_TRACE(preset + " " + problem.key());
      std::string error;
      auto space =
          valueOr(MapSpace::create(problem, *findPreset(preset), {}), error);
      if (!space)
        continue; // a problem that does not fit the preset at all
      LevelSpreads spreads(*space, 4095);
      std::vector<int64_t> values(space->parameters().size()),
          chosen(spreads.plans().size());
      Rng rng(3);
      Mapping mapping;
      unsigned valid = 0;
      for (int i = 0; i < 300; ++i) {
        space->sample(rng, values.data());
        space->fitSpread(values.data());
        space->decode(values.data(), mapping);
        if (!fitsEveryFanout(*space, mapping))
          continue; // a point fitting cannot fit
        ++valid;
        spreads.read(values.data(), chosen.data());
        for (size_t p = 0; p < chosen.size(); ++p) {
          const SpreadPlan &plan = spreads.plans()[p];
          ASSERT_NE(chosen[p], plan.copiesDecide());
          const std::vector<int64_t> &spread = plan.spreads[chosen[p]];
          for (size_t at = 0; at < plan.dims.size(); ++at)
            EXPECT_EQ(
                spatialFactor(mapping, plan.level, plan.axis, plan.dims[at]),
                spread[at]);
        }
      }
      EXPECT_GT(valid, 100u);
    }
}

TEST(LevelSpreads, ASpreadDecisionPlacesItsWholeSpread) {
  // From a point with nothing spread, each listed spread of each plan,
  // chosen alone, is what the decoded mapping spreads there, and it fits
  // the fanout.
  for (const char *preset : {"eyeriss", "systolic-ws"})
    for (const Problem &problem : problems()) {
      SCOPED_TRACE(preset + std::string(" ") + problem.key());
      std::string error;
      auto space =
          valueOr(MapSpace::create(problem, *findPreset(preset), {}), error);
      ASSERT_TRUE(space) << error;
      LevelSpreads spreads(*space, 4095);
      DecisionSpace decisions(*space);
      ASSERT_FALSE(spreads.plans().empty());
      std::vector<int64_t> base(decisions.decisions().size(), 0),
          values(space->parameters().size());
      // Every plan at the spread of ones: the copies placed temporally.
      for (const SpreadPlan &plan : spreads.plans()) {
        const auto ones = std::find(plan.spreads.begin(), plan.spreads.end(),
                                    std::vector<int64_t>(plan.dims.size(), 1));
        ASSERT_NE(ones, plan.spreads.end());
        pick(decisions, spreadDecisionName(*space, plan),
             ones - plan.spreads.begin(), base);
      }
      Mapping mapping;
      for (const SpreadPlan &plan : spreads.plans()) {
        const int64_t fanout = plan.axis == 1
                                   ? space->arch().fanoutX(plan.level)
                                   : space->arch().fanoutY(plan.level);
        for (size_t s = 0; s < plan.spreads.size(); ++s) {
          std::vector<int64_t> chosen = base;
          pick(decisions, spreadDecisionName(*space, plan), int64_t(s), chosen);
          decisions.toParameters(chosen.data(), values.data());
          space->decode(values.data(), mapping);
          int64_t along = 1;
          for (unsigned d = 0; d < space->problem().dims.size(); ++d)
            along *= spatialFactor(mapping, plan.level, plan.axis, d);
          EXPECT_LE(along, fanout);
          for (size_t at = 0; at < plan.dims.size(); ++at)
            ASSERT_EQ(
                spatialFactor(mapping, plan.level, plan.axis, plan.dims[at]),
                plan.spreads[s][at])
                << spreadDecisionName(*space, plan) << " spread " << s;
        }
      }
    }
}

TEST(LevelSpreads, OnlyTwoDimensionalArraysSpreadAsOne) {
  // simba's levels each spread along X or along Y, eyeriss's 14x12 array
  // along both.
  std::string error;
  for (const char *preset : {"simba", "eyeriss"}) {
    auto space = valueOr(
        MapSpace::create(makeGemm(512, 768, 768), *findPreset(preset), {}),
        error);
    ASSERT_TRUE(space) << error;
    const LevelSpreads spreads(*space, 4095);
    for (const SpreadPlan &plan : spreads.plans()) {
      EXPECT_GT(space->arch().fanoutX(plan.level), 1);
      EXPECT_GT(space->arch().fanoutY(plan.level), 1);
    }
    EXPECT_EQ(spreads.plans().size(), std::string(preset) == "simba" ? 0u : 2u);
  }
}

TEST(LevelSpreads, TheFullestSpreadsComeFirst) {
  std::string error;
  auto space = valueOr(
      MapSpace::create(makeGemm(512, 768, 768), *findPreset("eyeriss"), {}),
      error);
  ASSERT_TRUE(space) << error;
  LevelSpreads spreads(*space, 4095);
  ASSERT_FALSE(spreads.plans().empty());
  for (const SpreadPlan &plan : spreads.plans()) {
    int64_t last = std::numeric_limits<int64_t>::max();
    for (const std::vector<int64_t> &spread : plan.spreads) {
      int64_t product = 1;
      for (int64_t f : spread)
        product *= f;
      EXPECT_LE(product, last);
      last = product;
    }
  }
  // Too many spreads leave the level to the copies.
  EXPECT_LT(LevelSpreads(*space, 3).plans().size(), spreads.plans().size());
}

} // namespace
