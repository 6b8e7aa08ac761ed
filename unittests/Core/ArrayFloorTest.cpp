//===- ArrayFloorTest.cpp - How well a factor space fills the arrays ------===//

#include "marlmap/Core/ArrayFloor.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"

#include "gtest/gtest.h"

#include <functional>

using namespace marlmap;

namespace {

std::unique_ptr<MapSpace> spaceFor(const std::string &preset,
                                   const std::string &layer,
                                   FactorSpace factors = FactorSpace::Perfect) {
  std::string error;
  std::optional<Problem> problem = optionalOr(parseLayer(layer), error);
  EXPECT_TRUE(problem) << error;
  if (!problem)
    return nullptr;
  return valueOr(MapSpace::create(*problem, *findPreset(preset), {}, factors),
                 error);
}

/// The steps `mapping` takes through its loops on the arrays, as
/// arrayFloors counts them, or 0 when it overflows a fanout.
double arraySteps(const Mapping &mapping, const MapSpace &space) {
  for (unsigned l = 0; l < mapping.levels.size(); ++l)
    if (mapping.levels[l].spreadX() > space.arch().fanoutX(l) ||
        mapping.levels[l].spreadY() > space.arch().fanoutY(l))
      return 0.0;
  double steps = 1.0;
  const std::vector<LoopDim> &dims = space.problem().dims;
  for (unsigned d = 0; d < dims.size(); ++d) {
    int64_t spread = 1;
    for (const LevelMapping &level : mapping.levels)
      spread *= level.spatialX[d] * level.spatialY[d];
    steps *= double((dims[d].bound + spread - 1) / spread);
  }
  return steps;
}

/// Visits every choice of `space`'s factor and axis parameters, the others
/// at 0 (orders and keeps do not spread anything); false, visiting nothing,
/// when there are more than a million.
bool everyFactorChoice(
    const MapSpace &space,
    const std::function<void(const std::vector<int64_t> &)> &visit) {
  std::vector<unsigned> free;
  double count = 1.0;
  for (unsigned i = 0; i < space.parameters().size(); ++i) {
    const Parameter &param = space.parameters()[i];
    if (param.kind == Parameter::Kind::Factor ||
        param.kind == Parameter::Kind::LoopFactor ||
        param.kind == Parameter::Kind::Axis) {
      free.push_back(i);
      count *= double(param.choices);
    }
  }
  if (count > 1e6)
    return false;
  std::vector<int64_t> point(space.parameters().size(), 0);
  for (;;) {
    visit(point);
    size_t i = 0;
    for (; i < free.size(); ++i) {
      if (++point[free[i]] < space.parameters()[free[i]].choices)
        break;
      point[free[i]] = 0;
    }
    if (i == free.size())
      return true;
  }
}

/// Whether a dim of `space` may spread along X or Y at some level, but not
/// both (exclusive_axes): the floor lets it take both.
bool hasExclusiveAxes(const MapSpace &space) {
  for (unsigned d = 0; d < space.problem().dims.size(); ++d)
    for (const MapSpace::FactorSlot &slot : space.factorSlots(d))
      if (slot.kind == 3)
        return true;
  return false;
}

// Every point of small spaces: no point takes fewer steps than the floor of
// its space, and some point takes exactly as many (unless a dim's axes are
// exclusive, where the floor may be lower).
TEST(ArrayFloor, IsTheFewestStepsOfEveryPointOfSmallSpaces) {
  unsigned compared = 0;
  for (const std::string &preset : presetNames())
    for (const char *layer :
         {"gemm:M=5,N=3,K=7", "gemm:M=12,N=2,K=9", "gemm:M=18,N=5,K=20",
          "conv:N=1,K=3,C=2,P=5,Q=1,R=3,S=1",
          "conv:N=1,K=6,C=5,P=9,Q=1,R=3,S=1", "dwconv:N=1,C=6,P=7,Q=1,R=3,S=1",
          "dwconv:N=1,C=20,P=9,Q=1,R=3,S=1"})
      for (FactorSpace factors : kFactorSpaces) {
        auto space = spaceFor(preset, layer, factors);
        if (!space)
          continue;
        auto perfect = spaceFor(preset, layer);
        ASSERT_TRUE(perfect);
        const ArrayFloors floors = arrayFloors(*perfect);
        ASSERT_TRUE(floors.exact);
        const double floor = double(
            factors == FactorSpace::Perfect ? floors.perfect : floors.partial);
        double fewest = 1e300;
        if (!everyFactorChoice(*space, [&](const std::vector<int64_t> &point) {
              const double steps = arraySteps(space->decode(point), *space);
              if (steps > 0.0)
                fewest = std::min(fewest, steps);
            }))
          continue;
        const std::string what =
            preset + " " + layer + " " + factorSpaceName(factors);
        EXPECT_LE(floor, fewest) << what;
        if (!hasExclusiveAxes(*space)) {
          EXPECT_EQ(floor, fewest) << what;
        }
        ++compared;
      }
  EXPECT_GE(compared, 60u);
}

// Layers too large to enumerate: sampled points never beat the floor.
TEST(ArrayFloor, NoSampledPointBeatsIt) {
  Rng rng(7);
  for (const std::string &preset : presetNames())
    for (const char *layer :
         {"conv:N=1,K=61,C=64,P=53,Q=53,R=3,S=3",
          "conv:N=1,K=1024,C=512,P=14,Q=14,R=1,S=1", "gemm:M=197,N=197,K=64"})
      for (FactorSpace factors : kFactorSpaces) {
        auto space = spaceFor(preset, layer, factors);
        auto perfect = spaceFor(preset, layer);
        if (!space || !perfect)
          continue;
        const ArrayFloors floors = arrayFloors(*perfect);
        const double floor = double(
            factors == FactorSpace::Perfect ? floors.perfect : floors.partial);
        std::vector<int64_t> point(space->parameters().size());
        for (int i = 0; i < 2000; ++i) {
          space->sample(rng, point.data());
          space->fitSpread(point.data());
          const double steps = arraySteps(space->decode(point), *space);
          if (steps > 0.0) {
            ASSERT_LE(floor, steps) << preset << " " << layer;
          }
        }
      }
}

ArrayFloors floorsOf(const std::string &preset, const std::string &layer) {
  auto space = spaceFor(preset, layer);
  EXPECT_TRUE(space) << preset << " " << layer;
  return space ? arrayFloors(*space) : ArrayFloors();
}

// Partial tiles where the arrays cannot be filled without them: a 197-long
// product on every preset, and ResNet-50's 1x1 convs on eyeriss (whose X
// takes output channels, 14 of them); not where whole factors fill the
// arrays nearly as well.
TEST(ArrayFloor, PartialTilesPayWhereOnlyTheyFillTheArrays) {
  auto alone = [](const std::string &preset, const std::string &layer) {
    return bool(partialTilesPay({floorsOf(preset, layer)}, {1}).front());
  };
  for (const char *preset : {"eyeriss", "simba", "systolic-ws"})
    EXPECT_TRUE(alone(preset, "gemm:M=197,N=197,K=64")) << preset;
  EXPECT_TRUE(alone("eyeriss", "conv:N=1,K=1024,C=512,P=14,Q=14,R=1,S=1"));
  EXPECT_FALSE(alone("simba", "conv:N=1,K=1024,C=512,P=14,Q=14,R=1,S=1"));
  EXPECT_FALSE(alone("eyeriss", "conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3"));
  // 768 over 14 columns: 16% more steps whole than partial, not worth it.
  EXPECT_FALSE(alone("eyeriss", "gemm:M=512,N=768,K=768"));
  const ArrayFloors gemm = floorsOf("eyeriss", "gemm:M=512,N=768,K=768");
  EXPECT_GT(gemm.perfect, gemm.partial);
  EXPECT_LT(double(gemm.perfect), kPartialTilesPayAt * gemm.partial);
}

// In a network, a problem whose partial tiles save less than a thousandth of
// the network's steps keeps whole ones, however much they save it.
TEST(ArrayFloor, PartialTilesPayOnlyForAShareOfTheNetwork) {
  const ArrayFloors small = floorsOf("simba", "gemm:M=197,N=197,K=64");
  const ArrayFloors large = floorsOf("simba", "gemm:M=64,N=64,K=64");
  ASSERT_GT(double(small.perfect), 2.0 * small.partial);
  const double saved = double(small.perfect - small.partial);
  // The most copies of the large problem beside which the small one's
  // saving is still a thousandth of the network's floor, and one more.
  const int64_t most = int64_t(
      (saved / kLeastShareSaved - double(small.perfect)) / large.perfect);
  ASSERT_GT(most, 1);
  EXPECT_EQ(partialTilesPay({small, large}, {1, most}),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(partialTilesPay({small, large}, {1, most + 1}),
            (std::vector<bool>{false, false}));
  // Its count counts: ten of it save ten times as much.
  EXPECT_EQ(partialTilesPay({small, large}, {10, most + 1}),
            (std::vector<bool>{true, false}));
}

} // namespace
