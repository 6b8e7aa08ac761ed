//===- ArchTest.cpp - Checks of accelerator descriptions ------------------===//

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/ArchReport.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace marlmap;

namespace {

StorageLevel makeLevel(std::string name, int64_t meshX, int64_t meshY,
                       RoleSet holds, std::optional<int64_t> entries = 64) {
  StorageLevel level;
  level.name = std::move(name);
  level.entries = entries;
  level.meshX = meshX;
  level.meshY = meshY;
  level.instances = meshX * meshY;
  level.readEnergy = level.writeEnergy = level.updateEnergy = 1.0;
  level.holds = holds;
  return level;
}

RoleSet only(TensorRole role) {
  RoleSet set;
  set.insert(role);
  return set;
}

/// 4x4 MACs, per-PE register files, one DRAM.
Arch smallArch() {
  Arch arch;
  arch.name = "small";
  arch.compute.instances = 16;
  arch.compute.meshX = 4;
  arch.compute.meshY = 4;
  arch.compute.energyPerMac = 1.0;
  arch.levels = {makeLevel("RF", 4, 4, RoleSet::all()),
                 makeLevel("DRAM", 1, 1, RoleSet::all(), std::nullopt)};
  return arch;
}

/// The fields of all issues, to assert on without depending on wording.
std::vector<std::string> fields(const std::vector<ArchIssue> &issues) {
  std::vector<std::string> out;
  for (const ArchIssue &issue : issues)
    out.push_back(issue.field);
  return out;
}

bool hasIssue(const std::vector<ArchIssue> &issues, ArchIssue::Where where,
              const std::string &field) {
  return std::any_of(issues.begin(), issues.end(), [&](const ArchIssue &i) {
    return i.where == where && i.field == field;
  });
}

TEST(RoleSet, ListsRolesInOrder) {
  RoleSet set;
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(set.str(), "nothing");
  set.insert(TensorRole::Outputs);
  set.insert(TensorRole::Inputs);
  EXPECT_TRUE(set.contains(TensorRole::Inputs));
  EXPECT_FALSE(set.contains(TensorRole::Weights));
  EXPECT_EQ(set.str(), "inputs, outputs");
  EXPECT_EQ(RoleSet::all().str(), "inputs, weights, outputs");
}

TEST(DeriveMesh, FollowsTimeloopDefaults) {
  int64_t x = 0, y = 0;
  ASSERT_TRUE(deriveMesh(168, std::nullopt, std::nullopt, x, y));
  EXPECT_EQ(x, 168);
  EXPECT_EQ(y, 1);
  ASSERT_TRUE(deriveMesh(168, 14, std::nullopt, x, y));
  EXPECT_EQ(x, 14);
  EXPECT_EQ(y, 12);
  ASSERT_TRUE(deriveMesh(168, std::nullopt, 12, x, y));
  EXPECT_EQ(x, 14);
  EXPECT_EQ(y, 12);
  ASSERT_TRUE(deriveMesh(256, 16, 16, x, y));
  EXPECT_FALSE(deriveMesh(168, 5, std::nullopt, x, y));
  EXPECT_FALSE(deriveMesh(168, 14, 14, x, y));
  EXPECT_FALSE(deriveMesh(0, std::nullopt, std::nullopt, x, y));
  EXPECT_FALSE(deriveMesh(16, -4, std::nullopt, x, y));
}

TEST(Arch, ValidDescriptionHasNoIssues) {
  EXPECT_TRUE(checkArch(smallArch()).empty());
}

TEST(Arch, FanoutIsTheRatioOfMeshes) {
  Arch arch = smallArch();
  EXPECT_EQ(arch.fanoutX(0), 1);
  EXPECT_EQ(arch.fanoutY(0), 1);
  EXPECT_EQ(arch.fanoutX(1), 4);
  EXPECT_EQ(arch.fanoutY(1), 4);
  EXPECT_EQ(arch.fanout(1), 16);
  EXPECT_EQ(arch.levelIndex("DRAM"), 1u);
  EXPECT_FALSE(arch.levelIndex("GLB").has_value());
}

TEST(Arch, RejectsNonPositiveSizes) {
  StorageLevel level = makeLevel("RF", 1, 1, RoleSet::all(), 0);
  level.wordBits = 0;
  level.blockSize = -2;
  level.readBandwidth = 0.0;
  auto issues = checkStorageLevel(level, 3);
  std::vector<std::string> expected = {"entries", "word_bits", "block_size",
                                       "read_bandwidth"};
  EXPECT_EQ(fields(issues), expected);
  for (const ArchIssue &issue : issues) {
    EXPECT_EQ(issue.where, ArchIssue::Where::Level);
    EXPECT_EQ(issue.level, 3u);
  }
}

TEST(Arch, ZeroEntriesOnlyForALevelThatHoldsNothing) {
  EXPECT_TRUE(
      checkStorageLevel(makeLevel("Dummy", 1, 1, RoleSet(), 0), 0).empty());
  EXPECT_FALSE(
      checkStorageLevel(makeLevel("RF", 1, 1, RoleSet::all(), 0), 0).empty());
}

TEST(Arch, RejectsNegativeEnergiesAndThinBuffering) {
  StorageLevel level = makeLevel("RF", 1, 1, RoleSet::all());
  level.updateEnergy = -0.5;
  level.multipleBuffering = 0.5;
  std::vector<std::string> expected = {"update_energy", "multiple_buffering"};
  EXPECT_EQ(fields(checkStorageLevel(level, 0)), expected);
}

TEST(Arch, RejectsAMeshThatDoesNotHoldTheInstances) {
  StorageLevel level = makeLevel("RF", 4, 4, RoleSet::all());
  level.instances = 15;
  EXPECT_TRUE(
      hasIssue(checkStorageLevel(level, 0), ArchIssue::Where::Level, "mesh_x"));
}

TEST(Arch, RejectsAFanoutThatIsNotWhole) {
  Arch arch = smallArch();
  arch.levels.insert(arch.levels.begin() + 1,
                     makeLevel("Row", 3, 1, RoleSet::all()));
  auto issues = checkArchStructure(arch);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].where, ArchIssue::Where::Level);
  EXPECT_EQ(issues[0].level, 1u);
  EXPECT_EQ(issues[0].field, "mesh_x");
}

TEST(Arch, OutermostLevelMustBackEveryTensor) {
  Arch arch = smallArch();
  arch.levels.back().holds = only(TensorRole::Weights);
  auto issues = checkArchStructure(arch);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].level, 1u);
  EXPECT_EQ(issues[0].field, "holds");
}

TEST(Arch, InnermostLevelMustFeedTheMacs) {
  Arch arch = smallArch();
  arch.compute.instances = 8;
  arch.compute.meshX = 8;
  arch.compute.meshY = 1;
  EXPECT_TRUE(hasIssue(checkArchStructure(arch), ArchIssue::Where::Compute,
                       "instances"));

  arch = smallArch();
  arch.compute.wordBits = 32;
  EXPECT_TRUE(hasIssue(checkArchStructure(arch), ArchIssue::Where::Compute,
                       "word_bits"));
}

TEST(Arch, RejectsDuplicateNamesAndMissingLevels) {
  Arch arch = smallArch();
  arch.levels[1].name = "RF";
  EXPECT_TRUE(
      hasIssue(checkArchStructure(arch), ArchIssue::Where::Level, "name"));
  arch.levels.clear();
  EXPECT_TRUE(
      hasIssue(checkArchStructure(arch), ArchIssue::Where::Arch, "levels"));
}

TEST(Arch, RejectsBadComputeArrayAndClock) {
  Arch arch = smallArch();
  arch.clockMHz = 0.0;
  arch.compute.macsPerCycle = 0;
  arch.compute.energyPerMac = -1.0;
  auto issues = checkArch(arch);
  EXPECT_TRUE(hasIssue(issues, ArchIssue::Where::Arch, "clock_mhz"));
  EXPECT_TRUE(hasIssue(issues, ArchIssue::Where::Compute, "macs_per_cycle"));
  EXPECT_TRUE(hasIssue(issues, ArchIssue::Where::Compute, "energy_per_mac"));
}

TEST(ArchReport, ListsLevelsOutermostFirst) {
  std::string text = formatArch(smallArch());
  size_t dram = text.find("DRAM"), rf = text.find("RF ");
  ASSERT_NE(dram, std::string::npos);
  ASSERT_NE(rf, std::string::npos);
  EXPECT_LT(dram, rf);
  EXPECT_NE(text.find("16 MACs (4x4)"), std::string::npos);
}

TEST(ArchReport, LongNamesWidenTheTableInsteadOfBreakingIt) {
  Arch arch = smallArch();
  arch.levels[0].name = std::string(300, 'r');
  std::string text = formatArch(arch);
  size_t row = text.find(arch.levels[0].name);
  ASSERT_NE(row, std::string::npos);
  size_t end = text.find('\n', row);
  ASSERT_NE(end, std::string::npos);
  EXPECT_NE(text.substr(row, end - row).find("inputs, weights, outputs"),
            std::string::npos);
}

} // namespace
