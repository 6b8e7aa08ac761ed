//===- Breakdown.h - Where an op's energy and time go -----------*- C++ -*-===//
//
// An evaluated mapping, broken down the way an architect reads it: the
// energy of every level's reads, fills and updates per operand, the MACs'
// share, and which of compute or a level's bandwidth sets the cycles.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_BREAKDOWN_H
#define MARLMAP_CORE_BREAKDOWN_H

#include "marlmap/Core/CostModel.h"

#include <optional>
#include <vector>

namespace marlmap {

/// pJ of one operand's accesses at one level, over all its instances.
struct AccessEnergy {
  unsigned level = 0;
  unsigned operand = 0;
  double reads = 0.0;
  double fills = 0.0;
  double updates = 0.0;

  double total() const { return reads + fills + updates; }
};

struct Breakdown {
  /// For every level (innermost first) and every operand it keeps.
  std::vector<AccessEnergy> energy;
  double macEnergy = 0.0;
  int64_t computeCycles = 0;
  /// Per level: the cycles its bandwidth alone needs.
  std::vector<int64_t> bandwidthCycles;
  /// The level whose bandwidth sets the cycles; none when compute does.
  std::optional<unsigned> binding;
  /// The cycles over the lower bound's (every MAC busy every cycle).
  double cyclesOverBound = 0.0;
};

/// The breakdown of a valid `evaluation` on `arch`.
Breakdown breakdownOf(const Evaluation &evaluation, const Arch &arch,
                      const LowerBound &bound);

} // namespace marlmap

#endif // MARLMAP_CORE_BREAKDOWN_H
