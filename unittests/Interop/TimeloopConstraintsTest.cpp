//===- TimeloopConstraintsTest.cpp - Timeloop's mapspace constraints ------===//

#include "ReferenceCases.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "gtest/gtest.h"

using namespace marlmap;
using marlmap::testing::referenceCases;

namespace {

std::string constraintsOf(const marlmap::testing::ReferenceCase &c) {
  const llvm::json::Object *inputs =
      c.json.getAsObject()->getObject("timeloop_inputs");
  const llvm::json::Object *mapper =
      inputs->getObject("mapper_inputs_for_reference");
  return mapper->getString("constraints_yaml")->str();
}

TEST(TimeloopConstraints, EveryReferenceMappingObeysItsCasesConstraints) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  unsigned constrained = 0;
  for (const auto &c : referenceCases()) {
    SCOPED_TRACE(c.name);
    marlmap::testing::ReadCase read = marlmap::testing::read(c);
    llvm::Error error = timeloop::readConstraints(
        constraintsOf(c), "constraints.yaml", read.arch);
    ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
    ASSERT_TRUE(checkArch(read.arch).empty())
        << checkArch(read.arch).front().message;
    constrained += !read.arch.constraints.empty();
    // Timeloop's mapper found these mappings inside those constraints.
    std::vector<std::string> issues =
        checkMappingShape(read.mapping, read.problem, read.arch);
    EXPECT_TRUE(issues.empty()) << issues.front();
    // And the space marlmap builds from them has room for mappings.
    std::string why;
    EXPECT_TRUE(valueOr(MapSpace::create(read.problem, read.arch, {}), why))
        << why;
  }
  EXPECT_EQ(constrained, referenceCases().size());
}

TEST(TimeloopConstraints, WrittenConstraintsMakeTheSameSpace) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  for (const auto &c : referenceCases()) {
    SCOPED_TRACE(c.name);
    marlmap::testing::ReadCase read = marlmap::testing::read(c);
    ASSERT_FALSE(bool(timeloop::readConstraints(
        constraintsOf(c), "constraints.yaml", read.arch)));
    llvm::Expected<std::string> written =
        timeloop::writeConstraints(read.arch, read.problem);
    ASSERT_TRUE(bool(written)) << llvm::toString(written.takeError());
    Arch again = llvm::cantFail(
        timeloop::readArch(timeloop::writeArch(read.arch), "arch.yaml"));
    llvm::Error error =
        timeloop::readConstraints(*written, "written.yaml", again);
    ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error)) << *written;
    Problem problem = llvm::cantFail(timeloop::readProblem(
        timeloop::writeProblem(read.problem), "problem.yaml"));
    std::string why;
    auto before = valueOr(MapSpace::create(read.problem, read.arch, {}), why);
    auto after = valueOr(MapSpace::create(problem, again, {}), why);
    ASSERT_TRUE(before && after) << why;
    ASSERT_EQ(before->parameters().size(), after->parameters().size());
    for (size_t i = 0; i < before->parameters().size(); ++i)
      EXPECT_EQ(before->parameters()[i].choices, after->parameters()[i].choices)
          << before->parameters()[i].name;
    // And the reference mapping still obeys them.
    std::vector<std::string> issues =
        checkMappingShape(llvm::cantFail(timeloop::readMapping(
                              c.mappingYaml, "map.yaml", problem, again)),
                          problem, again);
    EXPECT_TRUE(issues.empty()) << issues.front();
  }
}

TEST(TimeloopConstraints, ReadTimeloopsSemantics) {
  Arch arch = *timeloop::readArch(R"(
arch:
  arithmetic: {instances: 256, meshX: 16}
  storage:
  - {name: Reg, instances: 256, meshX: 16, entries: 4}
  - {name: Buffer, entries: 65536}
  - {name: DRAM, technology: DRAM}
mapspace:
  constraints:
  - {target: Reg, type: datatype, keep: [Weights], bypass: [Inputs, Outputs]}
  - {target: Reg, type: temporal, factors: "C1 K=1 R0 S<=2", permutation: "PQ N"}
  - target: Buffer
    constraints:
    - {type: spatial, attributes: {factors: R1 S1 P1 Q1 N1, permutation: K C RSPQN, split: 1}}
)",
                                  "arch.yaml");
  ASSERT_EQ(arch.constraints.size(), 2u);
  const Constraint &reg = arch.constraints[0], &buffer = arch.constraints[1];
  EXPECT_EQ(reg.str(),
            "\"Reg\", temporal = [C = 1, K = 1, R = full, S max 2], order = "
            "[N, Q, P], keep = [weights], bypass = [inputs, outputs]");
  // K along X, everything else along Y (R S P Q N at 1), one axis per dim.
  EXPECT_EQ(buffer.str(),
            "\"Buffer\", x_dims = [K], y_dims = [C, R, S, P, Q, N, G], "
            "spatial_y = [R = 1, S = 1, P = 1, Q = 1, N = 1], "
            "exclusive_axes = true");
}

std::string readError(const std::string &constraints) {
  llvm::Expected<Arch> arch = timeloop::readArch(
      "arch:\n"
      "  arithmetic: {instances: 256, meshX: 16}\n"
      "  storage:\n"
      "  - {name: Reg, instances: 256, meshX: 16, entries: 4}\n"
      "  - {name: Buffer, entries: 65536}\n"
      "  - {name: DRAM, technology: DRAM}\n" +
          constraints,
      "arch.yaml");
  return arch ? "" : llvm::toString(arch.takeError());
}

TEST(TimeloopConstraints, WhatMarlmapCannotRepresentIsAnErrorNamingIt) {
  EXPECT_EQ(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "temporal, factors: M4}]}"),
            "arch.yaml:7: dim 'M': marlmap reads constraints in the "
            "convolution's dim names N, K, C, P, Q, R, S (and G)");
  EXPECT_NE(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "temporal, factors: C>=2}]}")
                .find("smallest factors are not supported"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "spatial, no_link_transfer: [Weights]}]}")
                .find("'no_link_transfer' in a spatial constraint is not "
                      "supported by marlmap"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "utilization, min: 0.5}]}")
                .find("constraint type 'utilization' is not supported"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "temporal, permutation: PQ_KC}]}")
                .find("'_' in a permutation"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: MACs, type: "
                      "temporal, factors: K1}]}")
                .find("'MACs' is not a storage level"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: DRAM, type: "
                      "spatial, factors: K1}]}")
                .find("has no fanout below it"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: Buffer, type: "
                      "temporal, factors: K1}, {target: Buffer, type: "
                      "temporal, factors: K1}]}")
                .find("give a factor of K twice"),
            std::string::npos);
  EXPECT_NE(readError("mapspace: {constraints: [{target: Reg, type: "
                      "datatype, keep: [Psums]}]}")
                .find("data space 'Psums'"),
            std::string::npos);
}

TEST(TimeloopConstraints, ASeparateFileAddsToTheArchsOwn) {
  Arch arch = *timeloop::readArch(
      "arch:\n  arithmetic: {instances: 4, meshX: 2, meshY: 2}\n"
      "  storage:\n  - {name: Reg, instances: 4, meshX: 2, meshY: 2, "
      "entries: 4}\n  - {name: DRAM, technology: DRAM}\n",
      "arch.yaml");
  // DRAM fans out 2 x 2: a dim goes along X or Y there, as in Timeloop.
  ASSERT_EQ(arch.constraints.size(), 1u);
  EXPECT_TRUE(arch.constraints[0].exclusiveAxes);
  llvm::Error error = timeloop::readConstraints(
      "mapspace_constraints:\n- {target: DRAM, type: temporal, factors: N1}\n",
      "c.yaml", arch);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  ASSERT_EQ(arch.constraints.size(), 1u);
  EXPECT_EQ(arch.constraints[0].str(),
            "\"DRAM\", temporal = [N = 1], exclusive_axes = true");
}

TEST(TimeloopConstraints, WritingRefusesLettersThatAreNotTheDimsNames) {
  // A GEMM's M is its rows, which constraints call P.
  llvm::Expected<std::string> written =
      timeloop::writeConstraints(*findPreset("systolic-ws"), makeGemm(4, 4, 4));
  ASSERT_FALSE(bool(written));
  EXPECT_NE(llvm::toString(written.takeError())
                .find("loop M is written as 'M' but answers to P"),
            std::string::npos);
}

TEST(TimeloopConstraints, TargetsMergeWhateverTheirOrder) {
  // Factors before the split that says which axis they are on, and a
  // file's targets hold for every op kind of a preset's level.
  Arch arch = *findPreset("systolic-ws");
  llvm::Error error = timeloop::readConstraints(
      "mapspace_constraints:\n"
      "- {target: GlobalBuffer, type: spatial, factors: K<=8}\n"
      "- {target: WeightReg, type: temporal, factors: P1}\n",
      "c.yaml", arch);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  for (const Constraint &c : arch.constraints)
    if (c.level == "GlobalBuffer") {
      // Along X on the general constraint (K across); the depthwise one
      // lists no K along either axis, so the cap falls on Y there.
      std::string text = c.str();
      EXPECT_NE(text.find("K max 8"), std::string::npos) << text;
    }
  Arch bare = llvm::cantFail(timeloop::readArch(
      "arch:\n  arithmetic: {instances: 256, meshX: 16}\n  storage:\n"
      "  - {name: Reg, instances: 256, meshX: 16, entries: 4}\n"
      "  - {name: Buffer, entries: 65536}\n"
      "  - {name: DRAM, technology: DRAM}\n"
      "mapspace:\n  constraints:\n"
      "  - {target: Buffer, type: spatial, factors: K<=8}\n"
      "  - {target: Buffer, type: spatial, permutation: KC, split: 1}\n",
      "arch.yaml"));
  ASSERT_EQ(bare.constraints.size(), 1u);
  EXPECT_EQ(bare.constraints[0].str(),
            "\"Buffer\", x_dims = [K], y_dims = [C, N, P, Q, R, S, G], "
            "spatial_x = [K max 8], exclusive_axes = true");
}

TEST(TimeloopConstraints, ProblemDimsMustAnswerToTheirNames) {
  MARLMAP_REQUIRE_SHARED_REFERENCE();
  Problem conv = llvm::cantFail(
      timeloop::readProblem(referenceCases()[0].problemYaml, "problem.yaml"));
  EXPECT_EQ(llvm::toString(timeloop::checkDimNames(conv)), "");
  Problem renamed = conv;
  std::swap(renamed.dims[0].name, renamed.dims[1].name); // R <-> S
  EXPECT_NE(llvm::toString(timeloop::checkDimNames(renamed)).find("answers to"),
            std::string::npos);
}

} // namespace
