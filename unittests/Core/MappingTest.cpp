//===- MappingTest.cpp - Mappings and their shape checks ------------------===//

#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// C[M, N] += A[M, K] * B[K, N] with M = 16, N = 8, K = 32.
Problem matmul() { return makeGemm(16, 8, 32); }

bool mentions(const std::vector<std::string> &issues, const std::string &text) {
  for (const std::string &issue : issues)
    if (issue.find(text) != std::string::npos)
      return true;
  return false;
}

TEST(Mapping, OutermostOnlyFitsEveryPresetsHierarchy) {
  for (const std::string &name : presetNames()) {
    Arch arch = *findPreset(name);
    arch.constraints.clear(); // a dataflow may rule it out
    Mapping mapping = Mapping::outermostOnly(matmul(), arch);
    EXPECT_TRUE(checkMappingShape(mapping, matmul(), arch).empty()) << name;
    EXPECT_EQ(mapping.levels.back().temporal, matmul().bounds());
  }
}

TEST(Mapping, SpatialFactorsCountAgainstTheFanout) {
  Arch arch = *findPreset("edge"); // GlobalBuffer fans out 8 x 8
  Mapping mapping = Mapping::outermostOnly(matmul(), arch);
  mapping.levels[1].spatialX = {8, 1, 1};
  mapping.levels[1].spatialY = {1, 8, 1};
  mapping.levels[2].temporal = {2, 1, 32};
  EXPECT_TRUE(checkMappingShape(mapping, matmul(), arch).empty());
  EXPECT_EQ(mapping.levels[1].spreadX(), 8);

  mapping.levels[1].spatialX = {16, 1, 1};
  mapping.levels[2].temporal = {1, 1, 32};
  EXPECT_TRUE(mentions(checkMappingShape(mapping, matmul(), arch),
                       "spreads 16 ways along X but its fanout along X is 8"));
}

TEST(Mapping, FactorsMustCoverTheBounds) {
  Arch arch = *findPreset("edge");
  Mapping mapping = Mapping::outermostOnly(matmul(), arch);
  mapping.levels[2].temporal[2] = 16;
  EXPECT_TRUE(mentions(checkMappingShape(mapping, matmul(), arch),
                       "the factors of loop K multiply to 16 but its bound "
                       "is 32: its tiles must cover it"));
}

TEST(Mapping, TilesNeedNotDivideTheirLoop) {
  // M = 7 in tiles of 2: the last of DRAM's 4 tiles holds one row.
  Problem gemm = makeGemm(7, 8, 32);
  Arch arch = *findPreset("edge");
  Mapping mapping = Mapping::outermostOnly(gemm, arch);
  mapping.levels[0].temporal[0] = 2;
  mapping.levels[2].temporal[0] = 4;
  EXPECT_TRUE(checkMappingShape(mapping, gemm, arch).empty());
  EXPECT_TRUE(hasImperfectFactors(mapping, gemm));
  EXPECT_FALSE(hasImperfectFactors(Mapping::outermostOnly(gemm, arch), gemm));

  // Spread over 4 columns in tiles of 2, 7 needs one tile per column.
  mapping.levels[2].temporal[0] = 1;
  mapping.levels[1].spatialX[0] = 4;
  EXPECT_TRUE(checkMappingShape(mapping, gemm, arch).empty());
}

TEST(Mapping, NoLoopRunsPastWhatItsTileNeeds) {
  Problem gemm = makeGemm(7, 8, 32);
  Arch arch = *findPreset("edge");
  Mapping mapping = Mapping::outermostOnly(gemm, arch);
  mapping.levels[0].temporal[0] = 2;
  mapping.levels[2].temporal[0] = 8;
  EXPECT_TRUE(mentions(checkMappingShape(mapping, gemm, arch),
                       "loop M: the temporal factor 8 at level 'DRAM' "
                       "splits its 7 into tiles of 2, which 4 cover"));

  // Eight columns for seven rows: one would never work.
  mapping.levels[2].temporal[0] = 1;
  mapping.levels[0].temporal[0] = 1;
  mapping.levels[1].spatialX[0] = 8;
  EXPECT_TRUE(mentions(checkMappingShape(mapping, gemm, arch),
                       "loop M: the spatial_x factor 8 at level "
                       "'GlobalBuffer' splits its 7 into tiles of 1, which 7 "
                       "cover"));
}

TEST(Mapping, KeepsFollowWhatLevelsMayHold) {
  Arch arch = *findPreset("eyeriss");
  Mapping mapping = Mapping::outermostOnly(matmul(), arch);
  unsigned glb = *arch.levelIndex("GlobalBuffer");
  EXPECT_FALSE(mapping.levels[glb].keep[1]); // Eyeriss's buffer skips weights
  mapping.levels[glb].keep[1] = true;
  mapping.levels.back().keep[0] = false;
  std::vector<std::string> issues = checkMappingShape(mapping, matmul(), arch);
  EXPECT_TRUE(mentions(issues, "keeps Weights (weights) but holds only"));
  EXPECT_TRUE(mentions(issues, "must keep every operand, but not Inputs"));
}

TEST(Mapping, RejectsBadPermutationsAndSizes) {
  Arch arch = *findPreset("edge");
  Mapping mapping = Mapping::outermostOnly(matmul(), arch);
  mapping.levels[0].order = {0, 0, 2};
  EXPECT_TRUE(mentions(checkMappingShape(mapping, matmul(), arch),
                       "not a permutation"));
  mapping = Mapping::outermostOnly(matmul(), arch);
  mapping.levels.pop_back();
  EXPECT_TRUE(mentions(checkMappingShape(mapping, matmul(), arch),
                       "the mapping has 2 levels but the target 'edge' has 3"));
  mapping = Mapping::outermostOnly(matmul(), arch);
  mapping.levels[1].keep.pop_back();
  EXPECT_TRUE(mentions(checkMappingShape(mapping, matmul(), arch),
                       "one entry per loop and operand"));
}

} // namespace
