//===- PresetsTest.cpp - The named accelerators ---------------------------===//

#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

TEST(Presets, AreFoundByName) {
  std::vector<std::string> expected = {"eyeriss",     "eyeriss-rs",  "simba",
                                       "systolic-ws", "systolic-os", "edge"};
  EXPECT_EQ(presetNames(), expected);
  for (const std::string &name : presetNames()) {
    std::optional<Arch> arch = findPreset(name);
    ASSERT_TRUE(arch.has_value()) << name;
    EXPECT_EQ(arch->name, name);
  }
  EXPECT_FALSE(findPreset("tpu-v9").has_value());
  EXPECT_TRUE(findPreset(kDefaultPreset).has_value());
}

TEST(Presets, AreValid) {
  for (const std::string &name : presetNames()) {
    std::vector<ArchIssue> issues = checkArch(*findPreset(name));
    for (const ArchIssue &issue : issues)
      ADD_FAILURE() << name << ": " << issue.message;
  }
}

TEST(Presets, EyerissHasItsPublishedShape) {
  Arch arch = *findPreset("eyeriss");
  EXPECT_EQ(arch.compute.instances, 168);
  EXPECT_EQ(arch.compute.meshX, 14);
  EXPECT_EQ(arch.compute.meshY, 12);
  unsigned glb = *arch.levelIndex("GlobalBuffer");
  // 64Ki 16-bit words: the 128 KB global buffer.
  EXPECT_EQ(*arch.levels[glb].entries * arch.levels[glb].wordBits / 8,
            128 * 1024);
  EXPECT_FALSE(arch.levels[glb].holds.contains(TensorRole::Weights));
  EXPECT_EQ(arch.fanoutX(glb), 14);
  EXPECT_EQ(arch.fanoutY(glb), 12);
  EXPECT_FALSE(arch.levels.back().entries.has_value());
}

TEST(Presets, SystolicArraysKeepTheirStationaryOperandInThePE) {
  Arch ws = *findPreset("systolic-ws");
  Arch os = *findPreset("systolic-os");
  EXPECT_EQ(ws.compute.instances, 256);
  EXPECT_EQ(os.compute.instances, 256);
  EXPECT_TRUE(ws.levels[0].holds.contains(TensorRole::Weights));
  EXPECT_FALSE(ws.levels[0].holds.contains(TensorRole::Outputs));
  EXPECT_TRUE(os.levels[0].holds.contains(TensorRole::Outputs));
  EXPECT_FALSE(os.levels[0].holds.contains(TensorRole::Weights));
}

TEST(Presets, SimbaFansOutOverThreeLevels) {
  Arch arch = *findPreset("simba");
  EXPECT_EQ(arch.compute.instances, 256);
  int64_t total = 1;
  for (unsigned i = 0; i < arch.levels.size(); ++i)
    total *= arch.fanout(i);
  EXPECT_EQ(total, 256);
}

} // namespace
