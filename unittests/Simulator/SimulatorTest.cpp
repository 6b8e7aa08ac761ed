//===- SimulatorTest.cpp - The loop-nest simulator, checked by hand -------===//
//
// Small nests whose every fetch can be listed on paper, partial tiles
// included: the referee must be right before it referees.
//
//===----------------------------------------------------------------------===//

#include "LoopNestSimulator.h"

#include "marlmap/Core/Layers.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

Coordinate axis(unsigned dim) {
  return Coordinate{{ProjectionTerm{dim, 1}}, 0};
}

/// `levels` levels that keep every operand and do nothing else.
Mapping keepAll(const Problem &problem, unsigned levels) {
  Mapping m;
  for (unsigned l = 0; l < levels; ++l) {
    m.levels.push_back(
        LevelMapping::identity(problem.dims.size(), problem.operands.size()));
    m.levels.back().keep.assign(problem.operands.size(), true);
  }
  return m;
}

TEST(Simulator, SlidesAWindowOverPartialTiles) {
  // 1-D conv, 7 outputs, 3 taps: the register file holds 2 outputs' window
  // (4 inputs); DRAM steps P four times, the last tile one output wide.
  Problem conv = makeConv({1, 1, 1, 7, 1, 3, 1}); // R S P Q C K N
  Mapping m = keepAll(conv, 2);
  m.levels[0].temporal = {3, 1, 2, 1, 1, 1, 1};
  m.levels[1].temporal = {1, 1, 4, 1, 1, 1, 1};
  simulator::Simulation s = simulator::simulate(conv, m);
  EXPECT_EQ(s.points, 21);
  EXPECT_EQ(s.activeSteps, 21); // 6 steps per tile, 3 in the last
  const simulator::OperandCounts &inputs = s.at(0, 1);
  EXPECT_EQ(inputs.capacity, 4);
  // [0, 3], then [2, 5] and [4, 7] bring 2 each, [6, 8] brings word 8.
  EXPECT_EQ(inputs.fills, 9);
  EXPECT_EQ(inputs.reads, 21);    // one per MAC
  EXPECT_EQ(s.at(0, 0).fills, 3); // the taps stay while P moves
  // Each output is written back to DRAM once; the MACs read a partial sum
  // back at all but the first of its three updates.
  EXPECT_EQ(s.at(1, 2).updates, 7);
  EXPECT_EQ(s.at(0, 2).updates, 21);
  EXPECT_EQ(s.at(0, 2).reads, 14);
  EXPECT_EQ(s.at(0, 2).fills, 0);
}

/// y[i] += A[i][j] * x[j].
Problem matvec(int64_t rows, int64_t columns) {
  Problem p;
  p.name = "matvec";
  p.dims = {{"i", rows, LoopKind::Parallel},
            {"j", columns, LoopKind::Reduction}};
  p.operands = {{"A", TensorRole::Weights, Access::Read, {axis(0), axis(1)}},
                {"x", TensorRole::Inputs, Access::Read, {axis(1)}},
                {"y", TensorRole::Outputs, Access::ReadModifyWrite, {axis(0)}}};
  return p;
}

TEST(Simulator, AnIdlePeStillReceivesItsMulticast) {
  // 7 rows over DRAM's 2 tiles of 4, one per PE: in the second tile the
  // fourth PE has no row. DRAM walks the rows outside the 3 columns.
  Problem p = matvec(7, 3);
  Mapping m = keepAll(p, 3);
  m.levels[1].keep.assign(3, false);
  m.levels[1].spatialX = {4, 1};
  m.levels[2].temporal = {2, 3};
  simulator::Simulation s = simulator::simulate(p, m);
  EXPECT_EQ(s.points, 21);
  EXPECT_EQ(s.activeSteps, 6);
  EXPECT_EQ(s.macInstancesUsed, 4);
  // x ignores the rows: every PE, the idle one too, takes x[j] in each of
  // the 6 epochs, from one multicast.
  EXPECT_EQ(s.at(0, 1).fills, 24);
  EXPECT_EQ(s.at(2, 1).reads, 6);
  EXPECT_EQ(s.at(0, 1).instances, 4);
  // A's rows: the idle PE has none in the second tile and keeps its last.
  EXPECT_EQ(s.at(0, 0).fills, 21);
  EXPECT_EQ(s.at(2, 0).reads, 21);
  // y: three PEs write two rows back, the fourth one.
  EXPECT_EQ(s.at(2, 2).updates, 7);
  EXPECT_EQ(s.at(0, 2).updates, 21);
  EXPECT_EQ(s.at(0, 2).reads, 14);
}

TEST(Simulator, StepsWithNoWorkAreNotRun) {
  // out[i] = x[i], i = 5 in three loops of 2: of the 8 steps, 5 run; the
  // innermost level's fourth tile is past the bound.
  Problem p;
  p.name = "copy";
  p.dims = {{"i", 5, LoopKind::Parallel}};
  p.operands = {{"x", TensorRole::Inputs, Access::Read, {axis(0)}},
                {"out", TensorRole::Outputs, Access::Write, {axis(0)}}};
  Mapping m = keepAll(p, 3);
  for (LevelMapping &level : m.levels)
    level.temporal = {2};
  simulator::Simulation s = simulator::simulate(p, m);
  EXPECT_EQ(s.activeSteps, 5);
  EXPECT_EQ(s.points, 5);
  EXPECT_EQ(s.at(0, 0).capacity, 2);
  EXPECT_EQ(s.at(0, 0).fills, 5); // 2 + 2 + 1
  EXPECT_EQ(s.at(1, 0).fills, 5); // 4 + 1
  EXPECT_EQ(s.at(2, 1).updates, 5);

  // Rows i = 3 as DRAM's 2 tiles of 2 rows, walked outside the 2 columns:
  // the last tile's second row does not run, so x, which ignores the
  // rows, is fetched for 6 epochs of the register file, not 8.
  Problem mv = matvec(3, 2);
  Mapping byRows = keepAll(mv, 3);
  byRows.levels[1].temporal = {2, 2};
  byRows.levels[1].order = {0, 1};
  byRows.levels[2].temporal = {2, 1};
  s = simulator::simulate(mv, byRows);
  EXPECT_EQ(s.activeSteps, 6);
  EXPECT_EQ(s.at(0, 1).fills, 6);
}

} // namespace
