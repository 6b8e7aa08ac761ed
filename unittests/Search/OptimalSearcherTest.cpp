//===- OptimalSearcherTest.cpp - The exact searcher against enumeration ---===//
//
// Every pruning rule of the exact searcher is a claim about the cost model;
// these tests check the claims where they can be checked completely: small
// spaces enumerated point by point, on every preset and objective.
//
//===----------------------------------------------------------------------===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"
#include "marlmap/Search/Searcher.h"

#include "OptimalTree.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>

using namespace marlmap;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr Objective kObjectives[] = {Objective::EDP, Objective::Energy,
                                     Objective::Latency};

/// A data-space axis that is loop `dim`.
Coordinate axis(unsigned dim) {
  return Coordinate{{ProjectionTerm{dim, 1}}, 0};
}

/// y[i] += A[i][j] * x[j]: two loops, so every loop order of every level
/// stays in an enumerable space.
Problem matvec(int64_t rows, int64_t columns) {
  Problem problem;
  problem.name = "matvec";
  problem.dims = {{"i", rows, LoopKind::Parallel},
                  {"j", columns, LoopKind::Reduction}};
  problem.operands = {
      {"A", TensorRole::Weights, Access::Read, {axis(0), axis(1)}},
      {"x", TensorRole::Inputs, Access::Read, {axis(1)}},
      {"y", TensorRole::Outputs, Access::ReadModifyWrite, {axis(0)}},
  };
  return problem;
}

/// The least objective over every point of the space.
double enumeratedOptimum(const MapSpace &space, Objective objective) {
  double best = kInfinity;
  Evaluation evaluation;
  Mapping mapping;
  bool small = space.enumerate(2'000'000, [&](const std::vector<int64_t> &v) {
    space.decode(v.data(), mapping);
    if (space.model().evaluate(mapping, evaluation))
      best = std::min(best, objectiveValue(evaluation, objective));
    return true;
  });
  EXPECT_TRUE(small) << "the test space is too large to enumerate";
  return best;
}

SearchResult runOptimal(const MapSpace &space, Objective objective,
                        int64_t budget, unsigned batch = 64,
                        const OptimalOptions &optimal = OptimalOptions()) {
  std::unique_ptr<Searcher> searcher =
      makeOptimalSearcher(space, objective, SearchBudget(budget), optimal);
  SearchOptions options;
  options.objective = objective;
  options.budget = budget;
  options.batch = batch;
  return runSearch(space, *searcher, options);
}

/// Orders fixed everywhere but at `freeLevel`, where only the loops in
/// `free` move: a conv's seven loops would not enumerate otherwise.
Constraints ordersFixedBut(const Arch &arch, unsigned freeLevel,
                           std::vector<unsigned> free, unsigned numDims) {
  Constraints constraints;
  constraints.levels.resize(arch.levels.size());
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    if (l == freeLevel) {
      for (unsigned d = 0; d < numDims; ++d)
        if (std::find(free.begin(), free.end(), d) == free.end())
          constraints.levels[l].innermost.push_back(d);
      continue;
    }
    std::vector<unsigned> order;
    for (unsigned d = 0; d < numDims; ++d)
      order.push_back(d);
    constraints.levels[l].order = order;
  }
  return constraints;
}

/// The walk under growing thresholds alone, each proposal evaluated at
/// once: it ends at `optimum`, and its lower bound is never above it.
void expectPassesProve(const MapSpace &space, Objective objective,
                       double optimum, const std::string &label) {
  PartialBound bounds(space, objective);
  double best = kInfinity;
  OptimalTree tree(space, bounds, objective, best, 1 << 16);
  tree.usePasses(bounds.floor() * 1.05);
  std::vector<int64_t> point;
  double pointBound = 0.0;
  Mapping mapping;
  Evaluation evaluation;
  for (;;) {
    const OptimalTree::Step step =
        tree.step(point, pointBound, /*start=*/true, kInfinity);
    if (step == OptimalTree::Step::Finished)
      break;
    if (step != OptimalTree::Step::Proposed)
      continue;
    space.decode(point.data(), mapping);
    if (space.model().evaluate(mapping, evaluation))
      best = std::min(best, objectiveValue(evaluation, objective));
    ASSERT_LE(tree.lowerBound(), optimum * (1 + 1e-12)) << label;
  }
  EXPECT_EQ(best, optimum) << label;
  EXPECT_EQ(tree.lowerBound(), optimum) << label;
}

void expectProvesTheOptimum(const MapSpace &space, const std::string &what) {
  for (Objective objective : kObjectives) {
    double optimum = enumeratedOptimum(space, objective);
    if (optimum < kInfinity)
      expectPassesProve(space, objective, optimum,
                        what + " " + objectiveName(objective) + " (passes)");
    SearchResult result = runOptimal(space, objective, 10'000'000);
    std::string label = what + " " + objectiveName(objective);
    ASSERT_TRUE(result.certificate) << label;
    EXPECT_TRUE(result.certificate->complete) << label;
    ASSERT_EQ(result.found, optimum < kInfinity) << label;
    if (!result.found)
      continue;
    EXPECT_DOUBLE_EQ(result.bestCost, optimum) << label;
    EXPECT_DOUBLE_EQ(result.certificate->lowerBound, optimum) << label;
    // The walks prove it without the polish's mappings too.
    OptimalOptions walksAlone;
    walksAlone.polish = false;
    SearchResult walks =
        runOptimal(space, objective, 10'000'000, 64, walksAlone);
    EXPECT_TRUE(walks.certificate && walks.certificate->complete) << label;
    EXPECT_DOUBLE_EQ(walks.bestCost, optimum) << label;
    // No more samples than the space has points: the bound pays.
    EXPECT_LT(result.samples, int64_t(std::pow(10.0, space.log10Size())) + 1)
        << label;
    // Cut short anywhere, in batches of any size (the walks take turns
    // across asks, a pass waits for its proposals' evaluation), the bound
    // still holds, and a search that ends has proved the optimum.
    for (int64_t budget : {3, 17, 60})
      for (unsigned batch : {1u, 7u}) {
        SearchResult cut = runOptimal(space, objective, budget, batch);
        const std::string where = label + " budget " + std::to_string(budget) +
                                  " batch " + std::to_string(batch);
        ASSERT_TRUE(cut.certificate) << where;
        EXPECT_LE(cut.certificate->lowerBound, optimum * (1 + 1e-12)) << where;
        if (cut.certificate->complete) {
          EXPECT_EQ(cut.bestCost, optimum) << where;
        }
      }
  }
}

TEST(OptimalSearcher, EqualsEnumerationWithEveryOrderFree) {
  unsigned cases = 0;
  for (const std::string &preset : presetNames()) {
    Arch arch = *findPreset(preset);
    for (Problem problem :
         {matvec(4, 2), matvec(2, 6), matvec(3, 4), makeGemm(2, 2, 1)}) {
      std::string error;
      auto space = valueOr(MapSpace::create(problem, arch, {}), error);
      if (!space || space->log10Size() > 5.6)
        continue; // no space under the preset's dataflow, or too large
      expectProvesTheOptimum(*space,
                             preset + " " + problem.name + " " + problem.key());
      ++cases;
    }
  }
  EXPECT_GE(cases, 12u);
}

// A stride leaves an operand simple (every relevant step still moves its
// tile past its span) but spaces its words apart: the rules count the
// points a tile touches, not the span its footprint counts.
TEST(OptimalSearcher, StridedOperandsAreSimpleAndCountedByTheirPoints) {
  const Problem strided = makeConv({1, 4, 4, 4, 4, 1, 1, 2, 2});
  const Problem window = makeConv({1, 4, 4, 4, 4, 3, 3});
  for (unsigned o = 0; o < strided.operands.size(); ++o) {
    const bool inputs = strided.operands[o].role == TensorRole::Inputs;
    EXPECT_TRUE(operandIsSimple(strided, o));
    EXPECT_EQ(operandHasUnitSteps(strided, o), !inputs);
    EXPECT_EQ(operandIsSimple(window, o), !inputs);
    if (!inputs)
      continue;
    std::vector<int64_t> extents;
    for (const LoopDim &dim : strided.dims)
      extents.push_back(dim.bound);
    EXPECT_EQ(simpleOperandPoints(strided, o, extents.data()), 4 * 4 * 4);
    EXPECT_EQ(strided.footprint(o, extents), 4 * 7 * 7);
  }
}

// Rule 2 takes a window's fills from the model's walk only where the
// frontier's tile touches every word of its footprint: a stride wider than
// the window's extent there, or a dilation wider than the slide, leaves
// gaps.
TEST(OptimalSearcher, WindowTilesWithGapsAreTold) {
  const Problem strided = makeConv({1, 4, 4, 8, 8, 3, 3, 2, 2});
  const Problem dilated = makeConv({1, 4, 4, 8, 8, 3, 3, 1, 1, 2, 2});
  unsigned inputs = 0;
  for (unsigned o = 0; o < strided.operands.size(); ++o) {
    const bool isInputs = strided.operands[o].role == TensorRole::Inputs;
    EXPECT_EQ(operandIsWindow(strided, o), isInputs);
    EXPECT_EQ(operandIsWindow(dilated, o), isInputs);
    if (!isInputs)
      continue;
    ++inputs;
    // Dims R S P Q C K N (Layers.h).
    auto gapless = [&](const Problem &problem, int64_t r, int64_t p) {
      const std::vector<int64_t> extents = {r, r, p, p, 4, 4, 1};
      return tileTouchesItsFootprint(problem, o, extents.data());
    };
    EXPECT_TRUE(gapless(strided, 3, 4));  // each window reaches the next
    EXPECT_TRUE(gapless(strided, 2, 4));  // just reaches it
    EXPECT_FALSE(gapless(strided, 1, 4)); // every other word
    EXPECT_TRUE(gapless(strided, 1, 1));  // one point
    EXPECT_FALSE(gapless(dilated, 3, 1)); // the dilation's gaps
    EXPECT_TRUE(gapless(dilated, 3, 2));  // filled by the slide
    EXPECT_TRUE(gapless(dilated, 1, 8));
  }
  EXPECT_EQ(inputs, 1u);
  // One dim twice on an axis (2p as p + p) steps over every other word:
  // not a window the rule takes.
  Problem twice = makeConv({1, 4, 4, 8, 8, 3, 3});
  for (unsigned o = 0; o < twice.operands.size(); ++o)
    if (twice.operands[o].role == TensorRole::Inputs) {
      std::vector<ProjectionTerm> &terms =
          twice.operands[o].projection[2].terms;
      terms.push_back(terms.front());
      EXPECT_FALSE(operandIsWindow(twice, o));
    }
}

/// Every valid mapping among `draws` samples of `layer` on each preset (and
/// under Timeloop's fill rule when `timeloopToo`), with its space.
void forEachSampledMapping(
    const Problem &layer, int draws, bool timeloopToo,
    const std::function<void(const MapSpace &, const Mapping &,
                             const Evaluation &)> &check) {
  for (const std::string &preset : presetNames())
    for (FillRule rule : {FillRule::Exact, FillRule::Timeloop}) {
      if (rule == FillRule::Timeloop && !timeloopToo)
        continue;
      Arch arch = *findPreset(preset);
      arch.fillRule = rule;
      std::string error;
      auto space = valueOr(MapSpace::create(layer, arch, {}), error);
      ASSERT_TRUE(space) << error;
      Rng rng(7);
      std::vector<int64_t> values(space->parameters().size());
      Evaluation evaluation;
      for (int i = 0; i < draws; ++i) {
        space->sample(rng, values.data());
        const Mapping mapping = space->decode(values);
        if (space->model().evaluate(mapping, evaluation))
          check(*space, mapping, evaluation);
      }
    }
}

/// A convolution's inputs read W as p - r: the window walks backwards.
Problem flippedWindow() {
  Problem flipped = makeConv({1, 8, 4, 12, 12, 3, 3});
  for (Operand &operand : flipped.operands)
    if (operand.role == TensorRole::Inputs)
      for (Coordinate &axis : operand.projection)
        for (ProjectionTerm &term : axis.terms)
          if (flipped.dims[term.dim].name == "R")
            term.coefficient = -term.coefficient;
  return flipped;
}

/// Convolutions whose inputs are windows: plain, backwards, depthwise,
/// strided (2 and 4), dilated, and a 7x7 first layer of stride 2.
std::vector<Problem> windowLayers() {
  std::vector<Problem> layers = {flippedWindow()};
  for (const char *text :
       {"conv:K=8,C=8,P=14,Q=14,R=3,S=3", "dwconv:C=16,P=14,Q=14,R=3,S=3",
        "conv:K=8,C=4,P=7,Q=7,R=3,S=3,stride=2",
        "conv:K=8,C=4,P=7,Q=7,R=3,S=3,stride=4",
        "conv:K=8,C=4,P=12,Q=12,R=3,S=3,dilation=2",
        "conv:K=8,C=3,P=14,Q=14,R=7,S=7,stride=2"}) {
    std::string error;
    std::optional<Problem> layer = optionalOr(parseLayer(text), error);
    EXPECT_TRUE(layer) << error;
    if (layer)
      layers.push_back(*layer);
  }
  return layers;
}

// Rule 2 for windows: wherever the frontier's tile touches its whole
// footprint, every keeper under it fills at least what the frontier level
// would, over all instances.
TEST(OptimalSearcher, WindowKeepersUnderTheFrontierFillWhatItWould) {
  unsigned checked = 0;
  for (const Problem &layer : windowLayers())
    forEachSampledMapping(
        layer, 400, false,
        [&](const MapSpace &space, const Mapping &m, const Evaluation &e) {
          const unsigned numLevels = m.levels.size();
          for (unsigned o = 0; o < layer.operands.size(); ++o) {
            if (!operandIsWindow(layer, o))
              continue;
            for (unsigned top = 1; top + 1 < numLevels; ++top) {
              std::vector<int64_t> tile(layer.dims.size(), 1);
              int64_t instances = 1;
              for (unsigned l = 0; l < numLevels; ++l)
                for (unsigned d = 0; d < layer.dims.size(); ++d) {
                  const int64_t spread =
                      m.levels[l].spatialX[d] * m.levels[l].spatialY[d];
                  if (l <= top)
                    tile[d] *= m.levels[l].temporal[d] * spread;
                  else
                    instances *= spread;
                }
              if (!tileTouchesItsFootprint(layer, o, tile.data()))
                continue;
              const int64_t walk = space.model().fillsIfKept(m, top, o);
              for (unsigned k = 0; k < top; ++k)
                if (m.levels[k].keep[o]) {
                  EXPECT_GE(e.at(k, o).totalFills(), instances * walk)
                      << space.arch().name << " keeper " << k << " under "
                      << top;
                  ++checked;
                }
            }
          }
        });
  EXPECT_GT(checked, 500u);
}

// Rule 8: a simple written operand's partitions, over a level's instances,
// hold its words once per copy the spreads above make on the dims it
// ignores.
TEST(OptimalSearcher, WrittenPartitionsAreTheWordsTimesTheCopiesAbove) {
  unsigned checked = 0;
  for (const Problem &layer :
       {makeConv({1, 8, 8, 14, 14, 3, 3}), makeGemm(48, 32, 64)})
    forEachSampledMapping(
        layer, 400, true,
        [&](const MapSpace &, const Mapping &m, const Evaluation &e) {
          for (unsigned o = 0; o < layer.operands.size(); ++o) {
            if (!layer.operands[o].isWritten())
              continue;
            const uint32_t relevant = relevantDimsOf(layer, o);
            for (unsigned l = 0; l < m.levels.size(); ++l) {
              int64_t copies = 1;
              for (unsigned above = l + 1; above < m.levels.size(); ++above)
                for (unsigned d = 0; d < layer.dims.size(); ++d)
                  if (!((relevant >> d) & 1))
                    copies *= m.levels[above].spatialX[d] *
                              m.levels[above].spatialY[d];
              if (!m.levels[l].keep[o])
                continue;
              EXPECT_EQ(e.at(l, o).partitionSize * e.at(l, o).instances,
                        layer.touchedWords(o) * copies);
              ++checked;
            }
          }
        });
  EXPECT_GT(checked, 500u);
}

/// The innermost of `level`'s loops of more than one step, or -1.
int innermostLoop(const LevelMapping &level) {
  int innermost = -1;
  for (unsigned d : level.order)
    if (level.temporal[d] > 1)
      innermost = int(d);
  return innermost;
}

/// Level `level`'s tile (every factor at and under it), and its instances.
std::vector<int64_t> tileAt(const Mapping &m, unsigned level) {
  std::vector<int64_t> tile(m.levels[0].temporal.size(), 1);
  for (unsigned below = 0; below <= level; ++below)
    for (unsigned d = 0; d < tile.size(); ++d)
      tile[d] *= m.levels[below].temporal[d] * m.levels[below].spatialX[d] *
                 m.levels[below].spatialY[d];
  return tile;
}
double instancesOf(const Mapping &m, unsigned level) {
  double instances = 1.0;
  for (unsigned above = level + 1; above < m.levels.size(); ++above)
    instances *= double(m.levels[above].spreadX() * m.levels[above].spreadY());
  return instances;
}

/// Checks that every keeper of read-only operand `o` under level `l` fills,
/// over its instances, at least `least` words.
void expectKeepersUnderFillAtLeast(const Problem &layer, const Mapping &m,
                                   const Evaluation &e, unsigned o, unsigned l,
                                   double least, unsigned &checked) {
  for (unsigned k = 0; k < l; ++k)
    if (m.levels[k].keep[o]) {
      EXPECT_GE(double(e.at(k, o).fills) * double(e.at(k, o).instances),
                least * (1 - 1e-12))
          << layer.operands[o].name << " kept at " << k << " under level " << l;
      ++checked;
    }
}

// Rule 10: when a loop a simple operand depends on is innermost at level
// l (of its loops of more than one step), every keeper under l fetches
// the points of l's tile once per step of every loop at l and above,
// those on dims the operand ignores included.
TEST(OptimalSearcher, KeepersPayEveryLoopOfALevelWhoseInnermostLoopIsTheirs) {
  std::string error;
  std::optional<Problem> strided =
      optionalOr(parseLayer("conv:K=16,C=8,P=7,Q=7,R=1,S=1,stride=2"), error);
  ASSERT_TRUE(strided) << error;
  unsigned checked = 0;
  for (const Problem &layer :
       {makeConv({2, 8, 8, 14, 14, 1, 1}), makeGemm(48, 32, 64), *strided})
    forEachSampledMapping(
        layer, 400, true,
        [&](const MapSpace &, const Mapping &m, const Evaluation &e) {
          for (unsigned l = 1; l < m.levels.size(); ++l) {
            const LevelMapping &level = m.levels[l];
            const int innermost = innermostLoop(level);
            if (innermost < 0)
              continue;
            const std::vector<int64_t> tile = tileAt(m, l);
            for (unsigned o = 0; o < layer.operands.size(); ++o) {
              const uint32_t relevant = relevantDimsOf(layer, o);
              if (layer.operands[o].isWritten() || !operandIsSimple(layer, o) ||
                  !((relevant >> innermost) & 1))
                continue;
              double ignoredLoops = 1.0;
              for (unsigned d = 0; d < tile.size(); ++d)
                if (!((relevant >> d) & 1))
                  ignoredLoops *= double(level.temporal[d]);
              expectKeepersUnderFillAtLeast(
                  layer, m, e, o, l,
                  instancesOf(m, l) *
                      double(simpleOperandPoints(layer, o, tile.data())) *
                      ignoredLoops *
                      double(refetchedLoops(m, l + 1, relevant, true)),
                  checked);
            }
          }
        });
  EXPECT_GT(checked, 500u);
}

// Rule 10 for windows: with a loop a window depends on innermost at level
// l, every keeper under l fills, per instance of level l - 1 on the
// window's own dims, what that loop's steps bring the tile there under
// every loop outside it (CostModel::fillsIfInnermost), wherever that tile
// touches its footprint; where it has gaps, level l - 1 itself does, if
// it keeps the window.
TEST(OptimalSearcher, WindowKeepersPayTheInnermostLoopsStepsUnderEveryLoop) {
  unsigned checked = 0, gapped = 0;
  for (const Problem &layer : windowLayers())
    forEachSampledMapping(
        layer, 400, false,
        [&](const MapSpace &space, const Mapping &m, const Evaluation &e) {
          for (unsigned l = 1; l < m.levels.size(); ++l) {
            const LevelMapping &level = m.levels[l];
            const int innermost = innermostLoop(level);
            if (innermost < 0)
              continue;
            const std::vector<int64_t> tile = tileAt(m, l - 1);
            for (unsigned o = 0; o < layer.operands.size(); ++o) {
              const uint32_t relevant = relevantDimsOf(layer, o);
              const bool touches =
                  tileTouchesItsFootprint(layer, o, tile.data());
              if (!operandIsWindow(layer, o) ||
                  !((relevant >> innermost) & 1) ||
                  !(touches || m.levels[l - 1].keep[o]))
                continue;
              double ownSpread = 1.0;
              for (unsigned d = 0; d < tile.size(); ++d)
                if ((relevant >> d) & 1)
                  ownSpread *= double(level.spatialX[d] * level.spatialY[d]);
              const double least = instancesOf(m, l) * ownSpread *
                                   double(space.model().fillsIfInnermost(
                                       m, l - 1, o, unsigned(innermost)));
              if (touches) {
                expectKeepersUnderFillAtLeast(layer, m, e, o, l, least,
                                              checked);
                continue;
              }
              const OperandStats &keeper = e.at(l - 1, o);
              EXPECT_GE(double(keeper.fills) * double(keeper.instances),
                        least * (1 - 1e-12))
                  << layer.operands[o].name << " kept at " << l - 1
                  << " with gaps";
              ++gapped;
            }
          }
        });
  EXPECT_GT(checked, 500u);
  EXPECT_GT(gapped, 100u);
}

/// Three levels (register files, a buffer, DRAM) and one MAC: no fanout,
/// so every figure but the orders' is the same for every completion.
Arch threeLevelsWithoutFanouts() {
  Arch arch;
  arch.name = "three";
  arch.compute.energyPerMac = 1.0;
  auto level = [](const char *name, std::optional<int64_t> entries,
                  double energy) {
    StorageLevel storage;
    storage.name = name;
    storage.entries = entries;
    storage.readEnergy = storage.writeEnergy = storage.updateEnergy = energy;
    storage.holds = RoleSet::all();
    return storage;
  };
  arch.levels = {level("RF", 64, 1.0), level("Buffer", 4096, 6.0),
                 level("DRAM", std::nullopt, 200.0)};
  return arch;
}

TEST(OptimalSearcher, BoundChargesTheReadsBackWithTheUpdatesTheySpreadWith) {
  // A 4x2x8 GEMM on four MACs under one buffer (1 pJ a read or an update
  // there, 100 in DRAM). Spread on N, an input serves two MACs; on K, the
  // partial sums are reduced before they are updated, and read back as
  // rarely. With only the best mapping's keeps decided, the bound charges
  // the reads back with the updates they spread with (rule 8 with rule
  // 1's spread) and reaches the optimum; with the reads counted at the
  // widest spread alone it stayed at 5698.5 pJ of 5720.
  Arch arch;
  arch.name = "one-buffer";
  arch.compute.instances = arch.compute.meshX = 4;
  auto level = [](const char *name, std::optional<int64_t> entries,
                  double energy) {
    StorageLevel storage;
    storage.name = name;
    storage.entries = entries;
    storage.readEnergy = storage.updateEnergy = energy;
    storage.holds = RoleSet::all();
    return storage;
  };
  arch.levels = {level("Buffer", 4096, 1.0),
                 level("DRAM", std::nullopt, 100.0)};
  std::string error;
  auto space = valueOr(MapSpace::create(makeGemm(4, 2, 8), arch, {}), error);
  ASSERT_TRUE(space) << error;
  const unsigned numLevels = arch.levels.size();
  PartialBound energy(*space, Objective::Energy);
  std::vector<int64_t> remaining;
  for (unsigned d = 0; d < space->problem().dims.size(); ++d)
    remaining.push_back(space->problem().dims[d].bound /
                        energy.fixedBelow(numLevels - 1, d));
  std::unique_ptr<Searcher> optimal =
      makeOptimalSearcher(*space, Objective::Energy, SearchBudget(100000));
  SearchOptions options;
  options.objective = Objective::Energy;
  options.budget = 100000;
  SearchResult found = runSearch(*space, *optimal, options);
  ASSERT_TRUE(found.certificate && found.certificate->complete);
  // Only the best mapping's keeps decided.
  Mapping keeps = space->fixedChoices();
  for (unsigned l = 0; l < numLevels; ++l)
    keeps.levels[l].keep = found.best.levels[l].keep;
  const double bound = energy.bound(keeps, remaining.data(), numLevels, 0);
  EXPECT_NEAR(found.bestCost, 5720.0, 1e-6);
  EXPECT_LE(bound, found.bestCost);
  EXPECT_GT(bound, found.bestCost * (1 - 1e-6));
}

TEST(OptimalSearcher, BoundOfALevelWithItsOrderOpenCountsItsLoops) {
  // A 4x4x4 GEMM with every loop at the buffer: each order there leaves one
  // operand reused (the one that ignores the innermost loop) and refetches
  // the other two into the register files 64 times over. Before the
  // buffer's order is chosen, the bound counts that (rule 10), though only
  // the keeps and the factors are decided.
  std::string error;
  auto space = valueOr(
      MapSpace::create(makeGemm(4, 4, 4), threeLevelsWithoutFanouts(), {}),
      error);
  ASSERT_TRUE(space) << error;
  Mapping mapping = space->fixedChoices();
  for (LevelMapping &level : mapping.levels)
    std::fill(level.keep.begin(), level.keep.end(), true);
  std::fill(mapping.levels[1].temporal.begin(),
            mapping.levels[1].temporal.end(), 4);
  // The least energy over the buffer's orders, and the most.
  double least = kInfinity, most = 0.0;
  std::vector<unsigned> &order = mapping.levels[1].order;
  std::sort(order.begin(), order.end());
  Evaluation evaluation;
  do {
    ASSERT_TRUE(space->model().evaluate(mapping, evaluation));
    least = std::min(least, evaluation.energy);
    most = std::max(most, evaluation.energy);
  } while (std::next_permutation(order.begin(), order.end()));
  ASSERT_GT(most, least); // the orders differ
  PartialBound bounds(*space, Objective::Energy);
  const std::vector<int64_t> remaining(3, 1);
  const double bound = bounds.bound(mapping, remaining.data(), 2, 3);
  EXPECT_LE(bound, least);
  EXPECT_GE(bound, least * (1 - 1e-6));
}

TEST(OptimalSearcher, BoundCountsAGappedWindowsWalkInItsKeeperRightUnder) {
  // Inputs at rows 2p + r (P = 2, R = 3, stride 2), kept in the register
  // file alone of the operands: its tile, P's two rows, leaves a gap
  // between them. The buffer loops over R, DRAM over K (4 steps, which
  // the inputs ignore): each K step walks R's three rows again. Before
  // level 1's order is chosen, the bound counts the register file's walk
  // of R under every K step (11 fills: its first 3 rows, and R's two
  // steps of a row each, 4 times), though the gap keeps the buffer's tile
  // (rows 0 to 4, which K's steps never move) from standing for it. Only
  // the 2 rows each K step's return brings (6 fills, each a read in the
  // buffer as well) are not counted; without the walk, the register file
  // and the buffer had 5 each, every row once.
  std::string error;
  std::optional<Problem> layer = optionalOr(
      parseLayer("conv:N=1,K=4,C=1,P=2,Q=1,R=3,S=1,stride=2"), error);
  ASSERT_TRUE(layer) << error;
  auto space =
      valueOr(MapSpace::create(*layer, threeLevelsWithoutFanouts(), {}), error);
  ASSERT_TRUE(space) << error;
  const auto dim = [&](const char *name) {
    for (unsigned d = 0; d < layer->dims.size(); ++d)
      if (layer->dims[d].name == name)
        return d;
    ADD_FAILURE() << "no dim " << name;
    return 0u;
  };
  Mapping mapping = space->fixedChoices();
  for (LevelMapping &level : mapping.levels)
    std::fill(level.keep.begin(), level.keep.end(), true);
  for (unsigned o = 0; o < layer->operands.size(); ++o)
    mapping.levels[0].keep[o] = layer->operands[o].role == TensorRole::Inputs;
  mapping.levels[0].temporal[dim("P")] = 2;
  mapping.levels[1].temporal[dim("R")] = 3;
  mapping.levels[2].temporal[dim("K")] = 4;
  Evaluation evaluation;
  ASSERT_TRUE(space->model().evaluate(mapping, evaluation));
  PartialBound bounds(*space, Objective::Energy);
  std::vector<int64_t> remaining(layer->dims.size(), 1);
  remaining[dim("P")] = 2; // the register file's: that level is undecided
  const double bound =
      bounds.bound(mapping, remaining.data(), 2, layer->dims.size());
  const double uncounted = 6 * (1.0 + 6.0);
  EXPECT_LE(bound, evaluation.energy);
  EXPECT_GE(bound, (evaluation.energy - uncounted) * (1 - 1e-6));
}

TEST(OptimalSearcher, GappedSpansMayShrinkWithAnOpenStridedFactor) {
  // Rows 2p + r: with R's extent 1, a factor f on an open P divides P's
  // span (2 (t - 1) + 1) by about f while its loop multiplies the steps
  // by f, so the span times f falls (2 t - 2 + 1 against 2 t - f): no
  // figure may rest on the fixed factor. With R's extent 2 or an open R
  // (a step of 1) it never falls.
  std::string error;
  std::optional<Problem> layer = optionalOr(
      parseLayer("conv:N=1,K=1,C=1,P=8,Q=1,R=3,S=1,stride=2"), error);
  ASSERT_TRUE(layer) << error;
  unsigned inputs = 0, p = 0, r = 0;
  for (unsigned o = 0; o < layer->operands.size(); ++o)
    if (layer->operands[o].role == TensorRole::Inputs)
      inputs = o;
  for (unsigned d = 0; d < layer->dims.size(); ++d) {
    if (layer->dims[d].name == "P")
      p = d;
    if (layer->dims[d].name == "R")
      r = d;
  }
  std::vector<int64_t> smallest(layer->dims.size(), 1), largest = smallest;
  largest[p] = 8; // P open, R's extent 1
  EXPECT_FALSE(spansGrowWithOpenFactors(*layer, inputs, smallest.data(),
                                        largest.data()));
  smallest[r] = largest[r] = 2; // R's extent 2: P's step reaches no further
  EXPECT_TRUE(spansGrowWithOpenFactors(*layer, inputs, smallest.data(),
                                       largest.data()));
  smallest[p] = largest[p] = 4; // only R open, a step of 1
  smallest[r] = 1;
  largest[r] = 3;
  EXPECT_TRUE(spansGrowWithOpenFactors(*layer, inputs, smallest.data(),
                                       largest.data()));
}

TEST(OptimalSearcher, EqualsEnumerationWhereTheRulesDoNotHold) {
  // Results written to every other element: the written operand is not
  // simple, so nothing but capacity may prune.
  Problem strided = matvec(4, 2);
  strided.operands[2].projection[0].terms[0].coefficient = 2;
  for (const char *preset : {"edge", "systolic-os"}) {
    std::string error;
    auto space =
        valueOr(MapSpace::create(strided, *findPreset(preset), {}), error);
    ASSERT_TRUE(space) << error;
    expectProvesTheOptimum(*space, std::string(preset) + " strided output");
  }
}

TEST(OptimalSearcher, EqualsEnumerationOnConvolutions) {
  unsigned cases = 0;
  // Loops N, K, C, P, Q, R, S (G: depthwise has none): a sliding window on
  // the inputs, strided or not, with P and R free to move at one level.
  const std::vector<std::pair<std::string, std::string>> layers = {
      {"conv", "conv:N=1,K=2,C=2,P=2,Q=1,R=2,S=1"},
      {"strided", "conv:N=1,K=2,C=1,P=3,Q=1,R=2,S=1,stride=2"},
      {"dilated", "conv:N=1,K=2,C=1,P=3,Q=1,R=2,S=1,dilation=2"},
      {"depthwise", "dwconv:N=1,C=2,P=4,Q=1,R=3,S=1"},
      // R = S = 1: the inputs count as simple, and the rules bound them,
      // strided too.
      {"pointwise", "conv:N=1,K=2,C=2,P=4,Q=1,R=1,S=1"},
      {"strided pointwise", "conv:N=1,K=2,C=2,P=4,Q=1,R=1,S=1,stride=2"},
  };
  for (const std::string &preset : presetNames()) {
    Arch arch = *findPreset(preset);
    for (const auto &[name, text] : layers) {
      std::string error;
      std::optional<Problem> problem = optionalOr(parseLayer(text), error);
      ASSERT_TRUE(problem) << error;
      unsigned numDims = problem->dims.size();
      // The loops that move: the window's two and one the inputs ignore.
      std::vector<unsigned> free;
      for (unsigned d = 0; d < numDims; ++d)
        if (problem->dims[d].name == "P" || problem->dims[d].name == "R" ||
            problem->dims[d].name == "K")
          free.push_back(d);
      for (unsigned level = 1; level < arch.levels.size(); ++level) {
        auto space = valueOr(
            MapSpace::create(*problem, arch,
                             ordersFixedBut(arch, level, free, numDims)),
            error);
        if (!space || space->log10Size() > 5.6)
          continue;
        expectProvesTheOptimum(*space, preset + " " + name + " free@" +
                                           arch.levels[level].name);
        ++cases;
      }
    }
  }
  EXPECT_GE(cases, 18u);
}

TEST(OptimalSearcher, EqualsEnumerationUnderSpatialConstraints) {
  // What each fanout may spread bounds the compute cycles: one dim alone
  // on each axis, one capped, or each dim on one axis only (the space
  // chooses the axis), with or without a cap on one axis. Orders fixed, so
  // that every factor split enumerates.
  unsigned cases = 0, eitherAxis = 0;
  for (const char *text : {"conv:N=1,K=4,C=3,P=2,Q=1,R=2,S=1",
                           "conv:N=1,K=4,C=3,P=1,Q=1,R=2,S=1"}) {
    std::string error;
    std::optional<Problem> conv = optionalOr(parseLayer(text), error);
    ASSERT_TRUE(conv) << error;
    const unsigned numDims = conv->dims.size();
    auto dim = [&](const char *name) {
      for (unsigned d = 0; d < numDims; ++d)
        if (conv->dims[d].name == name)
          return d;
      return numDims;
    };
    for (const std::string &preset : presetNames()) {
      Arch arch = *findPreset(preset);
      for (unsigned variant = 0; variant < 4; ++variant) {
        Constraints constraints = ordersFixedBut(arch, 0, {}, numDims);
        for (unsigned l = 0; l < arch.levels.size(); ++l) {
          if (arch.fanout(l) == 1)
            continue;
          LevelConstraints &level = constraints.levels[l];
          if (variant == 0) {
            level.spatialXDims = std::vector<unsigned>{dim("C")};
            level.spatialYDims = std::vector<unsigned>{dim("K")};
          } else if (variant == 1) {
            level.maxSpatialX[dim("K")] = 2;
            level.spatialYDims = std::vector<unsigned>{dim("P")};
          } else {
            level.exclusiveAxes = true;
            if (variant == 3)
              level.maxSpatialY[dim("C")] = 1;
          }
        }
        auto space = valueOr(MapSpace::create(*conv, arch, constraints), error);
        if (!space || space->log10Size() > 5.6)
          continue;
        for (unsigned d = 0; d < numDims; ++d)
          for (const MapSpace::FactorSlot &slot : space->factorSlots(d))
            eitherAxis += slot.kind == 3;
        expectProvesTheOptimum(*space, preset + " " + text + " variant " +
                                           std::to_string(variant));
        ++cases;
      }
    }
  }
  EXPECT_GE(cases, 12u);
  EXPECT_GT(eitherAxis, 0u);
}

TEST(OptimalSearcher, EqualsEnumerationWithThreeLoopsFreeAtALevel) {
  // A GEMM's six orders fall into three classes for its simple operands
  // (which loop is innermost): trying one per class must lose nothing.
  unsigned cases = 0;
  for (const std::string &preset : presetNames()) {
    Arch arch = *findPreset(preset);
    for (unsigned level = 1; level < arch.levels.size(); ++level) {
      std::string error;
      auto space =
          valueOr(MapSpace::create(makeGemm(4, 2, 2), arch,
                                   ordersFixedBut(arch, level, {0, 1, 2}, 3)),
                  error);
      if (!space || space->log10Size() > 5.6)
        continue;
      expectProvesTheOptimum(*space,
                             preset + " gemm free@" + arch.levels[level].name);
      ++cases;
    }
  }
  EXPECT_GE(cases, 10u);
}

// The searcher tries one order per class (PartialBound::orderClass): on
// sampled mappings, every order of a level's moving loops that shares a
// class with another must cost the same, and some classes must hold
// several orders, or the check would not bite.
TEST(OptimalSearcher, OrdersOfOneClassCostTheSame) {
  unsigned merged = 0;
  for (const std::string &preset : presetNames()) {
    for (const char *layer :
         {"gemm:M=64,N=48,K=32", "conv:N=2,K=32,C=16,P=14,Q=14,R=1,S=1",
          "conv:N=2,K=32,C=16,P=14,Q=14,R=1,S=1,stride=2",
          "conv:N=1,K=16,C=8,P=14,Q=14,R=3,S=3"}) {
      std::string error;
      std::optional<Problem> problem = optionalOr(parseLayer(layer), error);
      ASSERT_TRUE(problem) << error;
      auto space =
          valueOr(MapSpace::create(*problem, *findPreset(preset), {}), error);
      if (!space)
        continue; // not a problem this preset's dataflow takes
      PartialBound bounds(*space, Objective::EDP);
      Rng rng(5);
      std::vector<int64_t> values(space->parameters().size());
      Mapping mapping;
      Evaluation evaluation;
      for (unsigned i = 0, checked = 0; i < 5000 && checked < 10; ++i) {
        space->sample(rng, values.data());
        space->decode(values.data(), mapping);
        if (!space->model().evaluate(mapping, evaluation))
          continue;
        ++checked;
        for (unsigned l = 1; l < mapping.levels.size(); ++l) {
          const std::vector<unsigned> &ordered = space->orderedLoops(l);
          std::vector<unsigned> moving, still;
          for (unsigned d : ordered)
            (mapping.levels[l].temporal[d] > 1 ? moving : still).push_back(d);
          std::sort(moving.begin(), moving.end());
          std::map<std::vector<uint32_t>, std::pair<double, int64_t>> costs;
          do {
            Mapping variant = mapping;
            std::vector<unsigned> &order = variant.levels[l].order;
            std::copy(moving.begin(), moving.end(), order.begin());
            std::copy(still.begin(), still.end(),
                      order.begin() + moving.size());
            Evaluation cost = space->model().evaluate(variant);
            auto [seen, fresh] =
                costs.emplace(bounds.orderClass(variant, l, moving),
                              std::make_pair(cost.energy, cost.cycles));
            if (fresh)
              continue;
            ++merged;
            EXPECT_EQ(seen->second.first, cost.energy)
                << preset << " " << layer;
            EXPECT_EQ(seen->second.second, cost.cycles)
                << preset << " " << layer;
          } while (std::next_permutation(moving.begin(), moving.end()));
        }
      }
    }
  }
  EXPECT_GT(merged, 1000u);
}

TEST(OptimalSearcher, BoundIsNeverAboveASampledMapping) {
  // Most of these searches stop at their budget with a bound under their
  // best mapping (some prove an energy optimum in it): no sampled mapping
  // is below either.
  std::string error;
  int unfinished = 0;
  for (const char *preset : {"eyeriss", "simba", "systolic-ws"}) {
    auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                          *findPreset(preset), {}),
                         error);
    ASSERT_TRUE(space) << error;
    for (Objective objective : kObjectives) {
      SearchResult result = runOptimal(*space, objective, 300);
      ASSERT_TRUE(result.certificate);
      unfinished += !result.certificate->complete;
      double bound = result.certificate->lowerBound;
      EXPECT_GE(bound, objectiveBound(space->model().lowerBound(), objective) *
                           (1 - 1e-9));
      EXPECT_LE(bound, result.bestCost);
      Rng rng(11);
      std::vector<int64_t> values(space->parameters().size());
      Evaluation evaluation;
      for (int i = 0; i < 20000; ++i) {
        space->sample(rng, values.data());
        if (space->model().evaluate(space->decode(values), evaluation)) {
          ASSERT_GE(objectiveValue(evaluation, objective), bound)
              << preset << " " << objectiveName(objective);
        }
      }
    }
  }
  EXPECT_GE(unfinished, 6);
}

/// Every partial mapping on `mapping`'s path from the root (its keeps,
/// then from the outermost level inwards each dim's factors, a level at a
/// time) has a bound no higher than the mapping's own objective.
void expectBoundsAlongThePath(const MapSpace &space, const Mapping &mapping,
                              Objective objective, const std::string &what) {
  Evaluation evaluation;
  if (!space.model().evaluate(mapping, evaluation))
    return;
  const double cost = objectiveValue(evaluation, objective);
  PartialBound bounds(space, objective);
  const Mapping &fixed = space.fixedChoices();
  const unsigned numDims = space.problem().dims.size(),
                 numLevels = space.arch().levels.size();
  for (unsigned decided = numLevels + 1; decided-- > 1;)
    for (unsigned dims = 0; dims <= numDims; ++dims) {
      // Level decided - 1 has the factors of its first `dims` dims, the
      // others their fixed ones; what is left goes below.
      Mapping partial = mapping;
      LevelMapping &frontier = partial.levels[decided - 1];
      std::vector<int64_t> remaining(numDims);
      for (unsigned d = 0; d < numDims; ++d) {
        if (d >= dims) {
          frontier.temporal[d] = fixed.levels[decided - 1].temporal[d];
          frontier.spatialX[d] = fixed.levels[decided - 1].spatialX[d];
          frontier.spatialY[d] = fixed.levels[decided - 1].spatialY[d];
        }
        int64_t above = 1;
        for (unsigned l = decided - 1; l < numLevels; ++l)
          above *= partial.levels[l].temporal[d] *
                   partial.levels[l].spatialX[d] *
                   partial.levels[l].spatialY[d];
        remaining[d] = space.problem().dims[d].bound / above /
                       (decided > 1 ? bounds.fixedBelow(decided - 2, d) : 1);
      }
      EXPECT_LE(bounds.bound(partial, remaining.data(), decided, dims), cost)
          << what << " " << objectiveName(objective) << ", levels from "
          << decided << " decided, and " << dims << " dims of the next";
      // Rule 9 (the order of level decided - 1 open, whatever it is).
      if (dims == numDims) {
        EXPECT_LE(bounds.orderFreeBound(partial, remaining.data(), decided),
                  cost)
            << what << " " << objectiveName(objective)
            << ", any order at level " << decided - 1;
      }
    }
}

TEST(OptimalSearcher, BoundHoldsAlongRandomMappings) {
  // Random valid mappings reach shapes the best ones avoid (spreads on
  // ignored dims under and over every level, keepers far apart), where the
  // rules on refetches and multicast would be wrong first.
  std::string error;
  const std::vector<std::pair<const char *, const char *>> layers = {
      {"gemm", "gemm:M=64,N=48,K=96"},
      {"pointwise", "conv:N=2,K=32,C=48,P=14,Q=14"},
      {"3x3", "conv:K=16,C=24,P=14,Q=14,R=3,S=3"},
      {"depthwise", "dwconv:C=32,P=28,Q=28,R=3,S=3"},
      {"strided", "conv:K=16,C=8,P=7,Q=7,R=3,S=3,stride=2"},
      {"strided pointwise", "conv:K=16,C=8,P=7,Q=7,R=1,S=1,stride=2"},
      {"stride 4", "conv:K=16,C=8,P=7,Q=7,R=3,S=3,stride=4"},
      {"dilated", "conv:K=16,C=8,P=14,Q=14,R=3,S=3,dilation=2"},
  };
  std::vector<std::pair<std::string, Problem>> problems = {
      {"flipped window", flippedWindow()}};
  for (const auto &[name, text] : layers) {
    std::optional<Problem> problem = optionalOr(parseLayer(text), error);
    ASSERT_TRUE(problem) << error;
    problems.emplace_back(name, *problem);
  }
  for (const auto &[name, problem] : problems)
    for (const std::string &preset : presetNames())
      for (FillRule rule : {FillRule::Exact, FillRule::Timeloop}) {
        Arch arch = *findPreset(preset);
        arch.fillRule = rule;
        auto space = valueOr(MapSpace::create(problem, arch, {}), error);
        ASSERT_TRUE(space) << error;
        Rng rng(5);
        std::vector<int64_t> values(space->parameters().size());
        Evaluation evaluation;
        int checked = 0;
        for (int i = 0; i < 20000 && checked < 300; ++i) {
          space->sample(rng, values.data());
          const Mapping mapping = space->decode(values);
          if (!space->model().evaluate(mapping, evaluation))
            continue;
          ++checked;
          for (Objective objective : kObjectives)
            expectBoundsAlongThePath(*space, mapping, objective,
                                     name + " on " + preset + ", " +
                                         fillRuleName(rule) + " fills");
        }
        EXPECT_GT(checked, 0) << name << " on " << preset;
      }
}

TEST(OptimalSearcher, EdpBoundTradesTheMacsSideAgainstTheCompute) {
  // On eyeriss a 3x3 convolution's outputs reduce over C, R and S at the
  // global buffer's fanout: spread over those alone they leave PEs idle,
  // so with only the keeps decided the EDP bound is above the energy
  // bound times the cycle bound (rule 7), and still under the EDP of a
  // mapping with those keeps.
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  std::unique_ptr<Searcher> annealing =
      makeAnnealingSearcher(*space, 3, SearchBudget(20000), AnnealingOptions());
  SearchOptions options;
  options.budget = 20000;
  SearchResult found = runSearch(*space, *annealing, options);
  ASSERT_TRUE(found.found);
  // Only the keeps decided: every level at its fixed factors.
  Mapping keeps = space->fixedChoices();
  const unsigned numLevels = space->arch().levels.size();
  for (unsigned l = 0; l < numLevels; ++l)
    keeps.levels[l].keep = found.best.levels[l].keep;
  PartialBound edp(*space, Objective::EDP), energy(*space, Objective::Energy),
      latency(*space, Objective::Latency);
  std::vector<int64_t> remaining;
  for (unsigned d = 0; d < space->problem().dims.size(); ++d)
    remaining.push_back(space->problem().dims[d].bound /
                        edp.fixedBelow(numLevels - 1, d));
  auto boundOf = [&](const PartialBound &bounds) {
    return bounds.bound(keeps, remaining.data(), numLevels, 0);
  };
  EXPECT_GT(boundOf(edp), 1.01 * boundOf(energy) * boundOf(latency));
  EXPECT_LE(boundOf(edp), found.bestCost);
}

TEST(OptimalSearcher, BoundTradesTheAccumulatorsSpreadAgainstItsBandwidth) {
  // On simba the partial sums of a layer with three input channels are
  // kept in the PEs' accumulators (2 words a cycle each) under three
  // fanouts. Spread four ways there on K, each accumulator takes four
  // updates a cycle; spread three ways on C, R or S, one, but a quarter of
  // the MACs idle: with only the keeps decided, the cycles are at least
  // 4/3 of all MACs busy.
  std::string error;
  std::optional<Problem> conv =
      optionalOr(parseLayer("conv:N=1,K=64,C=3,P=28,Q=28,R=3,S=3"), error);
  ASSERT_TRUE(conv) << error;
  auto space =
      valueOr(MapSpace::create(*conv, *findPreset("simba"), {}), error);
  ASSERT_TRUE(space) << error;
  const Arch &arch = space->arch();
  const unsigned numLevels = arch.levels.size();
  Mapping keeps = space->fixedChoices();
  for (unsigned l = 0; l < numLevels; ++l)
    for (unsigned o = 0; o < conv->operands.size(); ++o)
      keeps.levels[l].keep[o] =
          l + 1 == numLevels ||
          arch.levels[l].holds.contains(conv->operands[o].role);
  PartialBound latency(*space, Objective::Latency), edp(*space, Objective::EDP),
      energy(*space, Objective::Energy);
  std::vector<int64_t> remaining;
  for (unsigned d = 0; d < conv->dims.size(); ++d)
    remaining.push_back(conv->dims[d].bound /
                        latency.fixedBelow(numLevels - 1, d));
  auto boundOf = [&](const PartialBound &bounds) {
    return bounds.bound(keeps, remaining.data(), numLevels, 0);
  };
  const double allBusy =
      double(conv->iterations()) / double(arch.compute.instances);
  EXPECT_GT(boundOf(latency), 1.3 * allBusy);
  // The EDP takes those cycles with the energy bound.
  EXPECT_GE(boundOf(edp), boundOf(energy) * boundOf(latency) * (1 - 1e-6));
}

// Rule 7's bandwidth: an operand's words on the MACs' side of its
// innermost keeper, over that level's instances, are at least the MACs
// over the spread of the dims it ignores at and under that level.
TEST(OptimalSearcher, MacsSideWordsPassThroughTheirKeepersInstances) {
  std::string error;
  std::optional<Problem> strided =
      optionalOr(parseLayer("conv:K=16,C=8,P=7,Q=7,R=3,S=3,stride=2"), error);
  std::optional<Problem> depthwise =
      optionalOr(parseLayer("dwconv:C=16,P=14,Q=14,R=3,S=3"), error);
  ASSERT_TRUE(strided && depthwise) << error;
  unsigned checked = 0;
  for (const Problem &layer : {makeConv({2, 8, 8, 14, 14, 3, 3}),
                               makeGemm(48, 32, 64), *strided, *depthwise})
    forEachSampledMapping(
        layer, 300, true,
        [&](const MapSpace &, const Mapping &m, const Evaluation &e) {
          const unsigned numLevels = m.levels.size(),
                         numDims = layer.dims.size();
          const double macs = double(layer.iterations());
          for (unsigned o = 0; o < layer.operands.size(); ++o) {
            unsigned keeper = 0;
            while (!m.levels[keeper].keep[o])
              ++keeper;
            const uint32_t relevant = relevantDimsOf(layer, o);
            double ignoredSpread = 1.0, instances = 1.0;
            for (unsigned l = 0; l < numLevels; ++l) {
              if (l > keeper)
                instances *=
                    double(m.levels[l].spreadX() * m.levels[l].spreadY());
              else
                for (unsigned d = 0; d < numDims; ++d)
                  if (!((relevant >> d) & 1))
                    ignoredSpread *= double(m.levels[l].spatialX[d] *
                                            m.levels[l].spatialY[d]);
            }
            const OperandStats &stats = e.at(keeper, o);
            const double words = layer.operands[o].isWritten()
                                     ? double(stats.fills + stats.updates)
                                     : double(stats.reads);
            EXPECT_GE(words * instances * ignoredSpread, macs * (1 - 1e-12))
                << layer.operands[o].name << " kept at " << keeper;
            ++checked;
          }
        });
  EXPECT_GT(checked, 1000u);
}

TEST(OptimalSearcher, BoundCountsOnlyWhatTheFanoutsMaySpread) {
  // Every fanout may spread C alone, and C is 3: however the rest is
  // mapped, at most 3 MACs work at once, which the bound knows before
  // anything but the keeps is decided.
  std::string error;
  std::optional<Problem> conv =
      optionalOr(parseLayer("conv:N=1,K=4,C=3,P=4,Q=1,R=3,S=1"), error);
  ASSERT_TRUE(conv) << error;
  const unsigned c = 4; // R, S, P, Q, C, K, N
  ASSERT_EQ(conv->dims[c].name, "C");
  const Arch arch = *findPreset("edge");
  Constraints onlyC;
  onlyC.levels.resize(arch.levels.size());
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    if (arch.fanout(l) > 1) {
      onlyC.levels[l].spatialXDims = std::vector<unsigned>{c};
      onlyC.levels[l].spatialYDims = std::vector<unsigned>{c};
    }
  auto space = valueOr(MapSpace::create(*conv, arch, onlyC), error);
  ASSERT_TRUE(space) << error;
  ASSERT_LT(space->arch().compute.instances, 144);
  PartialBound bounds(*space, Objective::Latency);
  const unsigned numLevels = arch.levels.size();
  Mapping keeps = space->fixedChoices();
  for (unsigned l = 0; l < numLevels; ++l)
    std::fill(keeps.levels[l].keep.begin(), keeps.levels[l].keep.end(),
              l + 1 == numLevels);
  std::vector<int64_t> remaining;
  for (unsigned d = 0; d < conv->dims.size(); ++d)
    remaining.push_back(conv->dims[d].bound /
                        bounds.fixedBelow(numLevels - 1, d));
  EXPECT_GE(bounds.bound(keeps, remaining.data(), numLevels, 0),
            48 * (1 - 1e-6));
}

TEST(OptimalSearcher, BoundHoldsAlongTheBestMappingsOfOtherSearchers) {
  std::string error;
  const std::vector<std::pair<const char *, Problem>> layers = {
      {"resnet50 res5 3x3", makeConv({1, 512, 512, 7, 7, 3, 3})},
      {"resnet50 res2 3x3", makeConv({1, 64, 64, 56, 56, 3, 3})},
      {"mobilenet pw", makeConv({1, 24, 144, 56, 56, 1, 1})},
      {"resnet50 res3 1x1, stride 2",
       makeConv({1, 512, 256, 28, 28, 1, 1, 2, 2})},
      {"bert qkv", makeGemm(512, 768, 768)},
  };
  for (const auto &[name, problem] : layers)
    for (const char *preset : {"eyeriss", "simba", "systolic-ws"}) {
      auto space =
          valueOr(MapSpace::create(problem, *findPreset(preset), {}), error);
      ASSERT_TRUE(space) << error;
      for (Objective objective : kObjectives) {
        // Annealing's path through good mappings, every improvement on it.
        std::unique_ptr<Searcher> annealing = makeAnnealingSearcher(
            *space, 5, SearchBudget(100000), AnnealingOptions());
        SearchOptions options;
        options.objective = objective;
        options.budget = 100000;
        SearchResult result = runSearch(*space, *annealing, options);
        ASSERT_TRUE(result.found) << name << " " << preset;
        expectBoundsAlongThePath(*space, result.best, objective,
                                 std::string(name) + " on " + preset);
      }
    }
}

TEST(OptimalSearcher, SharedSpreadCostSolvesItsProblem) {
  // Cases whose continuous optimum is an integer point, worked by hand.
  auto cost = [](std::vector<SpreadTerm> terms, double fanout) {
    return leastSharedSpreadCost(terms, fanout);
  };
  EXPECT_NEAR(cost({{100, 16}, {100, 16}}, 16), 50.0, 1e-9); // 4 x 4
  EXPECT_NEAR(cost({{400, 16}, {100, 16}}, 64), 50.0, 1e-9); // 16 x 4
  // The first term stops at its room; the second takes the rest.
  EXPECT_NEAR(cost({{400, 4}, {100, 64}}, 32), 112.5, 1e-9);   // 4 x 8
  EXPECT_NEAR(cost({{100, 16}, {100, 16}}, 1000), 12.5, 1e-9); // both full
  EXPECT_NEAR(cost({{100, 16}, {0, 16}}, 4), 25.0, 1e-9);      // 4 x any
}

/// The least sum of weight / X over `terms`, each X one of its `lists`,
/// whose product is at most `fanout`: every choice, tried.
double leastOverEveryChoice(const std::vector<SpreadTerm> &terms,
                            const std::vector<std::vector<int64_t>> &lists,
                            double fanout) {
  double least = kInfinity;
  std::function<void(size_t, double, double)> spread =
      [&](size_t i, double product, double cost) {
        if (i == terms.size()) {
          least = std::min(least, cost);
          return;
        }
        for (int64_t x : lists[i])
          if (product * double(x) <= fanout)
            spread(i + 1, product * double(x), cost + terms[i].weight / x);
      };
  spread(0, 1.0, 0.0);
  return least;
}

TEST(OptimalSearcher, SharedSpreadCostIsTheLeastOverEveryIntegerSpread) {
  // Rule 4's relaxation against every integer choice of spreads: never
  // above the least of them, and close to it where the rooms divide well.
  Rng rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<SpreadTerm> terms(1 + rng.below(3));
    std::vector<std::vector<int64_t>> every(terms.size());
    for (size_t t = 0; t < terms.size(); ++t) {
      terms[t].weight = double(rng.below(1000));
      terms[t].room = double(1 + rng.below(16));
      for (int64_t x = 1; x <= int64_t(terms[t].room); ++x)
        every[t].push_back(x);
    }
    const double fanout = double(1 + rng.below(64));
    const double least = leastOverEveryChoice(terms, every, fanout);
    const double relaxed = leastSharedSpreadCost(terms, fanout);
    EXPECT_LE(relaxed, least * (1 + 1e-12)) << "trial " << trial;
    // Never below what each term costs at its own widest spread.
    double alone = 0.0;
    for (const SpreadTerm &term : terms)
      alone += term.weight / term.room;
    EXPECT_GE(relaxed, alone * (1 - 1e-12)) << "trial " << trial;
    // The relaxation is tight when one term takes the whole fanout.
    if (terms.size() == 1) {
      EXPECT_NEAR(relaxed, terms[0].weight / std::min(terms[0].room, fanout),
                  1e-9 * (1 + least));
    }
  }
}

TEST(OptimalSearcher, SharedSpreadCostOverChoicesIsTheLeastOverThem) {
  // Rule 4 over the spreads the fanouts can take: exactly the least over
  // every choice whose product fits, and never below the relaxation.
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<SpreadTerm> terms(1 + rng.below(3));
    std::vector<std::vector<int64_t>> lists(terms.size());
    std::vector<const std::vector<int64_t> *> choices;
    for (size_t t = 0; t < terms.size(); ++t) {
      terms[t].weight = double(rng.below(1000));
      terms[t].room = double(1 + rng.below(16));
      for (int64_t x = 1; x <= int64_t(terms[t].room); ++x)
        if (x == 1 || rng.below(2))
          lists[t].push_back(x);
      terms[t].room = double(lists[t].back());
      choices.push_back(&lists[t]);
    }
    const double fanout = double(1 + rng.below(64));
    const double least = leastOverEveryChoice(terms, lists, fanout);
    const double over = leastSharedSpreadCostOver(terms, choices, fanout);
    EXPECT_NEAR(over, least, 1e-9 * least) << "trial " << trial;
    EXPECT_GE(over, leastSharedSpreadCost(terms, fanout) * (1 - 1e-12))
        << "trial " << trial;
  }
  // A first layer's MACs' sides on simba, under one four-lane fanout: the
  // weights spread on P, the inputs on K (each 1, 2 or 4 ways), the
  // partial sums on C (3 = C, or 1). The relaxation splits the lanes 1 x
  // 2.1 x 1.9 ways; the fanout's real choices cost 13% more.
  const std::vector<SpreadTerm> firstLayer = {
      {7.62e7, 4.0}, {1.625e8, 4.0}, {1.413e8, 3.0}};
  const std::vector<int64_t> powers = {1, 2, 4}, channels = {1, 3};
  const double relaxed = leastSharedSpreadCost(firstLayer, 4.0);
  const double over =
      leastSharedSpreadCostOver(firstLayer, {&powers, &powers, &channels}, 4.0);
  EXPECT_NEAR(over, 7.62e7 + 1.625e8 / 4 + 1.413e8, 1.0);
  EXPECT_NEAR(relaxed, 2.28e8, 0.01e8);
}

TEST(OptimalSearcher, BeforeItsFirstStepOnlyTheModelsBoundHolds) {
  // Its keeps are not chosen yet: a bound taken with any one choice of
  // them (the space's default keeps, say) need not hold for the others.
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 512, 512, 7, 7, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  for (Objective objective : kObjectives) {
    std::unique_ptr<Searcher> searcher =
        makeOptimalSearcher(*space, objective, SearchBudget(1000));
    std::optional<SearchCertificate> certificate = searcher->certificate();
    ASSERT_TRUE(certificate);
    EXPECT_FALSE(certificate->complete);
    EXPECT_DOUBLE_EQ(certificate->lowerBound,
                     objectiveBound(space->model().lowerBound(), objective));
  }
}

TEST(OptimalSearcher, FirstProposalIsValid) {
  std::string error;
  for (const std::string &preset : presetNames()) {
    auto space = valueOr(MapSpace::create(makeConv({1, 64, 64, 56, 56, 3, 3}),
                                          *findPreset(preset), {}),
                         error);
    if (!space)
      continue;
    SearchResult result = runOptimal(*space, Objective::EDP, 1, 1);
    EXPECT_EQ(result.samples, 1) << preset;
    EXPECT_TRUE(result.found) << preset;
  }
}

TEST(OptimalSearcher, SameAnswerWhateverTheBatch) {
  std::string error;
  auto space =
      valueOr(MapSpace::create(matvec(12, 8), *findPreset("edge"), {}), error);
  ASSERT_TRUE(space) << error;
  SearchResult one = runOptimal(*space, Objective::EDP, 10'000'000, 1);
  SearchResult many = runOptimal(*space, Objective::EDP, 10'000'000, 64);
  ASSERT_TRUE(one.certificate && many.certificate);
  EXPECT_TRUE(one.certificate->complete && many.certificate->complete);
  EXPECT_DOUBLE_EQ(one.bestCost, many.bestCost);
  SearchResult again = runOptimal(*space, Objective::EDP, 10'000'000, 64);
  EXPECT_EQ(many.curve, again.curve);
  EXPECT_TRUE(many.best == again.best);
}

TEST(OptimalSearcher, ResumedAfterItsTimeItProvesTheSameOptimum) {
  // Stopped by a time budget far too short for the proof and resumed a
  // little at a time, the search goes on where it stopped: it proves the
  // optimum an uninterrupted search proves, its samples are those of all
  // its runs, and once proved it does not resume.
  std::string error;
  auto space =
      valueOr(MapSpace::create(matvec(24, 16), *findPreset("edge"), {}), error);
  ASSERT_TRUE(space) << error;
  SearchResult whole = runOptimal(*space, Objective::EDP, 10'000'000);
  ASSERT_TRUE(whole.certificate && whole.certificate->complete);

  constexpr double kSlice = 1e-4;
  std::unique_ptr<Searcher> searcher = makeOptimalSearcher(
      *space, Objective::EDP, SearchBudget(0, kSlice), OptimalOptions());
  SearchOptions options;
  options.objective = Objective::EDP;
  options.budget = 10'000'000;
  options.seconds = kSlice;
  SearchResult sliced;
  continueSearch(*space, *searcher, options, sliced);
  ASSERT_TRUE(sliced.certificate);
  EXPECT_FALSE(sliced.certificate->complete) << "proved in its first slice";
  int64_t samplesBefore = sliced.samples;
  // A slice runs a batch at least: a search that went on where it stopped
  // needs about a slice per batch of the whole search's samples; one that
  // started again each time would never end.
  const int64_t mostRuns = 8 * (whole.samples / 64 + 1) + 100;
  int64_t runs = 1;
  while (!sliced.certificate->complete && runs < mostRuns) {
    ASSERT_TRUE(searcher->resume(kSlice));
    continueSearch(*space, *searcher, options, sliced);
    ASSERT_TRUE(sliced.certificate);
    EXPECT_GE(sliced.samples, samplesBefore);
    EXPECT_LE(sliced.certificate->lowerBound, sliced.bestCost);
    samplesBefore = sliced.samples;
    ++runs;
  }
  EXPECT_GT(runs, 1);
  ASSERT_TRUE(sliced.certificate->complete);
  EXPECT_DOUBLE_EQ(sliced.bestCost, whole.bestCost);
  EXPECT_DOUBLE_EQ(sliced.certificate->lowerBound, whole.bestCost);
  // The result kept every run's samples and improvements.
  EXPECT_GE(sliced.samples, whole.samples / 2);
  ASSERT_FALSE(sliced.curve.empty());
  EXPECT_EQ(sliced.curve.back().second, sliced.bestCost);
  EXPECT_FALSE(searcher->resume(kSlice));
}

TEST(OptimalSearcher, RestartsFollowTheSeed) {
  // A space the walks do not finish within the budget: the polish
  // restarts, the same seed and batch give the same search, another seed
  // another one, and every certificate stays under every mapping found.
  // Each kind of restart searches differently (the genetic population's
  // proposals are not the kicks'). A search stopped inside a batch (no
  // better mapping in 40 samples) leaves proposals unevaluated: its
  // certificate stays under its best.
  std::string error;
  auto space = valueOr(MapSpace::create(makeConv({1, 16, 8, 14, 12, 3, 3}),
                                        *findPreset("eyeriss"), {}),
                       error);
  ASSERT_TRUE(space) << error;
  std::vector<std::vector<std::pair<int64_t, double>>> curves;
  for (OptimalRestarts restarts :
       {OptimalRestarts::Kicks, OptimalRestarts::Genetic,
        OptimalRestarts::Both}) {
    OptimalOptions options;
    options.restarts = restarts;
    options.seed = 5;
    SearchResult first = runOptimal(*space, Objective::EDP, 4001, 16, options);
    SearchResult again = runOptimal(*space, Objective::EDP, 4001, 16, options);
    options.seed = 6;
    SearchResult other = runOptimal(*space, Objective::EDP, 4001, 16, options);
    const std::string label = "restarts " + std::to_string(int(restarts));
    EXPECT_EQ(first.curve, again.curve) << label;
    EXPECT_TRUE(first.best == again.best) << label;
    EXPECT_NE(first.curve, other.curve) << label;
    for (const SearchResult *result : {&first, &other}) {
      ASSERT_TRUE(result->certificate) << label;
      EXPECT_FALSE(result->certificate->complete) << label;
      EXPECT_LE(result->certificate->lowerBound, first.bestCost) << label;
      EXPECT_LE(result->certificate->lowerBound, other.bestCost) << label;
    }
    for (const auto &earlier : curves)
      EXPECT_NE(earlier, first.curve) << label;
    curves.push_back(first.curve);

    std::unique_ptr<Searcher> stopping = makeOptimalSearcher(
        *space, Objective::EDP, SearchBudget(4001), options);
    SearchOptions stopAfter;
    stopAfter.objective = Objective::EDP;
    stopAfter.budget = 4001;
    stopAfter.batch = 16;
    stopAfter.stopAfter = 40;
    SearchResult stopped = runSearch(*space, *stopping, stopAfter);
    EXPECT_TRUE(stopped.stoppedEarly) << label;
    EXPECT_NE(stopped.samples % 16, 0) << label;
    ASSERT_TRUE(stopped.certificate) << label;
    EXPECT_LE(stopped.certificate->lowerBound, stopped.bestCost) << label;
  }
}

} // namespace
