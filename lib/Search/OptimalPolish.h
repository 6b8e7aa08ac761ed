//===- OptimalPolish.h - Local improvement of the best mapping --*- C++ -*-===//
//
// The exact searcher's primal heuristic, as branch-and-bound solvers have
// one: a walk's first complete mappings are wherever its first choices
// led, and a bound prunes only what costs more than the best mapping
// found. Each time a better mapping is found, the mappings of the space
// one move away from it are queued for evaluation: a prime factor of a
// loop moved to another level's temporal loop or fanout, two loops next to
// each other in a level's order swapped, a keep flipped. A move that
// overflows a level's capacity is repaired where it can be: a prime of a
// tile at or below that level moves out to where the first move took its
// prime from (or to the next level's temporal loop). Only mappings that
// fit every fanout and capacity are queued. A better neighbour queues its
// own neighbours in turn, so the queue descends to a local optimum. There,
// when the searcher asks for more, a kick (a few random moves from the
// best mapping, drawn from the searcher's seed) starts a new descent, whose
// centre moves to any better neighbour even while it is worse than the
// best: iterated local search. It proves nothing: the walks still cover
// the whole space.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_OPTIMALPOLISH_H
#define MARLMAP_LIB_SEARCH_OPTIMALPOLISH_H

#include "OptimalBound.h"

#include <limits>
#include <vector>

namespace marlmap {

class Polish {
public:
  /// `bounds` checks capacities (it holds scratch space: the searcher's).
  Polish(const MapSpace &space, const PartialBound &bounds, uint64_t seed)
      : space(space), bounds(bounds), rng(seed) {}

  /// `point` was evaluated valid at `cost`: when that beats every mapping
  /// reported so far, or when the polish proposed it and it beats the
  /// centre of the descent after a kick, its neighbours replace the ones
  /// still queued.
  void report(const std::vector<int64_t> &point, double cost, bool polished);
  /// Takes the next queued neighbour into `point`; false when none is
  /// left. When none is left and `mayKick`, kicks the best mapping and
  /// takes the result.
  bool next(std::vector<int64_t> &point, bool mayKick);
  /// Whether neighbours are queued.
  bool queued() const { return head < pending.size(); }
  /// Whether the queue descends from a kick rather than from the best
  /// mapping.
  bool afterKick() const { return fromKick; }

private:
  // A factor's slot is level * 3 + kind (0 temporal, 1 X, 2 Y).
  /// Re-centres the queue on `point` at `cost`.
  void centerOn(const std::vector<int64_t> &point, double cost);
  /// A few random moves from the best mapping that keep it fitting.
  bool kick(std::vector<int64_t> &point);
  void queueFactorMoves(Mapping &center);
  void queueRepairs(Mapping &moved, unsigned source, unsigned overflowing);
  void queueOrderSwaps(const Mapping &center);
  void queueKeepFlips(const Mapping &center);
  /// The innermost level whose tiles overflow its capacity; the level
  /// count when none does, and ~0u when a fanout overflows.
  unsigned overflowingLevel(const Mapping &mapping) const;
  /// `mapping`'s point when it fits every fanout and capacity and the
  /// space holds it.
  std::optional<std::vector<int64_t>>
  encodeIfFits(const Mapping &mapping) const;
  /// Appends `neighbour`'s point to `into` when the space holds it.
  void queue(const Mapping &neighbour, std::vector<std::vector<int64_t>> &into);

  /// Random moves in a kick: enough to leave the basin, few enough to
  /// keep what made the best mapping good.
  static constexpr unsigned kKickMoves = 3;

  const MapSpace &space;
  const PartialBound &bounds;
  Rng rng;
  double bestCost = std::numeric_limits<double>::infinity();
  double centerCost = std::numeric_limits<double>::infinity();
  std::vector<int64_t> best;
  /// A kick was proposed and has not been reported valid yet; the queue
  /// descends from a kick (not from the best mapping).
  bool kicked = false, fromKick = false;
  std::vector<std::vector<int64_t>> pending, repairs;
  size_t head = 0;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_OPTIMALPOLISH_H
