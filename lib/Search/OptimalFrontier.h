//===- OptimalFrontier.h - What one bound reads -----------------*- C++ -*-===//
//
// PartialBound::bound() evaluates a partial mapping's simplest completion
// and reads of it the tiles, spreads and instances of every level, and of
// the undecided levels (under the frontier, level s - 1) the most they may
// still spread. The rules (OptimalBound.cpp, OptimalSpreads.cpp) share
// this view.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_OPTIMALFRONTIER_H
#define MARLMAP_LIB_SEARCH_OPTIMALFRONTIER_H

#include "OptimalBound.h"

#include <cmath>

namespace marlmap {

/// Spatial factors at `level` on the dims not in `relevant` (one bit per
/// dim).
inline int64_t ignoredSpread(const LevelMapping &level, unsigned numDims,
                             uint32_t relevant) {
  int64_t spread = 1;
  for (unsigned d = 0; d < numDims; ++d)
    if (!(relevant & (1u << d)))
      spread *= level.spatialX[d] * level.spatialY[d];
  return spread;
}

/// The cycles `macs` MACs take at `spread` MACs' instances at once: the
/// steps each instance runs, at the array's MACs per cycle.
inline double computeCycles(double macs, double spread,
                            const ComputeArray &compute) {
  const double temporal = std::ceil(macs / spread - 1e-9);
  return std::ceil(temporal / double(compute.macsPerCycle) - 1e-9);
}

class PartialBound::Frontier {
public:
  /// The view of `bounds`' last evaluated completion, levels `decided` and
  /// up decided, and level `decided` - 1 its first `decidedDims` dims.
  Frontier(const PartialBound &bounds, unsigned decided, unsigned decidedDims);

  /// Levels s and up are decided; `top` is the frontier (s - 1), or 0.
  const unsigned s, top, decidedDims;
  /// Every dim's bit.
  const uint32_t allDims;
  const Mapping &completion;
  /// tile[l][d]: the extent of dim d at and below level l.
  int64_t tile[CostModel::kMaxLevels][CostModel::kMaxDims];
  /// Every spatial factor's product per level, and each level's instances
  /// (the spreads above it).
  int64_t spread[CostModel::kMaxLevels];
  int64_t instances[CostModel::kMaxLevels];

  const int64_t *topTile() const { return tile[top]; }

  /// The largest spread level s - 1 can end with on the dims in `dims`
  /// (bit d for dim d): what its decided dims (and the fixed factors of the
  /// others) spread there, times what its fanouts leave for the open ones.
  double frontierRoom(uint32_t dims) const;
  /// The largest spread an undecided level `m` below the frontier can have
  /// on the dims in `dims`, along both axes.
  double levelRoom(unsigned m, uint32_t dims) const;
  /// The largest spread undecided levels [from, to] can have on `dims`.
  double undecidedSpread(unsigned from, unsigned to, uint32_t dims) const;
  /// The decided levels' spread, among [from, to], on the dims operand `o`
  /// ignores.
  double decidedIgnoredSpread(unsigned from, unsigned to, unsigned o) const;
  /// The product of every decided level's spread.
  double decidedSpread = 1.0;
  /// Rule 6: whether a loop of more than one step on a dim operand `o`
  /// depends on runs under the decided levels and over its keepers below
  /// the frontier, so that every decided loop refetches their tiles: level
  /// s - 1 has one, or the frontier's tile of `o` (`points` distinct words)
  /// is more than the outermost keeper below it holds, times the most
  /// instances the spreads on those dims can give it.
  bool relevantLoopUnderFrontier(unsigned o, double points) const;

private:
  /// The room of level `level` (the frontier's: kFrontier) on `dims` when
  /// it was computed before for this frontier, else null: the rules ask for
  /// the same few many times per bound.
  const double *knownRoom(unsigned level, uint32_t dims) const;
  double remember(unsigned level, uint32_t dims, double room) const;

  const PartialBound &bounds;
  struct KnownRoom {
    unsigned level;
    uint32_t dims;
    double room;
  };
  static constexpr unsigned kKnownRooms = 32, kFrontier = CostModel::kMaxLevels;
  mutable KnownRoom known[kKnownRooms];
  mutable unsigned knownCount = 0;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_OPTIMALFRONTIER_H
