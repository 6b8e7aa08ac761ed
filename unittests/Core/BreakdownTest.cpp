//===- BreakdownTest.cpp - Where the energy and time go -------------------===//

#include "marlmap/Core/Breakdown.h"
#include "Support/ExpectedValue.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Core/Random.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace marlmap;

namespace {

/// Valid mappings drawn uniformly from `problem`'s space on `arch`.
std::vector<Mapping> validMappings(const Problem &problem, const Arch &arch,
                                   size_t count) {
  std::string error;
  std::unique_ptr<MapSpace> space =
      valueOr(MapSpace::create(problem, arch, {}), error);
  EXPECT_TRUE(space) << error;
  std::vector<Mapping> found;
  Rng rng(7);
  std::vector<int64_t> values(space->parameters().size());
  Mapping mapping;
  for (int tries = 0; tries < 100000 && found.size() < count; ++tries) {
    space->sample(rng, values.data());
    space->decode(values.data(), mapping);
    if (space->model().evaluate(mapping).valid)
      found.push_back(mapping);
  }
  return found;
}

void expectNear(double a, double b) {
  EXPECT_LE(std::fabs(a - b), 1e-12 * std::max(std::fabs(a), std::fabs(b)))
      << a << " vs " << b;
}

TEST(Breakdown, SumsToTheTotalsOnEveryPreset) {
  for (const std::string &name : presetNames()) {
    const Arch arch = *findPreset(name);
    for (const Problem &problem :
         {makeConv({1, 32, 16, 28, 28, 3, 3}), makeGemm(64, 48, 32)}) {
      CostModel model(problem, arch);
      std::vector<Mapping> mappings = validMappings(problem, arch, 50);
      ASSERT_FALSE(mappings.empty()) << name;
      for (const Mapping &mapping : mappings) {
        Evaluation evaluation = model.evaluate(mapping);
        Breakdown breakdown = breakdownOf(evaluation, arch, model.lowerBound());
        // Per level, and over everything with the MACs.
        std::vector<double> perLevel(arch.levels.size(), 0.0);
        double total = breakdown.macEnergy;
        for (const AccessEnergy &access : breakdown.energy) {
          EXPECT_TRUE(evaluation.at(access.level, access.operand).kept);
          expectNear(access.total(),
                     evaluation.at(access.level, access.operand).energy);
          perLevel[access.level] += access.total();
          total += access.total();
        }
        for (unsigned l = 0; l < arch.levels.size(); ++l)
          expectNear(perLevel[l], evaluation.levels[l].energy);
        expectNear(total, evaluation.energy);
        // The cycles are what the slowest part needs, and the binding
        // level is one that needs them.
        int64_t slowest = breakdown.computeCycles;
        for (int64_t cycles : breakdown.bandwidthCycles)
          slowest = std::max(slowest, cycles);
        EXPECT_EQ(slowest, evaluation.cycles) << name;
        if (breakdown.binding)
          EXPECT_EQ(breakdown.bandwidthCycles[*breakdown.binding],
                    evaluation.cycles);
        else
          EXPECT_EQ(breakdown.computeCycles, evaluation.cycles);
        EXPECT_DOUBLE_EQ(breakdown.cyclesOverBound,
                         double(evaluation.cycles) /
                             double(model.lowerBound().cycles));
      }
    }
  }
}

} // namespace
