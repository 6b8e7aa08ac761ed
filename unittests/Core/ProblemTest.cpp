//===- ProblemTest.cpp - Loops and projections ----------------------------===//

#include "marlmap/Core/Problem.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

/// A 3x3 conv, stride 2, dilation 1, NCHW: loops N K P Q C R S.
Problem stridedConv() {
  Problem p;
  p.name = "conv";
  for (auto [name, bound, kind] : {std::tuple{"N", 1, LoopKind::Parallel},
                                   {"K", 8, LoopKind::Parallel},
                                   {"P", 7, LoopKind::Parallel},
                                   {"Q", 5, LoopKind::Parallel},
                                   {"C", 4, LoopKind::Reduction},
                                   {"R", 3, LoopKind::Reduction},
                                   {"S", 3, LoopKind::Reduction}})
    p.dims.push_back({name, bound, kind});
  auto axis = [](std::vector<ProjectionTerm> terms) {
    return Coordinate{std::move(terms), 0};
  };
  p.operands.push_back({"Inputs",
                        TensorRole::Inputs,
                        Access::Read,
                        {axis({{0, 1}}), axis({{4, 1}}), axis({{2, 2}, {5, 1}}),
                         axis({{3, 2}, {6, 1}})}});
  p.operands.push_back(
      {"Weights",
       TensorRole::Weights,
       Access::Read,
       {axis({{1, 1}}), axis({{4, 1}}), axis({{5, 1}}), axis({{6, 1}})}});
  p.operands.push_back(
      {"Outputs",
       TensorRole::Outputs,
       Access::ReadModifyWrite,
       {axis({{0, 1}}), axis({{1, 1}}), axis({{2, 1}}), axis({{3, 1}})}});
  return p;
}

TEST(Problem, CountsIterations) {
  EXPECT_EQ(stridedConv().iterations(), 1 * 8 * 7 * 5 * 4 * 3 * 3);
}

TEST(Problem, SlidingWindowFootprintHasItsHalo) {
  Problem p = stridedConv();
  // (P-1)*stride + (R-1)*dilation + 1 = 6*2 + 2 + 1 = 15 rows, 4*2+3 = 11.
  EXPECT_EQ(p.footprint(0), 4 * 15 * 11);
  EXPECT_EQ(p.footprint(1), 8 * 4 * 3 * 3);
  EXPECT_EQ(p.footprint(2), 8 * 7 * 5);
  // A 2x1 output tile with the full 3x3 window: (2-1)*2 + 3 = 5 by 3.
  std::vector<int64_t> tile = {1, 1, 2, 1, 1, 3, 3};
  EXPECT_EQ(p.footprint(0, tile), 5 * 3);
}

TEST(Problem, KnowsWhichLoopsAnOperandDependsOn) {
  Problem p = stridedConv();
  EXPECT_TRUE(p.dependsOn(0, 2));
  EXPECT_FALSE(p.dependsOn(0, 1)); // inputs ignore K: multicast candidates
  EXPECT_FALSE(p.dependsOn(2, 4)); // outputs ignore C: reduction
  EXPECT_TRUE(p.dependsOn(1, 6));
}

TEST(Problem, FormatsCoordinates) {
  Problem p = stridedConv();
  EXPECT_EQ(p.format(p.operands[0].projection[2]), "2*P + R");
  EXPECT_EQ(p.format(Coordinate{{}, 0}), "0");
  EXPECT_EQ(p.format(Coordinate{{{1, -1}, {2, 3}}, -4}), "-K + 3*P - 4");
}

TEST(Problem, CheckNamesWhatIsWrong) {
  EXPECT_TRUE(stridedConv().check().empty());
  Problem p = stridedConv();
  p.dims[2].bound = 0;
  p.operands[0].projection[0].terms.push_back({9, 1});
  p.operands[2].access = Access::Read;
  std::vector<std::string> issues = p.check();
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_NE(issues[0].find("'P' has bound 0"), std::string::npos);
  EXPECT_NE(issues[1].find("loop #9"), std::string::npos);
  EXPECT_NE(issues[2].find("no operand is written"), std::string::npos);
}

TEST(Problem, WrittenOperandsFollowOneLoopPerAxis) {
  Problem p = stridedConv();
  p.operands[2].projection[2] = Coordinate{{{2, 2}}, 0}; // outputs at 2*P
  std::vector<std::string> issues = p.check();
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0], "operand 'Outputs' is written through '2*P'; only "
                       "written axes that follow one loop are modelled");
}

} // namespace
