//===- Breakdown.cpp - Where an op's energy and time go -------------------===//

#include "marlmap/Core/Breakdown.h"

#include <algorithm>

namespace marlmap {

Breakdown breakdownOf(const Evaluation &evaluation, const Arch &arch,
                      const LowerBound &bound) {
  Breakdown breakdown;
  breakdown.macEnergy = evaluation.macEnergy;
  breakdown.computeCycles = evaluation.computeCycles;
  for (unsigned l = 0; l < evaluation.levels.size(); ++l) {
    const StorageLevel &level = arch.levels[l];
    for (unsigned o = 0; o < evaluation.numOperands; ++o) {
      const OperandStats &stats = evaluation.at(l, o);
      if (!stats.kept)
        continue;
      const AccessEnergies e = operandEnergies(stats, level);
      breakdown.energy.push_back({l, o, e.reads, e.fills, e.updates});
    }
    const int64_t cycles = evaluation.levels[l].bandwidthCycles;
    breakdown.bandwidthCycles.push_back(cycles);
    // The slowest level binds when it is slower than compute; the first of
    // equals, from the innermost.
    int64_t slowest = breakdown.binding
                          ? breakdown.bandwidthCycles[*breakdown.binding]
                          : evaluation.computeCycles;
    if (cycles > slowest)
      breakdown.binding = l;
  }
  breakdown.cyclesOverBound =
      double(evaluation.cycles) / double(std::max<int64_t>(bound.cycles, 1));
  return breakdown;
}

} // namespace marlmap
