//===- ArchVariantsTest.cpp - Accelerators with some sizes changed --------===//

#include "marlmap/Core/ArchVariants.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

std::optional<Arch> variantOf(const std::string &preset,
                              std::vector<ArchSetting> settings,
                              std::string &error) {
  return optionalOr(archVariant(*findPreset(preset), settings), error);
}

TEST(ArchVariants, PeArrayKeepsWhatEachPeHas) {
  std::string error;
  std::optional<Arch> small = variantOf("eyeriss", {{"pe", "8x4"}}, error);
  ASSERT_TRUE(small) << error;
  EXPECT_EQ(small->name, "eyeriss[pe=8x4]");
  EXPECT_EQ(small->compute.instances, 32);
  EXPECT_EQ(small->compute.meshX, 8);
  EXPECT_EQ(small->compute.meshY, 4);
  for (unsigned l = 0; l < 3; ++l) // the register files, one per PE
    EXPECT_EQ(small->levels[l].instances, 32) << small->levels[l].name;
  EXPECT_EQ(small->levels[3].instances, 1); // the global buffer

  // simba's 16 PEs (a row) become 32 (8x4): each keeps its buffers,
  // accumulators and MACs, so every count inside doubles.
  Arch simba = *findPreset("simba");
  std::optional<Arch> twice = variantOf("simba", {{"pe", "8x4"}}, error);
  ASSERT_TRUE(twice) << error;
  EXPECT_EQ(twice->compute.instances, 2 * simba.compute.instances);
  for (unsigned l = 0; l < simba.levels.size(); ++l)
    EXPECT_EQ(twice->levels[l].instances,
              simba.levels[l].instances > 1 ? 2 * simba.levels[l].instances : 1)
        << simba.levels[l].name;
}

TEST(ArchVariants, BufferBandwidthAndClock) {
  std::string error;
  std::optional<Arch> variant = variantOf("eyeriss",
                                          {{"glb_kb", "64"},
                                           {"glb_bw", "8"},
                                           {"dram_bw", "2.5"},
                                           {"clock_mhz", "400"}},
                                          error);
  ASSERT_TRUE(variant) << error;
  const StorageLevel &glb = variant->levels[3];
  EXPECT_EQ(*glb.entries, 64 * 8192 / glb.wordBits);
  EXPECT_EQ(*glb.readBandwidth, 8.0);
  EXPECT_EQ(*glb.writeBandwidth, 8.0);
  EXPECT_EQ(*variant->levels.back().readBandwidth, 2.5);
  EXPECT_EQ(variant->clockMHz, 400.0);
  EXPECT_EQ(variant->name,
            "eyeriss[glb_kb=64,glb_bw=8,dram_bw=2.5,clock_mhz=400]");
  // No settings: the base itself.
  std::optional<Arch> same = variantOf("simba", {}, error);
  ASSERT_TRUE(same) << error;
  EXPECT_EQ(*same, *findPreset("simba"));
}

TEST(ArchVariants, RefusesWhatIsNotAnAccelerator) {
  std::string error;
  auto refused = [&](std::vector<ArchSetting> settings) {
    error.clear();
    EXPECT_FALSE(variantOf("eyeriss", settings, error));
    return error;
  };
  EXPECT_EQ(refused({{"pes", "8x8"}}),
            "unknown key 'pes' (known: pe glb_kb glb_bw dram_bw clock_mhz)");
  for (const char *bad : {"8", "8x", "x8", "0x8", "8x-1", "8.5x2", "axb",
                          "4096x4097", "9999999999x9999999999"})
    EXPECT_NE(refused({{"pe", bad}}).find("is not XxY"), std::string::npos)
        << bad;
  EXPECT_NE(refused({{"glb_kb", "0"}}).find("positive integer"),
            std::string::npos);
  EXPECT_NE(refused({{"glb_bw", "fast"}}).find("positive number"),
            std::string::npos);
  EXPECT_NE(refused({{"clock_mhz", "inf"}}).find("positive number"),
            std::string::npos);
  EXPECT_NE(refused({{"dram_bw", "-1"}}).find("positive number"),
            std::string::npos);
}

TEST(ArchVariants, AConstraintThatNoLongerFitsIsReported) {
  // A description that spreads K exactly 14 ways along the global buffer's
  // X fanout: an array 8 PEs wide cannot.
  Arch base = *findPreset("eyeriss");
  Constraint spreadK;
  spreadK.level = "GlobalBuffer";
  spreadK.spatialX = {FactorRule{DimName::K, FactorRule::Bound::Exact, 14}};
  base.constraints = {spreadK};
  std::string error;
  ASSERT_TRUE(optionalOr(archVariant(base, {{"pe", "14x4"}}), error)) << error;
  EXPECT_FALSE(optionalOr(archVariant(base, {{"pe", "8x12"}}), error));
  EXPECT_EQ(error.rfind("eyeriss[pe=8x12]: ", 0), 0u) << error;
}

} // namespace
