//===- OptimalDominanceTest.cpp - The state the exact searcher merges on --===//
//
// Dominance (lib/Search/OptimalDominance.h) drops a partial mapping when an
// earlier one with the same state has no higher decided figures. That is
// safe only if the state is all the lower levels see: checked here on every
// point of small spaces, by grafting one mapping's factors and orders under
// a cut into another whenever their states there agree and comparing the
// model's counts under the cut.
//
//===----------------------------------------------------------------------===//

#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"

#include "OptimalDominance.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <memory>

using namespace marlmap;

namespace {

/// The counts of `evaluation` that the state must fix for a cut at
/// `decided`: every operand's at the levels under it, and the reads and
/// updates of a decided level whose next kept level down is under it.
std::vector<int64_t> countsUnderTheCut(const Evaluation &evaluation,
                                       const Mapping &mapping,
                                       unsigned decided) {
  std::vector<int64_t> counts;
  const unsigned numOperands = mapping.levels[0].keep.size();
  for (unsigned o = 0; o < numOperands; ++o) {
    int child = -1;
    for (unsigned l = 0; l < mapping.levels.size(); ++l) {
      if (!mapping.levels[l].keep[o])
        continue;
      const OperandStats &stats = evaluation.at(l, o);
      if (l < decided)
        counts.insert(counts.end(), {stats.fills, stats.reads, stats.updates,
                                     stats.partitionSize, stats.instances});
      else if (child >= 0 && unsigned(child) < decided)
        counts.insert(counts.end(), {stats.reads, stats.updates});
      child = int(l);
    }
  }
  return counts;
}

/// What the levels under `decided` have of each dim: its bound over the
/// factors at `decided` and up (the searcher's `remaining`, times the fixed
/// factors under the cut, which every point of a space shares).
std::vector<int64_t> leftUnder(const Mapping &mapping, const Problem &problem,
                               unsigned decided) {
  std::vector<int64_t> left;
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    int64_t above = 1;
    for (unsigned l = decided; l < mapping.levels.size(); ++l)
      above *= mapping.levels[l].temporal[d] * mapping.levels[l].spatialX[d] *
               mapping.levels[l].spatialY[d];
    left.push_back(problem.dims[d].bound / above);
  }
  return left;
}

/// Whether `a` and `b` agree on their levels `decided` and up.
bool sameAbove(const Mapping &a, const Mapping &b, unsigned decided) {
  for (unsigned l = decided; l < a.levels.size(); ++l)
    if (!(a.levels[l] == b.levels[l]))
      return false;
  return true;
}

/// Grafts for every cut of the mappings it is shown: two mappings in the
/// same state at a cut, the second's factors and orders under the cut
/// replaced by the first's, must have the first's counts under it.
class GraftChecker {
public:
  GraftChecker(const MapSpace &space, std::string what)
      : space(space), what(std::move(what)), bounds(space, Objective::EDP),
        dominance(space, bounds, Objective::EDP, 1 << 16),
        first(space.arch().levels.size()) {}

  /// False once a graft differs.
  bool check(const Mapping &mapping) {
    // The model counts nothing for a mapping over a fanout.
    space.model().evaluate(mapping, evaluation);
    if (evaluation.reason == InvalidReason::Shape)
      return true;
    for (unsigned decided = 1; decided < first.size(); ++decided) {
      const std::vector<int64_t> left =
          leftUnder(mapping, space.problem(), decided);
      const std::vector<int64_t> *state =
          dominance.stateOf(mapping, left.data(), decided);
      if (!state)
        continue; // a window operand under the cut: never merged
      auto [earlier, fresh] = first[decided].emplace(*state, mapping);
      if (fresh || sameAbove(earlier->second, mapping, decided))
        continue;
      // The first mapping's factors and orders under the cut; the keeps
      // are part of the state and stay the second's.
      Mapping graft = mapping;
      for (unsigned l = 0; l < decided; ++l) {
        const LevelMapping &under = earlier->second.levels[l];
        graft.levels[l].temporal = under.temporal;
        graft.levels[l].spatialX = under.spatialX;
        graft.levels[l].spatialY = under.spatialY;
        graft.levels[l].order = under.order;
      }
      // Capacity and fanouts aside: the counts come first.
      space.model().evaluate(earlier->second, evaluation);
      std::vector<int64_t> expected =
          countsUnderTheCut(evaluation, earlier->second, decided);
      space.model().evaluate(graft, evaluation);
      EXPECT_EQ(countsUnderTheCut(evaluation, graft, decided), expected)
          << what << ", cut under level " << decided;
      if (::testing::Test::HasFailure())
        return false;
      ++grafts;
    }
    return true;
  }
  /// Grafts between mappings that differ above their cut.
  unsigned compared() const { return grafts; }

private:
  const MapSpace &space;
  const std::string what;
  PartialBound bounds;
  Dominance dominance;
  /// Per cut and state: the first mapping seen.
  std::vector<std::map<std::vector<int64_t>, Mapping>> first;
  Evaluation evaluation;
  unsigned grafts = 0;
};

std::unique_ptr<MapSpace> spaceFor(const std::string &preset,
                                   const char *layer) {
  std::string error;
  std::optional<Problem> problem = optionalOr(parseLayer(layer), error);
  EXPECT_TRUE(problem) << error;
  return problem ? valueOr(MapSpace::create(*problem, *findPreset(preset), {}),
                           error)
                 : nullptr;
}

// Every point of small spaces.
TEST(OptimalDominance, StatesFixEverythingUnderTheCut) {
  unsigned grafts = 0;
  for (const std::string &preset : presetNames()) {
    for (const char *layer :
         {"gemm:M=4,N=2,K=4", "conv:N=1,K=2,C=2,P=4,Q=1,R=2,S=1",
          "conv:N=1,K=2,C=1,P=3,Q=1,R=2,S=1,stride=2",
          "conv:N=1,K=2,C=2,P=4,Q=1,R=1,S=1,stride=2"}) {
      auto space = spaceFor(preset, layer);
      if (!space || space->log10Size() > 5.2)
        continue;
      GraftChecker checker(*space, preset + " " + layer);
      EXPECT_TRUE(space->enumerate(200'000, [&](const std::vector<int64_t> &p) {
        return checker.check(space->decode(p));
      }));
      grafts += checker.compared();
      if (HasFailure())
        return;
    }
  }
  EXPECT_GT(grafts, 20'000u);
}

// Sampled mappings with every order of every level's loops: orders that a
// preset's dataflow fixes meet too, so that the products in the state are
// checked against reorderings that change them and ones that do not.
TEST(OptimalDominance, ReorderedLoopsKeepTheirState) {
  unsigned grafts = 0;
  for (const std::string &preset : presetNames()) {
    for (const char *layer :
         {"gemm:M=16,N=12,K=16", "conv:N=1,K=16,C=16,P=4,Q=4,R=1,S=1",
          "conv:N=1,K=16,C=16,P=4,Q=4,R=1,S=1,stride=2"}) {
      auto space = spaceFor(preset, layer);
      if (!space)
        continue;
      GraftChecker checker(*space, preset + " " + layer);
      Rng rng(11);
      std::vector<int64_t> values(space->parameters().size());
      for (unsigned i = 0; i < 500 && !HasFailure(); ++i) {
        space->sample(rng, values.data());
        Mapping mapping = space->decode(values);
        for (unsigned l = 1; l < mapping.levels.size(); ++l) {
          // The loops of one step stay where they are: the model drops them.
          LevelMapping &level = mapping.levels[l];
          std::vector<unsigned> moving;
          for (unsigned d : level.order)
            if (level.temporal[d] > 1)
              moving.push_back(d);
          std::sort(moving.begin(), moving.end());
          do {
            auto next = moving.begin();
            for (unsigned &d : level.order)
              if (level.temporal[d] > 1)
                d = *next++;
            if (!checker.check(mapping))
              return;
          } while (std::next_permutation(moving.begin(), moving.end()));
        }
      }
      grafts += checker.compared();
    }
  }
  EXPECT_GT(grafts, 20'000u);
}

// A window operand's counts may read the whole walk of the decided loops:
// no state is given for a cut it is kept under, so no node there merges.
TEST(OptimalDominance, WindowOperandsUnderTheCutGiveNoState) {
  auto space = spaceFor("eyeriss", "conv:N=1,K=4,C=4,P=8,Q=8,R=3,S=3");
  ASSERT_TRUE(space);
  PartialBound bounds(*space, Objective::EDP);
  Dominance dominance(*space, bounds, Objective::EDP, 1 << 16);
  const Problem &problem = space->problem();
  unsigned inputs = 0;
  while (inputs < problem.operands.size() &&
         problem.operands[inputs].role != TensorRole::Inputs)
    ++inputs;
  ASSERT_LT(inputs, problem.operands.size());
  Rng rng(3);
  std::vector<int64_t> values(space->parameters().size());
  unsigned cuts = 0;
  for (unsigned i = 0; i < 200; ++i) {
    space->sample(rng, values.data());
    Mapping mapping = space->decode(values);
    for (unsigned decided = 1; decided < mapping.levels.size(); ++decided) {
      const std::vector<int64_t> left = leftUnder(mapping, problem, decided);
      bool inputsUnder = false;
      for (unsigned l = 0; l < decided; ++l)
        inputsUnder |= mapping.levels[l].keep[inputs];
      if (!inputsUnder)
        continue;
      EXPECT_EQ(dominance.stateOf(mapping, left.data(), decided), nullptr);
      ++cuts;
    }
  }
  EXPECT_GT(cuts, 100u);
}

} // namespace
