//===- TimeloopReadTest.cpp - Reading Timeloop's input files --------------===//

#include "ReferenceCases.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Interop/TimeloopEnergy.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace marlmap;
using marlmap::testing::referenceCases;

namespace {

TEST(TimeloopEnergy, MatchesPatOnTheReferenceLevels) {
  // Per-word energies Timeloop printed for the reference architectures.
  EXPECT_DOUBLE_EQ(timeloop::vectorAccessEnergy(false, 16, 16, 1),
                   0.9764447236180904);
  EXPECT_NEAR(timeloop::vectorAccessEnergy(false, 65536, 16, 4) / 4,
              7.407035175879397, 1e-12);
  EXPECT_NEAR(timeloop::vectorAccessEnergy(false, 32768, 16, 16) / 16,
              4.190954773869347, 1e-12);
  EXPECT_DOUBLE_EQ(timeloop::vectorAccessEnergy(true, 0, 16, 4), 800.0);
  EXPECT_DOUBLE_EQ(timeloop::vectorAccessEnergy(false, 0, 16, 1), 0.0);
  EXPECT_DOUBLE_EQ(timeloop::macEnergy(16), 1.0);
  EXPECT_DOUBLE_EQ(timeloop::macEnergy(8), 0.25);
}

TEST(TimeloopRead, ReadsEveryReferenceCase) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  for (const auto &c : referenceCases()) {
    SCOPED_TRACE(c.name);
    llvm::Expected<Arch> arch = timeloop::readArch(c.archYaml, "arch.yaml");
    llvm::Expected<Problem> problem =
        timeloop::readProblem(c.problemYaml, "problem.yaml");
    ASSERT_TRUE(bool(arch)) << llvm::toString(arch.takeError());
    ASSERT_TRUE(bool(problem)) << llvm::toString(problem.takeError());
    llvm::Expected<Mapping> mapping =
        timeloop::readMapping(c.mappingYaml, "map.yaml", *problem, *arch);
    ASSERT_TRUE(bool(mapping)) << llvm::toString(mapping.takeError());
    for (const std::string &issue :
         checkMappingShape(*mapping, *problem, *arch))
      ADD_FAILURE() << issue;

    const llvm::json::Object &json = *c.json.getAsObject();
    const llvm::json::Object &spaces =
        *json.getObject("problem")->getObject("dataspaces");
    for (unsigned o = 0; o < problem->operands.size(); ++o)
      EXPECT_EQ(problem->footprint(o),
                *spaces.getObject(problem->operands[o].name)
                     ->getInteger("size_words"))
          << problem->operands[o].name;

    const llvm::json::Array &levels =
        *json.getObject("arch")->getArray("storage_levels_inner_to_outer");
    ASSERT_EQ(levels.size(), arch->levels.size());
    for (unsigned i = 0; i < levels.size(); ++i) {
      const llvm::json::Object &ref = *levels[i].getAsObject();
      const StorageLevel &level = arch->levels[i];
      EXPECT_EQ(level.name, *ref.getString("name"));
      EXPECT_EQ(level.instances, *ref.getInteger("instances"));
      EXPECT_EQ(level.meshX, *ref.getInteger("mesh_x"));
      EXPECT_EQ(level.meshY, *ref.getInteger("mesh_y"));
      EXPECT_EQ(level.entries, ref.getInteger("entries"));
      // Timeloop reports energy per scalar access after rounding counts up
      // to whole vectors, a hair above the per-word energy.
      for (const auto &entry : *ref.getObject("energy_per_access_pJ"))
        EXPECT_NEAR(level.readEnergy, *entry.second.getAsNumber(),
                    1e-4 * level.readEnergy)
            << level.name;
    }
  }
}

TEST(TimeloopRead, ErrorsNameTheFileAndLine) {
  llvm::Expected<Arch> arch = timeloop::readArch(
      "arch:\n  arithmetic:\n    instances: 4\n  storage:\n  - name: RF\n"
      "    word-bits: sixteen\n",
      "mine.yaml");
  ASSERT_FALSE(bool(arch));
  EXPECT_EQ(llvm::toString(arch.takeError()),
            "mine.yaml:6: 'arch.storage[0] 'RF'.word-bits' must be an "
            "integer, got 'sixteen'");

  llvm::Expected<Problem> problem =
      timeloop::readProblem("problem:\n  shape: {}\n", "p.yaml");
  ASSERT_FALSE(bool(problem));
  EXPECT_NE(llvm::toString(problem.takeError()).find("p.yaml:"),
            std::string::npos);
}

TEST(TimeloopWrite, EveryReferenceCaseReadsBackTheSame) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  for (const auto &c : referenceCases()) {
    SCOPED_TRACE(c.name);
    auto [arch, problem, mapping] = marlmap::testing::read(c);

    llvm::Expected<Arch> arch2 =
        timeloop::readArch(timeloop::writeArch(arch), "arch2.yaml");
    ASSERT_TRUE(bool(arch2)) << llvm::toString(arch2.takeError());
    arch2->name = arch.name;
    for (unsigned l = 0; l < arch.levels.size(); ++l) {
      EXPECT_NEAR(arch2->levels[l].readEnergy, arch.levels[l].readEnergy,
                  1e-12 * arch.levels[l].readEnergy);
      arch2->levels[l].readEnergy = arch2->levels[l].writeEnergy =
          arch2->levels[l].updateEnergy = arch.levels[l].readEnergy;
    }
    EXPECT_TRUE(*arch2 == arch);

    llvm::Expected<Problem> problem2 =
        timeloop::readProblem(timeloop::writeProblem(problem), "p2.yaml");
    ASSERT_TRUE(bool(problem2)) << llvm::toString(problem2.takeError());
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      EXPECT_EQ(problem2->footprint(o), problem.footprint(o));
    EXPECT_EQ(problem2->iterations(), problem.iterations());

    llvm::Expected<std::string> mappingText =
        timeloop::writeMapping(mapping, problem, arch);
    ASSERT_TRUE(bool(mappingText)) << llvm::toString(mappingText.takeError());
    llvm::Expected<Mapping> mapping2 =
        timeloop::readMapping(*mappingText, "m2.yaml", *problem2, *arch2);
    ASSERT_TRUE(bool(mapping2)) << llvm::toString(mapping2.takeError());
    EXPECT_TRUE(*mapping2 == mapping);
  }
}

TEST(TimeloopWrite, PartialTilesAreWrittenAsResiduals) {
  // M = 7 in DRAM's 4 tiles of 2: the register file's loop runs once in
  // the last one, Timeloop's `M2,1`.
  Problem p = makeGemm(7, 8, 32);
  Arch arch = *findPreset("edge");
  Mapping m = Mapping::outermostOnly(p, arch);
  m.levels[0].temporal = {2, 1, 1};
  m.levels[2].temporal = {4, 8, 32};
  ASSERT_TRUE(checkMappingShape(m, p, arch).empty());
  llvm::Expected<std::string> text = timeloop::writeMapping(m, p, arch);
  ASSERT_TRUE(bool(text)) << llvm::toString(text.takeError());
  EXPECT_NE(text->find("factors: M2,1 N1 K1"), std::string::npos) << *text;
  EXPECT_NE(text->find("factors: M4 N8 K32"), std::string::npos) << *text;
  llvm::Expected<Mapping> back =
      timeloop::readMapping(*text, "m.yaml", p, arch);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(*back == m);

  // Over four columns of 2 instead, the residual is the register file's.
  m.levels[2].temporal = {1, 8, 32};
  m.levels[1].spatialX = {4, 1, 1};
  text = timeloop::writeMapping(m, p, arch);
  ASSERT_TRUE(bool(text)) << llvm::toString(text.takeError());
  EXPECT_NE(text->find("factors: M2,1 N1 K1"), std::string::npos) << *text;
  EXPECT_NE(text->find("type: spatial\n    factors: M4 N1 K1"),
            std::string::npos)
      << *text;
  back = timeloop::readMapping(*text, "m.yaml", p, arch);
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_TRUE(*back == m);
}

TEST(TimeloopRead, ResidualsMustReachTheBoundExactly) {
  Problem p = makeGemm(7, 8, 32);
  Arch arch = *findPreset("edge");
  auto read = [&](const std::string &registerFactors) {
    std::string text = "mapping:\n"
                       "  - target: RegFile\n    type: temporal\n"
                       "    factors: " +
                       registerFactors +
                       "\n  - target: DRAM\n    type: temporal\n"
                       "    factors: M4 N8 K32\n";
    return timeloop::readMapping(text, "m.yaml", p, arch);
  };
  llvm::Expected<Mapping> good = read("M2,1 N1 K1");
  ASSERT_TRUE(bool(good)) << llvm::toString(good.takeError());
  EXPECT_EQ(good->levels[0].temporal[0], 2);
  // Without the residual the tiles reach 8, which Timeloop refuses.
  for (const char *factors : {"M2 N1 K1", "M2,2 N1 K1"}) {
    llvm::Expected<Mapping> bad = read(factors);
    ASSERT_FALSE(bool(bad)) << factors;
    EXPECT_NE(llvm::toString(bad.takeError())
                  .find("the factors and residuals of M reach 8 points, but "
                        "its bound is 7 (Timeloop needs it exactly)"),
              std::string::npos)
        << factors;
  }
  llvm::Expected<Mapping> zero = read("M2,0 N1 K1");
  ASSERT_FALSE(bool(zero));
  EXPECT_NE(llvm::toString(zero.takeError())
                .find("the residual of 'M2,0' must be between 1 and its "
                      "factor"),
            std::string::npos);
}

TEST(TimeloopWrite, RenamesLongDimNamesAndRefusesXYSplits) {
  // Loops named as an extracted linalg.matmul names them.
  Problem p = makeGemm(4, 2, 8);
  for (unsigned d = 0; d < 3; ++d)
    p.dims[d].name = "d" + std::to_string(d);
  std::string text = timeloop::writeProblem(p);
  EXPECT_NE(text.find("dimensions: [A, B, C]"), std::string::npos) << text;
  llvm::Expected<Problem> back = timeloop::readProblem(text, "p.yaml");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->dims[2].kind, LoopKind::Reduction);

  Arch arch;
  arch.name = "a";
  arch.compute.instances = 4;
  arch.compute.meshX = arch.compute.meshY = 2;
  StorageLevel dram;
  dram.name = "DRAM";
  dram.holds = RoleSet::all();
  arch.levels = {dram};
  Mapping m = Mapping::outermostOnly(p, arch);
  m.levels[0].temporal = {1, 2, 8};
  m.levels[0].spatialX = {2, 1, 1};
  m.levels[0].spatialY = {2, 1, 1};
  llvm::Expected<std::string> mapping = timeloop::writeMapping(m, p, arch);
  ASSERT_FALSE(bool(mapping));
  EXPECT_EQ(llvm::toString(mapping.takeError()),
            "level 'DRAM' spreads d0 over both X and Y, which Timeloop cannot "
            "express");
}

} // namespace
