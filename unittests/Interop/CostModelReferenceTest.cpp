//===- CostModelReferenceTest.cpp - The model against Timeloop ------------===//
//
// Every case of ../shared/reference/timeloop, read from the exact YAML that
// timeloop-model was given, evaluated by marlmap's model and compared with
// Timeloop's outputs: access counts exactly, cycles, energy and utilization
// to a millionth.
//
//===----------------------------------------------------------------------===//

#include "ReferenceCases.h"
#include "marlmap/Core/CostModel.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "gtest/gtest.h"

using namespace marlmap;
using marlmap::testing::referenceCases;

namespace {

double relative(double got, double want) {
  return want == 0 ? std::abs(got) : std::abs(got - want) / std::abs(want);
}

TEST(CostModelReference, EveryCaseFileLoads) {
  for (const std::string &problem :
       marlmap::testing::unreadableReferenceCases())
    ADD_FAILURE() << problem;
}

TEST(CostModelReference, ReproducesTimeloopOnEveryCase) {
  if (referenceCases().empty())
    GTEST_SKIP() << "no cases in " << marlmap::testing::referenceFolder();
  for (const auto &c : referenceCases()) {
    SCOPED_TRACE(c.name);
    auto [arch, problem, mapping] = marlmap::testing::read(c);
    CostModel model(problem, arch);
    Evaluation result = model.evaluate(mapping);
    ASSERT_TRUE(result.valid) << result.describeInvalid(arch);

    const llvm::json::Object &expected =
        *c.json.getAsObject()->getObject("expected");
    EXPECT_EQ(result.cycles, *expected.getInteger("cycles"));
    EXPECT_EQ(result.computeCycles, *expected.getInteger("compute_cycles"));
    EXPECT_EQ(result.macs, *expected.getInteger("macs"));
    EXPECT_EQ(result.macInstancesUsed,
              *expected.getInteger("mac_instances_used"));
    EXPECT_LT(relative(result.energy, *expected.getNumber("energy_pJ")), 1e-6);
    EXPECT_LT(relative(result.utilization, *expected.getNumber("utilization")),
              1e-6);

    const llvm::json::Object &perLevel = *expected.getObject("per_level");
    for (unsigned l = 0; l < arch.levels.size(); ++l) {
      const llvm::json::Object &level =
          *perLevel.getObject(arch.levels[l].name);
      EXPECT_EQ(result.levels[l].cycles, *level.getInteger("cycles"))
          << arch.levels[l].name;
      EXPECT_LT(relative(result.levels[l].slowdown,
                         *level.getNumber("bandwidth_slowdown")),
                1e-6)
          << arch.levels[l].name;
      for (unsigned o = 0; o < problem.operands.size(); ++o) {
        const OperandStats &stats = result.at(l, o);
        const llvm::json::Object *want =
            level.getObject(problem.operands[o].name);
        SCOPED_TRACE(arch.levels[l].name + " " + problem.operands[o].name);
        ASSERT_EQ(stats.kept, want != nullptr);
        if (!want)
          continue;
        EXPECT_EQ(stats.totalReads(), *want->getInteger("reads"));
        EXPECT_EQ(stats.totalFills(), *want->getInteger("fills"));
        EXPECT_EQ(stats.totalUpdates(), *want->getInteger("updates"));
        EXPECT_EQ(stats.utilizedCapacity,
                  *want->getInteger("utilized_capacity"));
        // For read-only operands Timeloop reports the distinct words of a
        // strided walk, which no count depends on; marlmap keeps the range
        // (docs/CostModel.md). Written operands' counts depend on it.
        if (problem.operands[o].isWritten()) {
          EXPECT_EQ(stats.partitionSize, *want->getInteger("partition_size"));
        }
        EXPECT_EQ(stats.instances, *want->getInteger("instances_used"));
        EXPECT_LT(relative(stats.energy, *want->getNumber("energy_pJ")), 1e-9);
      }
    }
  }
}

} // namespace
