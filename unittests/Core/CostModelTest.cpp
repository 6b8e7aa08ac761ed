//===- CostModelTest.cpp - Hand-checked figures and invariants ------------===//

#include "marlmap/Core/CostModel.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

using namespace marlmap;

namespace {

StorageLevel level(const std::string &name, std::optional<int64_t> entries,
                   int64_t instances, double energy) {
  StorageLevel l;
  l.name = name;
  l.entries = entries;
  l.instances = l.meshX = instances;
  l.readEnergy = l.writeEnergy = l.updateEnergy = energy;
  l.holds = RoleSet::all();
  return l;
}

/// `macs` MACs in a row under the given levels (innermost first).
Arch arch(int64_t macs, std::vector<StorageLevel> levels) {
  Arch a;
  a.name = "test";
  a.compute.instances = a.compute.meshX = macs;
  a.compute.energyPerMac = 1.0;
  a.levels = std::move(levels);
  return a;
}

TEST(CostModel, OneLevelMatmulReadsEveryOperandPerMac) {
  Problem gemm = makeGemm(4, 3, 5); // 60 MACs
  Arch dramOnly = arch(1, {level("DRAM", std::nullopt, 1, 200.0)});
  ASSERT_TRUE(checkArch(dramOnly).empty());
  Mapping mapping = Mapping::outermostOnly(gemm, dramOnly);
  Evaluation e = CostModel(gemm, dramOnly).evaluate(mapping);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.macs, 60);
  EXPECT_EQ(e.cycles, 60);
  EXPECT_EQ(e.at(0, 0).totalReads(), 60); // A
  EXPECT_EQ(e.at(0, 1).totalReads(), 60); // B
  // C: every MAC updates; all but the first update of each of the 12
  // outputs read the partial sum back.
  EXPECT_EQ(e.at(0, 2).totalUpdates(), 60);
  EXPECT_EQ(e.at(0, 2).totalReads(), 48);
  EXPECT_EQ(e.at(0, 2).totalFills(), 0);
  EXPECT_DOUBLE_EQ(e.energy, (60 + 60 + 60 + 48) * 200.0 + 60 * 1.0);
  EXPECT_DOUBLE_EQ(e.edp, e.energy * 60);
  EXPECT_DOUBLE_EQ(e.utilization, 1.0);
}

TEST(CostModel, SlidingWindowFetchesOnlyTheNewColumns) {
  // 1-D conv: 8 outputs, 3 taps. The register file holds 4 outputs' window
  // (6 inputs); DRAM steps P twice, innermost: the second window shares 2
  // inputs with the first, so the 10 inputs are fetched exactly once.
  Problem conv = makeConv({1, 1, 1, 8, 1, 3, 1});
  Arch a =
      arch(1, {level("RF", 16, 1, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  Mapping m = Mapping::outermostOnly(conv, a);
  m.levels[0].temporal = {3, 1, 4, 1, 1, 1, 1};
  m.levels[1].temporal = {1, 1, 2, 1, 1, 1, 1};
  Evaluation e = CostModel(conv, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 1).utilizedCapacity, 6);
  EXPECT_EQ(e.at(0, 1).totalFills(), 10);
  EXPECT_EQ(e.at(1, 1).totalReads(), 10);
  EXPECT_EQ(e.at(0, 1).totalReads(), 24); // one input per MAC

  // With R outside P at DRAM the window jumps back: a fresh tile per step.
  m.levels[0].temporal = {1, 1, 4, 1, 1, 1, 1};
  m.levels[1].temporal = {3, 1, 2, 1, 1, 1, 1};
  m.levels[1].order = {0, 1, 2, 3, 4, 5, 6}; // R outermost, P inside it
  e = CostModel(conv, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 1).utilizedCapacity, 4);
  // P steps slide by 4 over a 4-wide window: nothing kept. An R step moves
  // the tile from [4, 8) back to [1, 5) (R up one, P back from 1 to 0): it
  // keeps word 4. 4 + 4, then twice 3 + 4.
  EXPECT_EQ(e.at(0, 1).totalFills(), 22);

  // Timeloop's walk wraps P back by one step and keeps an overlap only for
  // the innermost loop's move: every R step fetches a whole tile, 6 of 4.
  a.fillRule = FillRule::Timeloop;
  e = CostModel(conv, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 1).totalFills(), 24);
}

TEST(CostModel, TimeloopWalkUndercountsAWrappedWindow) {
  // 1-D conv: 6 outputs, 4 taps. The register file holds a 2-tap window;
  // DRAM runs R (2) outside P (6). P slides the window by one: 2 + 5 words.
  // The R step moves it from [5, 7) back to [2, 4) (R up two, P back five):
  // a whole window, then five more slides. 7 + 2 + 5.
  Problem conv = makeConv({1, 1, 1, 6, 1, 4, 1});
  Arch a =
      arch(1, {level("RF", 16, 1, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  Mapping m = Mapping::outermostOnly(conv, a);
  m.levels[0].temporal = {2, 1, 1, 1, 1, 1, 1};
  m.levels[1].temporal = {2, 1, 6, 1, 1, 1, 1};
  m.levels[1].order = {0, 2, 1, 3, 4, 5, 6}; // R outermost, P inside it
  Evaluation e = CostModel(conv, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 1).totalFills(), 14);

  // Timeloop's walk wraps P back by one step only: the R step looks like a
  // P slide, one new word.
  a.fillRule = FillRule::Timeloop;
  e = CostModel(conv, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 1).totalFills(), 13);
}

/// y[2i] += A[i][j] * x[j]: results written to every other word.
Problem stridedMatvec(int64_t rows, int64_t columns) {
  Problem problem;
  problem.name = "strided";
  problem.dims = {{"i", rows, LoopKind::Parallel},
                  {"j", columns, LoopKind::Reduction}};
  auto axis = [](unsigned dim, int64_t coefficient) {
    return Coordinate{{ProjectionTerm{dim, coefficient}}, 0};
  };
  problem.operands = {
      {"A", TensorRole::Weights, Access::Read, {axis(0, 1), axis(1, 1)}},
      {"x", TensorRole::Inputs, Access::Read, {axis(1, 1)}},
      {"y", TensorRole::Outputs, Access::ReadModifyWrite, {axis(0, 2)}},
  };
  return problem;
}

TEST(CostModel, StridedOutputsReadNoWordBeforeItsFirstUpdate) {
  // 4 results at y[0], y[2], y[4], y[6]; 2 MACs each.
  Problem strided = stridedMatvec(4, 2);
  Arch a =
      arch(1, {level("RF", 32, 1, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  CostModel model(strided, a);
  // One result at a time in the RF, its two MACs in a row: each result
  // reaches DRAM once, a plain write; the gaps are never touched.
  Mapping m = Mapping::outermostOnly(strided, a);
  m.levels[0].temporal = {1, 2};
  m.levels[1].temporal = {4, 1};
  Evaluation e = model.evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 2).totalUpdates(), 8);
  EXPECT_EQ(e.at(0, 2).totalReads(), 4); // the second MAC of each result
  EXPECT_EQ(e.at(0, 2).totalFills(), 0);
  EXPECT_EQ(e.at(1, 2).totalUpdates(), 4);
  EXPECT_EQ(e.at(1, 2).totalReads(), 0);

  // j outside i at DRAM: the second pass reads back the four results.
  m.levels[0].temporal = {1, 1};
  m.levels[1].temporal = {4, 2};
  m.levels[1].order = {1, 0};
  e = model.evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 2).totalUpdates(), 8);
  EXPECT_EQ(e.at(0, 2).totalFills(), 4);
  EXPECT_EQ(e.at(1, 2).totalUpdates(), 8);
  EXPECT_EQ(e.at(1, 2).totalReads(), 4);

  // All four results in the RF at once: it holds their range, gaps and
  // all, and writes that range back once.
  m.levels[0].temporal = {4, 2};
  m.levels[1].temporal = {1, 1};
  e = model.evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(0, 2).utilizedCapacity, 7);
  EXPECT_EQ(e.at(0, 2).totalReads(), 4);
  EXPECT_EQ(e.at(1, 2).totalUpdates(), 7);
  EXPECT_EQ(e.at(1, 2).totalReads(), 0);
}

/// y[a i + b k] += A[i][k][j] * x[j]: results written along one axis that
/// two loops step, by `a` and `b`.
Problem writtenAlongTwoLoops(int64_t a, int64_t b) {
  Problem problem;
  problem.name = "two-loop output";
  problem.dims = {{"i", 6, LoopKind::Parallel},
                  {"k", 4, LoopKind::Parallel},
                  {"j", 3, LoopKind::Reduction}};
  auto axis = [](unsigned dim) {
    return Coordinate{{ProjectionTerm{dim, 1}}, 0};
  };
  problem.operands = {
      {"A", TensorRole::Weights, Access::Read, {axis(0), axis(1), axis(2)}},
      {"x", TensorRole::Inputs, Access::Read, {axis(2)}},
      {"y",
       TensorRole::Outputs,
       Access::ReadModifyWrite,
       {Coordinate{{ProjectionTerm{0, a}, ProjectionTerm{1, b}}, 0}}},
  };
  return problem;
}

TEST(CostModel, WrittenWordsAreReadBackAfterTheirFirstUpdateOnly) {
  // Everything at DRAM: every MAC updates its result, and all but the
  // first update of each distinct word read it back, whatever the stride
  // (negative, or on two loops that meet on some words).
  Arch dramOnly = arch(1, {level("DRAM", std::nullopt, 1, 1.0)});
  for (auto [a, b] : std::vector<std::pair<int64_t, int64_t>>{
           {-2, 0}, {2, 3}, {3, 2}, {1, 1}, {2, -4}}) {
    SCOPED_TRACE(std::to_string(a) + "i + " + std::to_string(b) + "k");
    Problem problem = writtenAlongTwoLoops(a, b);
    std::set<int64_t> written;
    for (int64_t i = 0; i < 6; ++i)
      for (int64_t k = 0; k < 4; ++k)
        written.insert(a * i + b * k);
    Evaluation e = CostModel(problem, dramOnly)
                       .evaluate(Mapping::outermostOnly(problem, dramOnly));
    ASSERT_TRUE(e.valid);
    EXPECT_EQ(e.at(0, 2).totalUpdates(), 72);
    EXPECT_EQ(e.at(0, 2).totalReads(), 72 - int64_t(written.size()));
  }
}

/// Calls `check` on every valid mapping among `draws` uniform samples of
/// `space` drawn from `seed`; returns how many there were.
unsigned forEachValidSample(
    const MapSpace &space, uint64_t seed, int draws,
    const std::function<void(const Mapping &, const Evaluation &)> &check) {
  Rng rng(seed);
  std::vector<int64_t> values(space.parameters().size());
  Mapping mapping;
  Evaluation evaluation;
  unsigned valid = 0;
  for (int i = 0; i < draws; ++i) {
    space.sample(rng, values.data());
    space.decode(values.data(), mapping);
    if (!space.model().evaluate(mapping, evaluation))
      continue;
    ++valid;
    check(mapping, evaluation);
  }
  return valid;
}

/// Every count stays a count and the bound stays below, where strides leave
/// gaps in what is read or written.
TEST(CostModel, StridedOperandsKeepTheInvariants) {
  std::vector<std::pair<Problem, const char *>> cases = {
      {stridedMatvec(12, 6), "systolic-os"},
      {stridedMatvec(16, 8), "edge"},
      {writtenAlongTwoLoops(-2, 0), "eyeriss"},
      {writtenAlongTwoLoops(2, 3), "simba"},
      {writtenAlongTwoLoops(3, -2), "edge"},
      {makeConv({1, 8, 4, 7, 7, 1, 1, 2, 2}), "eyeriss"},
      {makeConv({1, 8, 4, 7, 7, 1, 1, 2, 2}), "simba"}};
  for (auto &[problem, preset] : cases) {
    SCOPED_TRACE(std::string(preset) + " " + problem.name);
    std::string error;
    auto space =
        valueOr(MapSpace::create(problem, *findPreset(preset), {}), error);
    ASSERT_TRUE(space) << error;
    const LowerBound bound = space->model().lowerBound();
    unsigned valid = forEachValidSample(
        *space, 3, 4000, [&](const Mapping &, const Evaluation &e) {
          EXPECT_GE(e.energy, bound.energy * (1 - 1e-12));
          for (const OperandStats &s : e.operands) {
            EXPECT_GE(s.reads, 0);
            EXPECT_GE(s.fills, 0);
            EXPECT_GE(s.updates, 0);
          }
        });
    EXPECT_GT(valid, 0u);
  }
}

TEST(CostModel, DepthwiseConvSharesNothingAcrossChannels) {
  // 4 channels, 1-D window of 3 over 4 outputs, one channel per PE: every
  // operand depends on C, so spreading C multicasts nothing. Each PE holds
  // its 3 weights, its 6 inputs and its 4 outputs.
  Problem dw = makeConv({1, 1, 4, 4, 1, 3, 1, 1, 1, 1, 1, true});
  Arch a =
      arch(4, {level("RF", 16, 4, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  Mapping m = Mapping::outermostOnly(dw, a);
  m.levels[1].temporal = {1, 1, 1, 1, 1, 1};
  m.levels[1].spatialX = {1, 1, 1, 1, 4, 1}; // C
  m.levels[0].temporal = {3, 1, 4, 1, 1, 1};
  Evaluation e = CostModel(dw, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.macs, 48);
  EXPECT_EQ(e.computeCycles, 12);
  for (unsigned o = 0; o < 3; ++o) {
    EXPECT_EQ(e.at(1, o).multicast, 1);
    EXPECT_EQ(e.at(1, o).spatialReduction, 1);
  }
  EXPECT_EQ(e.at(0, 0).utilizedCapacity, 3);
  EXPECT_EQ(e.at(0, 1).utilizedCapacity, 6);
  EXPECT_EQ(e.at(0, 2).utilizedCapacity, 4);
  EXPECT_EQ(e.at(1, 0).totalReads(), 12); // 4 channels x 3 taps
  EXPECT_EQ(e.at(1, 1).totalReads(), 24); // 4 channels x 6 inputs
  EXPECT_EQ(e.at(1, 2).totalUpdates(), 16);
  EXPECT_EQ(e.at(0, 1).totalReads(), 48); // one input per MAC
}

TEST(CostModel, MulticastReadsOnceForChildrenThatShareData) {
  // Two PEs split N: both need all of A, each its own half of B.
  Problem gemm = makeGemm(2, 2, 3);
  Arch a =
      arch(2, {level("RF", 16, 2, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  Mapping m = Mapping::outermostOnly(gemm, a);
  m.levels[1].temporal = {1, 1, 1};
  m.levels[1].spatialX = {1, 2, 1};
  m.levels[0].temporal = {2, 1, 3};
  Evaluation e = CostModel(gemm, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(1, 0).totalReads(), 6); // A once
  EXPECT_EQ(e.at(1, 0).multicast, 2);
  EXPECT_EQ(e.at(0, 0).totalFills(), 12); // but into both PEs
  EXPECT_EQ(e.at(1, 1).totalReads(), 6);  // B: each PE its half
  EXPECT_EQ(e.at(1, 1).multicast, 1);
  EXPECT_EQ(e.macInstancesUsed, 2);
  EXPECT_EQ(e.computeCycles, 6);
}

TEST(CostModel, SpatialReductionAddsPartialSumsOnTheWay) {
  // Two PEs split K: their partial sums meet in the network.
  Problem gemm = makeGemm(1, 1, 4);
  Arch a =
      arch(2, {level("RF", 16, 2, 1.0), level("DRAM", std::nullopt, 1, 200.0)});
  Mapping m = Mapping::outermostOnly(gemm, a);
  m.levels[1].temporal = {1, 1, 1};
  m.levels[1].spatialX = {1, 1, 2};
  m.levels[0].temporal = {1, 1, 2};
  Evaluation e = CostModel(gemm, a).evaluate(m);
  ASSERT_TRUE(e.valid);
  EXPECT_EQ(e.at(1, 2).totalUpdates(), 1); // one reduced word reaches DRAM
  EXPECT_EQ(e.at(1, 2).spatialReduction, 2);
  EXPECT_EQ(e.at(0, 2).totalUpdates(), 4); // each PE: 2 MAC updates
}

TEST(CostModel, BypassedLevelsPassTrafficThrough) {
  // Eyeriss's global buffer does not hold weights: the weight register
  // files fill straight from DRAM.
  Problem conv = makeConv({1, 16, 8, 14, 12, 3, 3});
  Arch eyeriss = *findPreset("eyeriss");
  std::string error;
  auto space = valueOr(MapSpace::create(conv, eyeriss, {}), error);
  ASSERT_TRUE(space) << error;
  Rng rng(11);
  std::vector<int64_t> values(space->parameters().size());
  Mapping m;
  Evaluation e;
  unsigned checked = 0;
  for (int i = 0; i < 5000 && checked < 20; ++i) {
    space->sample(rng, values.data());
    space->decode(values.data(), m);
    if (!space->model().evaluate(m, e) || !m.levels[1].keep[0])
      continue;
    // Weights kept at the WeightRegFile (level 1) and DRAM (4) only.
    ASSERT_FALSE(e.at(3, 0).kept);
    EXPECT_EQ(e.at(4, 0).totalReads() * e.at(4, 0).multicast,
              e.at(1, 0).totalFills());
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

/// Invariants every valid evaluation keeps, on random mappings of several
/// layers and presets.
TEST(CostModel, InvariantsHoldOnRandomMappings) {
  std::vector<std::pair<Problem, const char *>> cases = {
      {makeConv({1, 64, 64, 56, 56, 3, 3}), "eyeriss"},
      {makeConv({1, 64, 3, 112, 112, 7, 7, 2, 2}), "simba"},
      {makeGemm(512, 768, 768), "systolic-ws"},
      {makeConv({1, 1, 144, 56, 56, 3, 3, 1, 1, 1, 1, true}), "systolic-os"},
      {makeGemm(128, 64, 256), "edge"}};
  for (auto &[problem, preset] : cases) {
    SCOPED_TRACE(preset);
    Arch a = *findPreset(preset);
    std::string error;
    auto space = valueOr(MapSpace::create(problem, a, {}), error);
    ASSERT_TRUE(space) << error;
    const LowerBound bound = space->model().lowerBound();
    const Problem &layer = problem; // a lambda cannot capture a binding
    unsigned valid = forEachValidSample(
        *space, 5, 3000, [&](const Mapping &m, const Evaluation &e) {
          EXPECT_EQ(e.macs, layer.iterations());
          EXPECT_GE(e.cycles, bound.cycles);
          EXPECT_GE(e.energy, bound.energy * (1 - 1e-12));
          EXPECT_LE(e.utilization, 1.0 + 1e-12);
          // What a parent sends down, multicast, is what its child receives;
          // what children write back, reduced, is what the parent takes.
          for (unsigned o = 0; o < layer.operands.size(); ++o) {
            int child = -1;
            for (unsigned l = 0; l < a.levels.size(); ++l) {
              const OperandStats &s = e.at(l, o);
              if (!s.kept)
                continue;
              if (child >= 0) {
                const OperandStats &c = e.at(child, o);
                if (layer.operands[o].isWritten())
                  EXPECT_EQ(s.totalUpdates() * s.spatialReduction,
                            c.totalFills() + c.partitionSize * c.instances);
                else
                  EXPECT_EQ(s.totalReads() * s.multicast, c.totalFills());
              }
              child = l;
            }
          }
          // More room never makes a valid mapping invalid.
          Arch roomier = a;
          for (StorageLevel &l : roomier.levels)
            if (l.entries)
              *l.entries *= 2;
          EXPECT_TRUE(CostModel(layer, roomier).evaluate(m).valid);
        });
    EXPECT_GT(valid, 0u);
  }
}

/// `check` on the map space of each case's problem on its preset, under
/// each fill rule; with `anyKeep`, any level may keep any operand.
void forEachFillRuleSpace(
    const std::vector<std::pair<Problem, const char *>> &cases, bool anyKeep,
    const std::function<void(const MapSpace &)> &check) {
  for (const auto &[problem, preset] : cases)
    for (FillRule rule : {FillRule::Exact, FillRule::Timeloop}) {
      SCOPED_TRACE(std::string(preset) + " " + fillRuleName(rule));
      Arch a = *findPreset(preset);
      a.fillRule = rule;
      if (anyKeep)
        for (StorageLevel &l : a.levels)
          l.holds = RoleSet::all();
      std::string error;
      auto space = valueOr(MapSpace::create(problem, a, {}), error);
      ASSERT_TRUE(space) << error;
      check(*space);
    }
}

TEST(CostModel, FillsIfKeptAreWhatTheLevelWouldFillKeepingIt) {
  const std::vector<std::pair<Problem, const char *>> cases = {
      {makeConv({1, 64, 64, 56, 56, 3, 3}), "eyeriss"},
      {makeConv({1, 64, 3, 112, 112, 7, 7, 2, 2}), "simba"},
      {makeConv({1, 1, 144, 56, 56, 3, 3, 1, 1, 1, 1, true}), "systolic-os"}};
  // Any level may keep any operand.
  forEachFillRuleSpace(cases, /*anyKeep=*/true, [](const MapSpace &space) {
    const CostModel &model = space.model();
    const Problem &layer = space.problem();
    const unsigned outermost = space.arch().levels.size() - 1;
    unsigned checked = 0;
    forEachValidSample(
        space, 11, 3000, [&](const Mapping &m, const Evaluation &e) {
          for (unsigned o = 0; o < layer.operands.size(); ++o) {
            if (layer.operands[o].isWritten())
              continue; // its fills leave out the first visit of a word
            EXPECT_EQ(model.fillsIfKept(m, outermost, o),
                      e.at(outermost, o).partitionSize);
            for (unsigned l = 0; l < outermost; ++l) {
              Mapping keeping = m;
              keeping.levels[l].keep[o] = true;
              EXPECT_EQ(model.fillsIfKept(m, l, o),
                        model.evaluate(keeping).at(l, o).fills);
              ++checked;
            }
          }
        });
    EXPECT_GT(checked, 100u);
  });
}

// Whatever the order of the level above, once loop i is innermost there
// the level fills at least the tile and what i's steps bring in under the
// loops outside it: every order with i innermost, on windows (strided,
// depthwise) and plain operands.
TEST(CostModel, FillsIfInnermostAreAtMostEveryOrdersWithThatLoopInside) {
  const std::vector<std::pair<Problem, const char *>> cases = {
      {makeConv({1, 8, 8, 14, 14, 3, 3}), "eyeriss"},
      {makeConv({1, 8, 3, 14, 14, 7, 7, 2, 2}), "simba"},
      {makeConv({1, 1, 16, 14, 14, 3, 3, 1, 1, 1, 1, true}), "systolic-os"}};
  forEachFillRuleSpace(cases, /*anyKeep=*/false, [](const MapSpace &space) {
    const CostModel &model = space.model();
    const Problem &layer = space.problem();
    const unsigned numDims = layer.dims.size(),
                   numLevels = space.arch().levels.size();
    unsigned checked = 0, raised = 0;
    forEachValidSample(
        space, 13, 400, [&](const Mapping &m, const Evaluation &) {
          for (unsigned l = 0; l + 1 < numLevels; ++l) {
            std::vector<unsigned> moving;
            for (unsigned d = 0; d < numDims; ++d)
              if (m.levels[l + 1].temporal[d] > 1)
                moving.push_back(d);
            if (moving.size() < 2)
              continue;
            for (unsigned o = 0; o < layer.operands.size(); ++o)
              for (unsigned inner : moving) {
                const int64_t floor = model.fillsIfInnermost(m, l, o, inner);
                raised += floor > model.fillsIfKept(m, l, o) / 2;
                // Every order of the moving loops with `inner` last.
                std::vector<unsigned> others;
                for (unsigned d : moving)
                  if (d != inner)
                    others.push_back(d);
                do {
                  Mapping ordered = m;
                  std::vector<unsigned> &order = ordered.levels[l + 1].order;
                  std::vector<unsigned> rest;
                  for (unsigned d : order)
                    if (std::find(moving.begin(), moving.end(), d) ==
                        moving.end())
                      rest.push_back(d);
                  order = rest;
                  order.insert(order.end(), others.begin(), others.end());
                  order.push_back(inner);
                  EXPECT_LE(floor, model.fillsIfKept(ordered, l, o))
                      << "level " << l << " operand " << o << " inner "
                      << inner;
                  ++checked;
                } while (std::next_permutation(others.begin(), others.end()));
              }
          }
        });
    EXPECT_GT(checked, 100u);
    EXPECT_GT(raised, 10u); // often half the fills or more: no trivial floor
  });
}

TEST(CostModel, ReportsWhyAMappingIsInvalid) {
  Problem gemm = makeGemm(8, 8, 8);
  Arch a = *findPreset("edge");
  CostModel model(gemm, a);
  Mapping m = Mapping::outermostOnly(gemm, a);
  m.levels[0].temporal = {8, 8, 8};
  m.levels[2].temporal = {1, 1, 1};
  Evaluation e = model.evaluate(m);
  EXPECT_FALSE(e.valid);
  EXPECT_EQ(e.reason, InvalidReason::Capacity);
  EXPECT_EQ(e.describeInvalid(a),
            "level 'RegFile' holds 192 words per instance but has 64");
  m.levels[1].spatialX = {16, 1, 1};
  e = model.evaluate(m);
  EXPECT_EQ(e.reason, InvalidReason::Shape);
}

TEST(CostModel, CountsPartialTiles) {
  // M = 7 in time as 4 tiles of 2, the last one row: every point once,
  // one step each, none for the missing eighth row.
  Problem gemm = makeGemm(7, 8, 8);
  Arch a = *findPreset("edge");
  Mapping m = Mapping::outermostOnly(gemm, a);
  m.levels[0].temporal[0] = 2;
  m.levels.back().temporal[0] = 4;
  Evaluation e = CostModel(gemm, a).evaluate(m);
  EXPECT_TRUE(e.valid) << e.describeInvalid(a);
  EXPECT_EQ(e.macs, 7 * 8 * 8);
  EXPECT_EQ(e.computeCycles, 7 * 8 * 8);
  EXPECT_EQ(e.macInstancesUsed, 1);
}

TEST(CostModel, SaysWhereItCannotCountPartialTiles) {
  Problem gemm = makeGemm(7, 8, 8);
  Arch a = *findPreset("edge");
  a.fillRule = FillRule::Timeloop; // its walk has no partial tiles
  Mapping m = Mapping::outermostOnly(gemm, a);
  m.levels[0].temporal[0] = 2;
  m.levels.back().temporal[0] = 4;
  Evaluation e = CostModel(gemm, a).evaluate(m);
  EXPECT_FALSE(e.valid);
  EXPECT_EQ(e.reason, InvalidReason::ImperfectFactors);
  EXPECT_EQ(e.describeInvalid(a),
            "some loop's factors do not divide its bound, and the cost model "
            "counts partial tiles only under its exact fill rule (not "
            "Timeloop's) and for written operands indexed by one loop per "
            "axis");

  // Results written along an axis two loops step: which words a partial
  // tile writes first is not a product over loops.
  Problem twoLoops = writtenAlongTwoLoops(1, 1);
  Arch twoLevels = arch(
      1, {level("Buffer", 64, 1, 1.0), level("DRAM", std::nullopt, 1, 1.0)});
  Mapping partial = Mapping::outermostOnly(twoLoops, twoLevels);
  partial.levels[0].temporal[0] = 4; // 6 as 4 + 2
  partial.levels[1].temporal[0] = 2;
  e = CostModel(twoLoops, twoLevels).evaluate(partial);
  EXPECT_EQ(e.reason, InvalidReason::ImperfectFactors);
}

TEST(CostModel, ExtremeButLegalAcceleratorsGiveFiniteFigures) {
  // A big layer on the largest figures a description may have: every
  // figure the model returns is finite, or the mapping is invalid with a
  // reason; never inf or NaN.
  Problem conv = makeConv({64, 512, 512, 224, 224, 7, 7});
  StorageLevel dram = level("DRAM", std::nullopt, 1, kMaxEnergy);
  dram.readBandwidth = dram.writeBandwidth = kMinBandwidth;
  StorageLevel huge =
      level("Huge", int64_t(1) << 40, int64_t(1) << 20, kMaxEnergy);
  Arch extreme = arch(int64_t(1) << 20, {huge, dram});
  extreme.compute.energyPerMac = kMaxEnergy;
  extreme.clockMHz = 1e-3;
  ASSERT_TRUE(checkArch(extreme).empty());
  Evaluation e =
      CostModel(conv, extreme).evaluate(Mapping::outermostOnly(conv, extreme));
  EXPECT_FALSE(e.valid);
  EXPECT_EQ(e.reason, InvalidReason::Overflow);
  EXPECT_EQ(e.describeInvalid(extreme),
            "its cycles or energy overflow what the model can represent");

  // Without the bandwidth limit the figures are huge and finite.
  extreme.levels[1].readBandwidth.reset();
  extreme.levels[1].writeBandwidth.reset();
  e = CostModel(conv, extreme).evaluate(Mapping::outermostOnly(conv, extreme));
  ASSERT_TRUE(e.valid);
  EXPECT_TRUE(std::isfinite(e.energy));
  EXPECT_TRUE(std::isfinite(e.edp));
  EXPECT_GT(e.edp, 1e30);
  EXPECT_TRUE(std::isfinite(e.utilization));
}

TEST(CostModel, FiguresThatCouldOverflowAreRefusedWhereTheyEnter) {
  Arch a = arch(1, {level("DRAM", std::nullopt, 1, 1e308)});
  a.compute.energyPerMac = 1e308;
  a.clockMHz = 1e300;
  a.levels[0].readBandwidth = 1e-300;
  std::vector<std::string> fields;
  for (const ArchIssue &issue : checkArch(a))
    fields.push_back(issue.field);
  for (const char *field : {"read_energy", "write_energy", "energy_per_mac",
                            "clock_mhz", "read_bandwidth"})
    EXPECT_NE(std::find(fields.begin(), fields.end(), field), fields.end())
        << field;
}

} // namespace
