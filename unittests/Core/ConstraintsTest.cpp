//===- ConstraintsTest.cpp - Dataflow constraints and their map spaces ----===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/DimNames.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/LoopConstraints.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

#include <set>

using namespace marlmap;

namespace {

std::string spell(const std::vector<std::optional<DimName>> &names) {
  std::string out;
  for (const std::optional<DimName> &name : names)
    out += name ? dimNameSpelling(*name) : "-";
  return out;
}

Problem conv3x3() {
  ConvShape shape;
  shape.k = 64, shape.c = 32, shape.p = 28, shape.q = 28, shape.r = 3,
  shape.s = 3;
  return makeConv(shape);
}

Problem depthwise() {
  ConvShape shape;
  shape.c = 48, shape.p = 14, shape.q = 14, shape.r = 3, shape.s = 3;
  shape.depthwise = true;
  return makeConv(shape);
}

Problem stem() {
  ConvShape shape;
  shape.k = 64, shape.c = 3, shape.p = 112, shape.q = 112, shape.r = 7,
  shape.s = 7, shape.strideW = shape.strideH = 2;
  return makeConv(shape);
}

/// out[b, m, n] += a[b, m, k] * w[b, k, n]
Problem batchMatmul() {
  Problem p;
  p.name = "batch_matmul";
  for (const char *name : {"b", "m", "n", "k"})
    p.dims.push_back({name, 4, LoopKind::Parallel});
  p.dims[3].kind = LoopKind::Reduction;
  auto axis = [](unsigned dim) { return Coordinate{{{dim, 1}}, 0}; };
  p.operands = {
      {"a", TensorRole::Inputs, Access::Read, {axis(0), axis(1), axis(3)}},
      {"w", TensorRole::Weights, Access::Read, {axis(0), axis(3), axis(2)}},
      {"out",
       TensorRole::Outputs,
       Access::ReadModifyWrite,
       {axis(0), axis(1), axis(2)}}};
  return p;
}

TEST(DimNames, ConvolutionsAnswerToTimeloopsNames) {
  // makeConv's loops are named as Timeloop names them: R S P Q C K N.
  Problem conv = conv3x3();
  std::string expected;
  for (const LoopDim &dim : conv.dims)
    expected += dim.name;
  EXPECT_EQ(spell(nameDims(conv)), expected);
  EXPECT_EQ(opKindOf(nameDims(conv), conv), OpKind::Conv);

  Problem dw = depthwise();
  expected.clear();
  for (const LoopDim &dim : dw.dims)
    expected += dim.name;
  EXPECT_EQ(spell(nameDims(dw)), expected);
  EXPECT_EQ(opKindOf(nameDims(dw), dw), OpKind::Depthwise);
}

TEST(DimNames, AGemmIsAOneByOneConvolution) {
  // C[M, N] += A[M, K] * B[K, N]: rows P, output features K, reduction C.
  Problem gemm = makeGemm(8, 4, 2);
  EXPECT_EQ(spell(nameDims(gemm)), "PKC");
  EXPECT_EQ(opKindOf(nameDims(gemm), gemm), OpKind::Gemm);
  // A batch every tensor reads, beside a reduction, is a group.
  Problem batched = batchMatmul();
  EXPECT_EQ(spell(nameDims(batched)), "GPKC");
  EXPECT_EQ(opKindOf(nameDims(batched), batched), OpKind::Gemm);
}

Constraint at(const std::string &level) {
  Constraint c;
  c.level = level;
  return c;
}

bool mentions(const std::vector<ArchIssue> &issues, const std::string &text) {
  for (const ArchIssue &issue : issues)
    if (issue.message.find(text) != std::string::npos)
      return true;
  return false;
}

TEST(Constraints, ThatContradictTheHierarchyAreReported) {
  Arch arch = *findPreset("systolic-ws");
  arch.constraints.clear();
  Constraint missing = at("Scratchpad");
  Constraint reg = at("WeightReg");
  reg.keep = {TensorRole::Inputs};
  Constraint dram = at("DRAM");
  dram.bypass = {TensorRole::Weights};
  Constraint wide = at("GlobalBuffer");
  wide.spatialX = {{DimName::K, FactorRule::Bound::Exact, 32}};
  wide.order = std::vector<DimName>{DimName::K, DimName::K};
  Constraint again = at("GlobalBuffer");
  arch.constraints = {missing, reg, dram, wide, again};
  std::vector<ArchIssue> issues = checkConstraints(arch);
  EXPECT_TRUE(mentions(issues, "no storage level 'Scratchpad'"));
  EXPECT_TRUE(mentions(issues, "keeps inputs, but the level holds only"));
  EXPECT_TRUE(mentions(issues, "cannot bypass weights"));
  EXPECT_TRUE(mentions(issues, "'K = 32' spreads wider than the level's 16"));
  EXPECT_TRUE(mentions(issues, "'order' names K twice"));
  EXPECT_TRUE(mentions(issues, "applies to the same ops"));
  for (const ArchIssue &issue : issues)
    EXPECT_EQ(issue.where, ArchIssue::Where::Constraint);
}

TEST(Constraints, OpKindsPickTheirOwnConstraint) {
  Arch arch = *findPreset("systolic-ws");
  unsigned buffer = *arch.levelIndex("GlobalBuffer");
  const Constraint *conv = constraintAt(arch, buffer, OpKind::Conv);
  const Constraint *dw = constraintAt(arch, buffer, OpKind::Depthwise);
  ASSERT_TRUE(conv && dw);
  EXPECT_TRUE(conv->ops.empty());
  EXPECT_EQ(dw->ops, std::vector<OpKind>{OpKind::Depthwise});
}

/// Every point of the space obeys the constraints, and encodes back.
void expectEveryPointObeys(const Problem &problem, const Arch &arch) {
  std::string error;
  std::unique_ptr<MapSpace> space =
      valueOr(MapSpace::create(problem, arch, {}), error);
  ASSERT_TRUE(space) << arch.name << " " << problem.name << ": " << error;
  Rng rng(7);
  std::vector<int64_t> values(space->parameters().size());
  unsigned valid = 0;
  for (int i = 0; i < 2000; ++i) {
    space->sample(rng, values.data());
    Mapping mapping = space->decode(values);
    std::vector<std::string> broken =
        checkMappingConstraints(mapping, problem, arch);
    ASSERT_TRUE(broken.empty()) << arch.name << ": " << broken.front();
    std::optional<std::vector<int64_t>> back = space->encode(mapping);
    ASSERT_TRUE(back.has_value()) << arch.name;
    ASSERT_TRUE(space->decode(*back) == mapping) << arch.name;
    valid += !llvm::errorToBool(space->checkMapping(mapping));
  }
  EXPECT_GT(valid, 0u) << arch.name << " " << problem.name;
}

TEST(ConstrainedSpace, EveryPointOfEveryPresetObeysItsDataflow) {
  for (const char *name : {"eyeriss-rs", "systolic-ws", "systolic-os"})
    for (const Problem &problem :
         {conv3x3(), depthwise(), stem(), makeGemm(64, 96, 128)})
      expectEveryPointObeys(problem, *findPreset(name));
}

TEST(ConstrainedSpace, EncodeRefusesAViolatingMapping) {
  Arch arch = *findPreset("systolic-ws");
  Problem problem = conv3x3();
  std::string error;
  auto space = valueOr(MapSpace::create(problem, arch, {}), error);
  ASSERT_TRUE(space) << error;
  Rng rng(3);
  std::vector<int64_t> values(space->parameters().size());
  space->sample(rng, values.data());
  Mapping mapping = space->decode(values);
  ASSERT_TRUE(space->encode(mapping).has_value());
  // Move P's spread (none allowed) onto X at the buffer.
  unsigned buffer = *arch.levelIndex("GlobalBuffer"), p = 2;
  ASSERT_EQ(problem.dims[p].name, "P");
  unsigned from = 0;
  for (unsigned l = 0; l < mapping.levels.size(); ++l)
    if (mapping.levels[l].temporal[p] % 2 == 0)
      from = l;
  ASSERT_EQ(mapping.levels[from].temporal[p] % 2, 0);
  mapping.levels[from].temporal[p] /= 2;
  mapping.levels[buffer].spatialX[p] *= 2;
  EXPECT_FALSE(space->encode(mapping).has_value());
  std::vector<std::string> broken =
      checkMappingConstraints(mapping, problem, arch);
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_NE(broken[0].find("constraint on 'GlobalBuffer' 'x_dims'"),
            std::string::npos)
      << broken[0];
  EXPECT_NE(broken[0].find("loop P (P) is spread 2 ways along X"),
            std::string::npos)
      << broken[0];
}

TEST(ConstrainedSpace, LargestFactorsAreNeverExceededButReached) {
  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.spatialX = {{DimName::K, FactorRule::Bound::AtMost, 2}};
  buffer.temporal = {{DimName::C, FactorRule::Bound::AtMost, 4}};
  arch.constraints = {buffer};
  ASSERT_TRUE(checkArch(arch).empty());
  Problem gemm = makeGemm(32, 48, 64);
  expectEveryPointObeys(gemm, arch);
  std::string error;
  auto space = valueOr(MapSpace::create(gemm, arch, {}), error);
  ASSERT_TRUE(space) << error;
  Rng rng(11);
  std::vector<int64_t> values(space->parameters().size());
  std::set<int64_t> spreads, tiles;
  for (int i = 0; i < 2000; ++i) {
    space->sample(rng, values.data());
    Mapping mapping = space->decode(values);
    spreads.insert(mapping.levels[1].spatialX[1]);
    tiles.insert(mapping.levels[1].temporal[2]);
  }
  EXPECT_EQ(spreads, (std::set<int64_t>{1, 2}));
  EXPECT_EQ(tiles, (std::set<int64_t>{1, 2, 4}));
}

TEST(ConstrainedSpace, ExclusiveAxesSpreadEachDimOneWay) {
  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.exclusiveAxes = true;
  arch.constraints = {buffer};
  Problem gemm = makeGemm(64, 64, 64);
  expectEveryPointObeys(gemm, arch);
  std::string error;
  auto space = valueOr(MapSpace::create(gemm, arch, {}), error);
  ASSERT_TRUE(space) << error;
  unsigned axes = 0;
  for (const Parameter &p : space->parameters())
    axes += p.kind == Parameter::Kind::Axis;
  EXPECT_EQ(axes, 3u); // one per loop at the one level that fans out
  Rng rng(5);
  std::vector<int64_t> values(space->parameters().size());
  bool sawX = false, sawY = false;
  for (int i = 0; i < 2000; ++i) {
    space->sample(rng, values.data());
    Mapping mapping = space->decode(values);
    for (unsigned d = 0; d < 3; ++d) {
      EXPECT_FALSE(mapping.levels[1].spatialX[d] > 1 &&
                   mapping.levels[1].spatialY[d] > 1);
      sawX |= mapping.levels[1].spatialX[d] > 1;
      sawY |= mapping.levels[1].spatialY[d] > 1;
    }
  }
  EXPECT_TRUE(sawX && sawY);
}

TEST(ConstrainedSpace, OnlyDimsWithSomethingToPlaceGetAnAxis) {
  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.exclusiveAxes = true;
  arch.constraints = {buffer};
  std::string error;
  auto space = valueOr(MapSpace::create(makeGemm(64, 1, 64), arch, {}), error);
  ASSERT_TRUE(space) << error;
  unsigned axes = 0;
  for (const Parameter &p : space->parameters())
    axes += p.kind == Parameter::Kind::Axis;
  EXPECT_EQ(axes, 2u); // N is 1: nothing of it to spread
  // A dim fixed to spread both ways contradicts one axis per dim.
  buffer.spatialX = {{DimName::K, FactorRule::Bound::Exact, 2}};
  buffer.spatialY = {{DimName::K, FactorRule::Bound::Exact, 2}};
  arch.constraints = {buffer};
  std::vector<ArchIssue> issues = checkConstraints(arch);
  ASSERT_FALSE(issues.empty());
  EXPECT_NE(issues[0].message.find("each dim takes one axis here"),
            std::string::npos);
}

TEST(ConstrainedSpace, TheApisConstraintsMustAgreeWithTheArchs) {
  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.temporal = {{DimName::C, FactorRule::Bound::AtMost, 2}};
  arch.constraints = {buffer};
  Constraints extra;
  extra.levels.resize(3);
  extra.levels[1].temporal[2] = 4; // K (C) = 4 at the buffer, above 2
  std::string error;
  EXPECT_FALSE(
      valueOr(MapSpace::create(makeGemm(8, 8, 8), arch, extra), error));
  EXPECT_NE(error.find("a fixed factor above the largest allowed"),
            std::string::npos)
      << error;
  Constraints zero;
  zero.levels.resize(3);
  zero.levels[1].maxTemporal[0] = 0;
  arch.constraints.clear();
  EXPECT_FALSE(valueOr(MapSpace::create(makeGemm(8, 8, 8), arch, zero), error));
  EXPECT_NE(error.find("must be at least 1"), std::string::npos) << error;
}

TEST(ConstrainedSpace, APartialOrderFixesTheInnermostLoops) {
  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.order = std::vector<DimName>{DimName::C};
  arch.constraints = {buffer};
  Problem gemm = makeGemm(16, 16, 16);
  std::string error;
  auto space = valueOr(MapSpace::create(gemm, arch, {}), error);
  ASSERT_TRUE(space) << error;
  for (const Parameter &p : space->parameters())
    if (p.name == "order@GlobalBuffer") {
      EXPECT_EQ(p.choices, 2); // M and N above K
    }
  Rng rng(9);
  std::vector<int64_t> values(space->parameters().size());
  for (int i = 0; i < 200; ++i) {
    space->sample(rng, values.data());
    EXPECT_EQ(space->decode(values).levels[1].order.back(), 2u);
  }
  expectEveryPointObeys(gemm, arch);
}

TEST(ConstrainedSpace, ConstraintsThatLeaveNothingThatFitsSayWhere) {
  Arch arch = *findPreset("systolic-ws");
  // A weight register holding every output channel's weight: 64 words in 1.
  arch.constraints[0].temporal = {{DimName::K, FactorRule::Bound::Full, 0}};
  std::string error;
  EXPECT_FALSE(valueOr(MapSpace::create(conv3x3(), arch, {}), error));
  EXPECT_NE(error.find("no mapping under the constraints fits"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("WeightReg"), std::string::npos) << error;
}

TEST(ConstrainedSpace, ARuleNamingSeveralLoopsMustBeOne) {
  // out[a, b, m, n] += in[a, b, m, k] * w[k, n]: a and b are both batch.
  Problem problem;
  problem.name = "batched";
  for (const char *name : {"a", "b", "m", "n", "k"})
    problem.dims.push_back({name, 4, LoopKind::Parallel});
  problem.dims[4].kind = LoopKind::Reduction;
  auto axes = [](std::initializer_list<unsigned> dims) {
    std::vector<Coordinate> out;
    for (unsigned dim : dims)
      out.push_back(Coordinate{{{dim, 1}}, 0});
    return out;
  };
  problem.operands = {
      {"in", TensorRole::Inputs, Access::Read, axes({0, 1, 2, 4})},
      {"w", TensorRole::Weights, Access::Read, axes({4, 3})},
      {"out", TensorRole::Outputs, Access::ReadModifyWrite,
       axes({0, 1, 2, 3})}};
  ASSERT_EQ(spell(nameDims(problem)), "NNPKC");

  Arch arch = *findPreset("edge");
  Constraint buffer = at("GlobalBuffer");
  buffer.temporal = {{DimName::N, FactorRule::Bound::Exact, 1}};
  arch.constraints = {buffer};
  std::string error;
  EXPECT_TRUE(valueOr(MapSpace::create(problem, arch, {}), error)) << error;
  // `full` and `max` mean the same for each loop.
  arch.constraints[0].temporal = {{DimName::N, FactorRule::Bound::Full, 0}};
  EXPECT_TRUE(valueOr(MapSpace::create(problem, arch, {}), error)) << error;
  arch.constraints[0].temporal = {{DimName::N, FactorRule::Bound::Exact, 2}};
  EXPECT_FALSE(valueOr(MapSpace::create(problem, arch, {}), error));
  EXPECT_NE(error.find("'N = 2' is ambiguous: loop a (N) and loop b (N)"),
            std::string::npos)
      << error;
}

} // namespace
