//===- CostModelReferenceTest.cpp - The model against Timeloop ------------===//
//
// Timeloop's cases, read from the exact YAML that timeloop-model was given,
// evaluated by marlmap's model and compared with Timeloop's outputs: access
// counts exactly, cycles, energy and utilization to a millionth. The cases
// bundled with the tests always run; the shared reference's when present.
//
//===----------------------------------------------------------------------===//

#include "ReferenceCases.h"
#include "marlmap/Core/CostModel.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "gtest/gtest.h"

using namespace marlmap;
using namespace marlmap::testing;

namespace {

double relative(double got, double want) {
  return want == 0 ? std::abs(got) : std::abs(got - want) / std::abs(want);
}

/// `c`'s figures from marlmap's model against what Timeloop printed.
void expectTimeloopsFigures(const ReferenceCase &c) {
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
    const llvm::json::Object &level = *perLevel.getObject(arch.levels[l].name);
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
      EXPECT_EQ(stats.utilizedCapacity, *want->getInteger("utilized_capacity"));
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

TEST(CostModelReference, BundledCasesMatchTimeloop) {
  const CaseFolder &bundled = bundledCases();
  for (const std::string &problem : bundled.unreadable)
    ADD_FAILURE() << problem;
  ASSERT_GE(bundled.cases.size(), 6u) << bundled.path;
  for (const ReferenceCase &c : bundled.cases)
    expectTimeloopsFigures(c);
}

TEST(CostModelReference, EveryCaseFileLoads) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  for (const std::string &problem : sharedReference().unreadable)
    ADD_FAILURE() << problem;
}

TEST(CostModelReference, ReproducesTimeloopOnEveryCase) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  for (const ReferenceCase &c : referenceCases())
    expectTimeloopsFigures(c);
}

} // namespace
