//===- LevelSpreads.h - A level's spread as one choice ----------*- C++ -*-===//
//
// In the perfect space a loop's spatial factor at a level is the copies of
// its primes that chose that level's X or Y slot, one decision per copy. A
// spread that fills an array differently (K 12 along X instead of M 4 x N 3)
// is then a move of several copies at once, and each one alone leaves part
// of the array idle. LevelSpreads lists, per axis of each level that spreads
// along both X and Y (a two-dimensional array), every spread of the loops
// over that axis that fits its fanout (free factors that divide their
// loops, within their largest factors), so that one decision picks a whole
// spread; the copies of each prime are then moved to match it
// (docs/Search.md, "Spreads as decisions").
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_LEVELSPREADS_H
#define MARLMAP_LIB_SEARCH_LEVELSPREADS_H

#include "marlmap/Core/MapSpace.h"

#include <string>
#include <vector>

namespace marlmap {

/// One level's spreads along one axis.
struct SpreadPlan {
  unsigned level;
  /// 1: X, 2: Y.
  unsigned axis;
  /// The loops with a slot of that axis at that level, and the free factor
  /// of each (its bound over its fixed factors): with the fanout and the
  /// largest factors, what the spreads are.
  std::vector<unsigned> dims;
  std::vector<int64_t> freeFactors;
  /// Every spread: each of `dims`' free factor there; the fullest first.
  /// Index spreads.size() is one more choice: the copies place the factors
  /// (what a point whose spread is not listed reads as).
  std::vector<std::vector<int64_t>> spreads;
  int64_t copiesDecide() const { return int64_t(spreads.size()); }
};

/// The decision's name: its level, axis, loops and their free factors
/// ("spread X@GlobalBuffer of M=512,N=768,K=768"), so that agents shared
/// across problems (policy-share) or saved share a spread decision only
/// where its choices are the same.
std::string spreadDecisionName(const MapSpace &space, const SpreadPlan &plan);

class LevelSpreads {
public:
  /// Levels and axes with more spreads than `mostSpreads` are left to the
  /// copies. Perfect spaces only (others have no factor parameters).
  LevelSpreads(const MapSpace &space, int64_t mostSpreads);

  const std::vector<SpreadPlan> &plans() const { return list; }
  /// Whether a plan governs a slot of factor parameter `parameter`.
  bool governs(unsigned parameter) const {
    return !followers[parameter].governed.empty();
  }

  /// Rearranges `counts`, the copies per slot of factor parameter
  /// `parameter`, so that the slots the plans govern hold what the spreads
  /// `chosen` (an index per plan; copiesDecide() leaves a plan's slots
  /// as they are) give them, as far as the copies go (the innermost slots
  /// first, when a loop's spreads along X and Y ask for more than it has):
  /// copies a slot holds beyond its spread go to its level's temporal loop
  /// (else the outermost one; a loop with no temporal slot keeps them), and
  /// copies it lacks come from the slots no chosen spread claims, the
  /// outermost first. Counts that already match are left as they are.
  void claim(unsigned parameter, const int64_t *chosen, unsigned *counts) const;

  /// Each plan's spread in the parameter values `values`: its index, or
  /// copiesDecide() when no listed spread is it (a point whose own loops
  /// overflow the fanout). Loops whose axis an axis parameter picks are not
  /// the plans' (their copies place them), so a listed spread may still
  /// overflow with them; fitting the point (MapSpace::fitSpread) mends it.
  void read(const int64_t *values, int64_t *chosen) const;

private:
  /// A slot a plan governs: the slot, the plan, where the copies beyond
  /// its spread go (its level's temporal slot, else the outermost temporal
  /// one; -1: none), and the copies of the parameter's prime each of the
  /// plan's spreads gives it (claim runs per factor parameter of every
  /// proposal).
  struct GovernedSlot {
    unsigned slot;
    int plan;
    int overflowTo;
    std::vector<unsigned> copies;
  };
  /// A factor parameter's copies and slots, and its governed slots in slot
  /// order (none: no plan governs it).
  struct Follower {
    unsigned copies = 0;
    unsigned slotCount = 0;
    std::vector<GovernedSlot> governed;
  };
  /// Where a plan's dim reads its factor: a factor parameter, its slot and
  /// its prime.
  struct Source {
    unsigned parameter;
    unsigned slot;
    int64_t prime;
  };

  void addPlan(unsigned level, unsigned axis, int64_t mostSpreads);

  const MapSpace &space;
  std::vector<SpreadPlan> list;
  /// Per plan: its spreads' indices in the order of their values, for
  /// read() to look a spread up without allocating.
  std::vector<std::vector<int64_t>> byValue;
  /// Per plan and dim position: the parameters and slots it reads.
  std::vector<std::vector<std::vector<Source>>> sources;
  /// Per parameter (empty for parameters that are not factors).
  std::vector<Follower> followers;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_LEVELSPREADS_H
