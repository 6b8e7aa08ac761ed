//===- PartialTiles.h - The model's counts for partial tiles ---*- C++ -*-===//
//
// When a loop's factors cover its bound without dividing it, its last tiles
// are partial and the instances of a level no longer do the same work: the
// closed forms of the perfect path do not hold. This counter finds the same
// figures (reads, fills, updates, capacities, instances, active steps) from
// each dim's loops alone: along one dim the tiles of a level are either
// whole or the one residual, so each dim contributes a short list of
// (old extent, new extent, shift) moves per temporal loop, and a box's
// words are a product over the operand's axes, so sums over the nest factor
// into sums per group of dims that share an axis. docs/CostModel.md derives
// it; unittests/Simulator checks it point by point. It allocates nothing
// once warm, but is some ten times slower than the perfect path.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_CORE_PARTIALTILES_H
#define MARLMAP_LIB_CORE_PARTIALTILES_H

#include "marlmap/Core/CostModel.h"

#include <array>
#include <cstdint>
#include <vector>

namespace marlmap::detail {

class PartialTileCounter {
public:
  explicit PartialTileCounter(const Problem &problem);

  /// Whether every written operand has one loop of coefficient 1 per axis
  /// and each loop on one axis at most: then the words an instance writes
  /// are its points' distinct coordinates, which the first-visit rule
  /// needs. Read operands may index anything.
  bool countsWrittenOperands() const { return writtenOperandsSimple; }

  struct Totals {
    /// Temporal steps in which some MAC works.
    int64_t activeSteps = 0;
    int64_t macInstancesUsed = 0;
    /// Words per instance of each level, over the operands it keeps.
    std::array<int64_t, CostModel::kMaxLevels> levelWords{};
    /// A count went past 2^63.
    bool overflow = false;
  };

  /// Counts `mapping`, whose shape CostModel has checked, into
  /// out.operands: per level and operand the instance count, the largest
  /// tile, reads, fills and updates over all instances, and those of the
  /// first instance (every spatial index 0: it works on a whole tile
  /// wherever any instance does) as the per-instance figures.
  Totals count(const Mapping &mapping, Evaluation &out) const;

  struct Term {
    unsigned dim;
    int64_t coefficient;
  };
  struct Axis {
    std::vector<Term> terms;
  };
  /// Dims that share an axis of an operand, and those axes.
  struct Group {
    std::vector<unsigned> dims;
    std::vector<Axis> axes;
  };
  struct OperandShape {
    bool moves = true;
    bool written = false;
    std::vector<bool> relevant;
    std::vector<Group> groups;
  };

private:
  const Problem &problem;
  std::vector<OperandShape> shapes;
  bool writtenOperandsSimple = true;
};

} // namespace marlmap::detail

#endif // MARLMAP_LIB_CORE_PARTIALTILES_H
