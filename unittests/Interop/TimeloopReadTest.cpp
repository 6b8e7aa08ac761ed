//===- TimeloopReadTest.cpp - Reading Timeloop's input files --------------===//

#include "ReferenceCases.h"
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
  if (referenceCases().empty())
    GTEST_SKIP() << "no cases in " << marlmap::testing::referenceFolder();
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

} // namespace
