//===- ModelAgainstSimulatorTest.cpp - The cost model, refereed -----------===//
//
// Random small problems of every kind the importer produces, on every
// preset, under random mappings: the analytical model's counts must equal
// what the loop-nest simulator counts point by point.
//
//===----------------------------------------------------------------------===//

#include "LoopNestSimulator.h"

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"

#include "gtest/gtest.h"

#include <numeric>
#include <sstream>

using namespace marlmap;

namespace {

Coordinate axis(std::vector<ProjectionTerm> terms) {
  return Coordinate{std::move(terms), 0};
}

int64_t draw(Rng &rng, int64_t low, int64_t high) {
  return low + rng.below(high - low + 1);
}

Problem randomConv(Rng &rng, bool depthwise) {
  ConvShape shape;
  shape.n = draw(rng, 1, 2);
  shape.k = depthwise ? 1 : draw(rng, 1, 4);
  shape.c = draw(rng, 1, 4);
  shape.p = draw(rng, 1, 7);
  shape.q = draw(rng, 1, 4);
  shape.r = draw(rng, 1, 5);
  shape.s = draw(rng, 1, 3);
  shape.strideW = draw(rng, 1, 2);
  shape.strideH = draw(rng, 1, 2);
  shape.dilationW = draw(rng, 1, 2);
  shape.depthwise = depthwise;
  return makeConv(shape);
}

/// C[b, m, n] += A[b, m, k] * B[b, k, n].
Problem randomBatchedMatmul(Rng &rng) {
  Problem p;
  p.name = "batch_matmul";
  for (const char *name : {"B", "M", "N", "K"})
    p.dims.push_back({name, draw(rng, 1, 6), LoopKind::Parallel});
  p.dims[3].kind = LoopKind::Reduction;
  p.operands.push_back({"A",
                        TensorRole::Inputs,
                        Access::Read,
                        {axis({{0, 1}}), axis({{1, 1}}), axis({{3, 1}})}});
  p.operands.push_back({"B",
                        TensorRole::Weights,
                        Access::Read,
                        {axis({{0, 1}}), axis({{3, 1}}), axis({{2, 1}})}});
  p.operands.push_back({"C",
                        TensorRole::Outputs,
                        Access::ReadModifyWrite,
                        {axis({{0, 1}}), axis({{1, 1}}), axis({{2, 1}})}});
  return p;
}

/// out[i, j] = x[i, j] + bias[j], written once: an elementwise generic with
/// a broadcast operand.
Problem randomElementwise(Rng &rng) {
  Problem p;
  p.name = "linalg.generic";
  p.dims.push_back({"d0", draw(rng, 1, 12), LoopKind::Parallel});
  p.dims.push_back({"d1", draw(rng, 1, 12), LoopKind::Parallel});
  p.operands.push_back({"x",
                        TensorRole::Inputs,
                        Access::Read,
                        {axis({{0, 1}}), axis({{1, 1}})}});
  p.operands.push_back(
      {"bias", TensorRole::Weights, Access::Read, {axis({{1, 1}})}});
  p.operands.push_back({"out",
                        TensorRole::Outputs,
                        Access::Write,
                        {axis({{0, 1}}), axis({{1, 1}})}});
  return p;
}

/// out[n, c, p] = max over r of x[n, c, 2p + r]: a pooling generic whose
/// window operand moves nothing.
Problem randomPooling(Rng &rng) {
  Problem p;
  p.name = "linalg.generic";
  for (const char *name : {"n", "c", "p", "r"})
    p.dims.push_back({name, draw(rng, 1, 5), LoopKind::Parallel});
  p.dims[3].kind = LoopKind::Reduction;
  p.operands.push_back(
      {"x",
       TensorRole::Inputs,
       Access::Read,
       {axis({{0, 1}}), axis({{1, 1}}), axis({{2, 2}, {3, 1}})}});
  p.operands.push_back(
      {"window", TensorRole::Weights, Access::None, {axis({{3, 1}})}});
  p.operands.push_back({"out",
                        TensorRole::Outputs,
                        Access::ReadModifyWrite,
                        {axis({{0, 1}}), axis({{1, 1}}), axis({{2, 1}})}});
  return p;
}

Problem randomProblem(Rng &rng, unsigned kind) {
  switch (kind) {
  case 0:
    return randomConv(rng, false);
  case 1:
    return randomConv(rng, true);
  case 2:
    return makeGemm(draw(rng, 1, 8), draw(rng, 1, 8), draw(rng, 1, 8));
  case 3:
    return randomBatchedMatmul(rng);
  case 4:
    return randomElementwise(rng);
  default:
    return randomPooling(rng);
  }
}
constexpr unsigned kProblemKinds = 6;

std::vector<int64_t> primeFactors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t p = 2; p * p <= n; ++p)
    for (; n % p == 0; n /= p)
      out.push_back(p);
  if (n > 1)
    out.push_back(n);
  return out;
}

/// Each prime factor of each bound at a random level, in time or over X
/// or Y while the fanout allows; random orders; random keeps where the
/// level may hold the operand, everything at the outermost.
Mapping randomPerfectMapping(Rng &rng, const Problem &problem,
                             const Arch &arch) {
  const unsigned dims = problem.dims.size(), levels = arch.levels.size();
  Mapping m;
  for (unsigned l = 0; l < levels; ++l)
    m.levels.push_back(LevelMapping::identity(dims, problem.operands.size()));
  for (unsigned d = 0; d < dims; ++d)
    for (int64_t prime : primeFactors(problem.dims[d].bound)) {
      LevelMapping &level = m.levels[rng.below(levels)];
      const unsigned l = &level - m.levels.data();
      const int64_t where = rng.below(3);
      if (where == 1 && level.spreadX() * prime <= arch.fanoutX(l))
        level.spatialX[d] *= prime;
      else if (where == 2 && level.spreadY() * prime <= arch.fanoutY(l))
        level.spatialY[d] *= prime;
      else
        level.temporal[d] *= prime;
    }
  for (unsigned l = 0; l < levels; ++l) {
    LevelMapping &level = m.levels[l];
    for (unsigned i = dims; i > 1; --i)
      std::swap(level.order[i - 1], level.order[rng.below(i)]);
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      level.keep[o] =
          l + 1 == levels ||
          (arch.levels[l].holds.contains(problem.operands[o].role) &&
           rng.below(3) != 0);
  }
  return m;
}

/// Each dim's loops from the innermost out (a level's X, Y, then temporal
/// factor), each a random split of what is left while the tiles are short
/// of the bound: the last one is the outermost that splits, within what
/// its tile needs. The tiles need not divide the bound.
Mapping randomImperfectMapping(Rng &rng, const Problem &problem,
                               const Arch &arch) {
  const unsigned dims = problem.dims.size(), levels = arch.levels.size();
  Mapping m = randomPerfectMapping(rng, problem, arch); // orders and keeps
  for (LevelMapping &level : m.levels)
    for (unsigned d = 0; d < dims; ++d)
      level.temporal[d] = level.spatialX[d] = level.spatialY[d] = 1;
  for (unsigned d = 0; d < dims; ++d) {
    const int64_t bound = problem.dims[d].bound;
    int64_t tile = 1;
    for (unsigned l = 0; l < levels && tile < bound; ++l) {
      LevelMapping &level = m.levels[l];
      for (unsigned slot = 0; slot < 3 && tile < bound; ++slot) {
        const bool outermost = l + 1 == levels && slot == 2;
        if (!outermost && rng.below(3) != 0)
          continue;
        const int64_t most = (bound + tile - 1) / tile; // what covers it
        int64_t factor = outermost ? most : 2 + rng.below(most - 1);
        if (slot == 0)
          factor = std::min(factor, arch.fanoutX(l) / level.spreadX());
        if (slot == 1)
          factor = std::min(factor, arch.fanoutY(l) / level.spreadY());
        if (factor < 2)
          continue;
        (slot == 0   ? level.spatialX
         : slot == 1 ? level.spatialY
                     : level.temporal)[d] = factor;
        tile *= factor;
      }
    }
  }
  return m;
}

std::string describe(const Problem &problem, const Mapping &mapping) {
  std::ostringstream out;
  out << problem.key() << "\n";
  for (unsigned l = mapping.levels.size(); l-- > 0;) {
    const LevelMapping &level = mapping.levels[l];
    out << "  level " << l << ": order";
    for (unsigned d : level.order)
      out << " " << problem.dims[d].name << "=" << level.temporal[d];
    out << " | X";
    for (unsigned d = 0; d < level.spatialX.size(); ++d)
      out << " " << level.spatialX[d];
    out << " | Y";
    for (unsigned d = 0; d < level.spatialY.size(); ++d)
      out << " " << level.spatialY[d];
    out << " | keep";
    for (bool k : level.keep)
      out << " " << k;
    out << "\n";
  }
  return out.str();
}

/// Whether an axis of the operand sums two loops: a sliding window.
bool hasWindow(const Operand &operand) {
  for (const Coordinate &axis : operand.projection)
    if (axis.terms.size() > 1)
      return true;
  return false;
}

/// Where the model and the simulator disagree, one line each; with
/// `windowTraffic` false, the fills of window operands and the reads their
/// fills cause are not compared.
std::vector<std::string> disagreements(const Problem &problem, const Arch &arch,
                                       const Mapping &mapping,
                                       bool windowTraffic = true) {
  const Evaluation model = CostModel(problem, arch).evaluate(mapping);
  const simulator::Simulation walked = simulator::simulate(problem, mapping);
  std::vector<std::string> out;
  auto compare = [&](const std::string &what, int64_t modelled,
                     int64_t counted) {
    if (modelled != counted)
      out.push_back(what + ": model " + std::to_string(modelled) +
                    ", simulator " + std::to_string(counted));
  };
  if (model.reason == InvalidReason::Shape) {
    out.push_back("the model rejects the mapping's shape");
    return out;
  }
  compare("MACs", model.macs, walked.points);
  // A mapping over capacity stops the model before its cycles.
  if (model.reason != InvalidReason::Capacity) {
    const int64_t perCycle = arch.compute.macsPerCycle;
    compare("compute cycles", model.computeCycles,
            (walked.activeSteps + perCycle - 1) / perCycle);
    compare("MAC instances used", model.macInstancesUsed,
            walked.macInstancesUsed);
  }
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    const bool traffic = windowTraffic || !hasWindow(problem.operands[o]);
    bool innermost = true;
    for (unsigned l = 0; l < arch.levels.size(); ++l) {
      const OperandStats &m = model.at(l, o);
      const simulator::OperandCounts &s = walked.at(l, o);
      const std::string where =
          arch.levels[l].name + " " + problem.operands[o].name + " ";
      compare(where + "kept", m.kept, s.kept);
      if (!m.kept || !s.kept)
        continue;
      compare(where + "capacity", m.utilizedCapacity, s.capacity);
      compare(where + "instances", m.instances, s.instances);
      if (traffic || innermost) { // the MACs' reads are not fills
        compare(where + "reads", m.totalReads(), s.reads);
        compare(where + "first instance's reads", m.reads, s.first.reads);
      }
      if (traffic) {
        compare(where + "fills", m.totalFills(), s.fills);
        compare(where + "first instance's fills", m.fills, s.first.fills);
      }
      compare(where + "updates", m.totalUpdates(), s.updates);
      compare(where + "first instance's updates", m.updates, s.first.updates);
      innermost = false;
    }
  }
  return out;
}

using MappingDraw = Mapping (*)(Rng &, const Problem &, const Arch &);

/// Every kind of problem, `trials` of each, on every preset under `rule`,
/// each under a mapping `draw` makes: how many cases disagree (the first
/// few are reported).
int countDisagreements(FillRule rule, int trials, bool windowTraffic,
                       MappingDraw draw = randomPerfectMapping) {
  Rng rng(20261206);
  int failures = 0;
  for (const std::string &name : presetNames()) {
    Arch arch = *findPreset(name);
    arch.fillRule = rule;
    for (unsigned kind = 0; kind < kProblemKinds; ++kind)
      for (int trial = 0; trial < trials; ++trial) {
        const Problem problem = randomProblem(rng, kind);
        const Mapping mapping = draw(rng, problem, arch);
        const std::vector<std::string> found =
            disagreements(problem, arch, mapping, windowTraffic);
        if (found.empty() || ++failures > 5)
          continue;
        std::string text;
        for (const std::string &line : found)
          text += "  " + line + "\n";
        ADD_FAILURE() << name << "\n" << describe(problem, mapping) << text;
      }
  }
  return failures;
}

TEST(ModelAgainstSimulator, PerfectMappingsOnEveryPreset) {
  EXPECT_EQ(countDisagreements(FillRule::Exact, 40, true), 0);
}

// Timeloop's two-iteration walk (kept for architectures read from Timeloop
// files) counts a window operand's fills differently, over or under: every
// other figure is the walk's too.
TEST(ModelAgainstSimulator, TimeloopWalkDiffersOnlyInWindowFills) {
  EXPECT_EQ(countDisagreements(FillRule::Timeloop, 40, false), 0);
}

// Partial tiles: the idle PEs of a last spatial step, the residual tiles
// of every level, what an idle PE still receives.
TEST(ModelAgainstSimulator, PartialTilesOnEveryPreset) {
  EXPECT_EQ(
      countDisagreements(FillRule::Exact, 40, true, randomImperfectMapping), 0);
}

// Partial tiles, whatever the model: the walk runs every
// iteration of the problem once, whatever the tiling, and runs no step in
// which no MAC works.
TEST(Simulator, RunsEveryPointOnceUnderPartialTiles) {
  Rng rng(7);
  int cases = 0, partial = 0;
  for (const std::string &name : presetNames()) {
    const Arch arch = *findPreset(name);
    for (unsigned kind = 0; kind < kProblemKinds; ++kind)
      for (int trial = 0; trial < 10; ++trial) {
        const Problem problem = randomProblem(rng, kind);
        const Mapping mapping = randomImperfectMapping(rng, problem, arch);
        ++cases;
        partial += hasImperfectFactors(mapping, problem);
        for (unsigned d = 0; d < problem.dims.size(); ++d)
          ASSERT_EQ(llvm::toString(checkFactorCover(mapping, problem, arch, d)),
                    "")
              << describe(problem, mapping);
        int64_t nominalSteps = 1;
        for (const LevelMapping &level : mapping.levels)
          for (int64_t factor : level.temporal)
            nominalSteps *= factor;
        const simulator::Simulation s = simulator::simulate(problem, mapping);
        EXPECT_EQ(s.points, problem.iterations()) << describe(problem, mapping);
        EXPECT_GE(s.activeSteps,
                  (problem.iterations() + s.macInstancesUsed - 1) /
                      s.macInstancesUsed);
        EXPECT_LE(s.activeSteps, nominalSteps);
      }
  }
  EXPECT_GT(partial, cases / 2); // the draws do make partial tiles
}

} // namespace
