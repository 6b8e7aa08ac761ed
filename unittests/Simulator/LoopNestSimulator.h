//===- LoopNestSimulator.h - A point-by-point referee -----------*- C++ -*-===//
//
// Executes a mapping's loop nest one iteration point at a time, keeps the
// contents of every buffer instance at every step, and counts the words
// each one receives, sends and takes back. It knows nothing of the cost
// model's formulas: it is slow, small and meant to be obviously right, so
// that the model can be checked against it on small problems.
//
// Its conventions, which are the model's documented ones (docs/CostModel.md):
// - The nest, outermost first: each level's temporal loops in its order,
//   then its spatial loops; a loop on dim d steps by the product of the
//   factors inside it on d, and a point past a dim's bound does nothing (the
//   last tile of a factor that does not divide is partial). A step (one
//   choice of every temporal loop) in which no MAC works is not run: a
//   loop runs fewer iterations in a partial tile.
// - An instance of a level is one choice of the spatial loops above it. It
//   holds, while the temporal loops above it stay put (an epoch), the box
//   spanned on every data-space axis by the words its points touch, and
//   nothing more: a new epoch fetches the words of the new box it does not
//   hold and drops the rest. Its points are counted within the bounds of
//   the dims the operand depends on only: an instance whose MACs idle on a
//   partial tile of a dim the operand ignores still receives what its
//   multicast group receives. An epoch in which its box is empty leaves it
//   as it was.
// - A written operand's word starts from zero the first time an instance
//   holds it (nothing fetched); afterwards it is fetched back from the
//   parent. Every word an instance drops, and its last box, is written back.
// - A level sends its children what they fetch, once per epoch for every
//   group of children that differ only along loops the operand ignores
//   (multicast), and takes back what they write the same way (spatial
//   reduction). The MACs are the innermost keeper's children: each working
//   point reads a word of every operand and updates its written ones; a
//   partial sum is read unless the keeper has not held the word before.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_UNITTESTS_SIMULATOR_LOOPNESTSIMULATOR_H
#define MARLMAP_UNITTESTS_SIMULATOR_LOOPNESTSIMULATOR_H

#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include <cstdint>
#include <vector>

namespace marlmap::simulator {

/// What one operand did at one level, summed over the level's instances.
struct OperandCounts {
  bool kept = false;
  /// Words of the largest box one instance held.
  int64_t capacity = 0;
  /// Instances that held a word at some time.
  int64_t instances = 0;
  int64_t reads = 0;
  int64_t fills = 0;
  int64_t updates = 0;
  /// The same for the instance whose spatial indices are all 0.
  struct {
    int64_t reads = 0, fills = 0, updates = 0;
  } first;
};

struct Simulation {
  /// Temporal steps run: those in which at least one MAC worked.
  int64_t activeSteps = 0;
  /// MACs that worked at least once.
  int64_t macInstancesUsed = 0;
  /// Iteration points executed: the problem's MACs, whatever the tiling.
  int64_t points = 0;
  unsigned numOperands = 0;
  /// [level * numOperands + operand].
  std::vector<OperandCounts> operands;

  const OperandCounts &at(unsigned level, unsigned operand) const {
    return operands[level * numOperands + operand];
  }
};

/// Runs `mapping`. It needs one entry per level, dim and operand, an order
/// that is a permutation, factors of at least 1 whose products reach each
/// bound, and an outermost level that keeps every operand that moves; the
/// fanout is not its concern. Meant for problems of some thousands of
/// points: the work is the points times the levels times the operands.
Simulation simulate(const Problem &problem, const Mapping &mapping);

} // namespace marlmap::simulator

#endif // MARLMAP_UNITTESTS_SIMULATOR_LOOPNESTSIMULATOR_H
