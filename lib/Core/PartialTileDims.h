//===- PartialTileDims.h - One dim's moves under partial tiles -*- C++ -*-===//
//
// The per-dim half of the partial-tile counter (PartialTiles.cpp): a dim's
// loops as a chain, how many of their index choices run, and the moves of
// the box along the dim summed over instances, counted per depth of the
// tile tree (its whole subtrees hang off one spine of partial tiles).
// Inline: the counter calls these for every mapping it counts.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_CORE_PARTIALTILEDIMS_H
#define MARLMAP_LIB_CORE_PARTIALTILEDIMS_H

#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Core/CostModel.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace marlmap::detail::partial {

constexpr unsigned kMaxDims = CostModel::kMaxDims;
constexpr unsigned kMaxLevels = CostModel::kMaxLevels;
/// A level has a temporal loop and two spatial ones per dim.
constexpr unsigned kMaxChain = 3 * kMaxLevels;

/// One loop with a factor over 1 on one dim, in nest order.
struct ChainLoop {
  unsigned level;
  bool spatial;
  int64_t factor;
  /// How far one iteration moves along the dim: the factors inside it.
  int64_t stride;
  /// Temporal loops: the place among the nest's temporal loops, outermost
  /// first.
  unsigned position;
};

/// One dim's loops, outermost first.
struct Chain {
  int64_t bound = 1;
  unsigned size = 0;
  std::array<ChainLoop, kMaxChain> loops;

  const ChainLoop *begin() const { return loops.data(); }
  const ChainLoop *end() const { return loops.data() + size; }
};

/// Index choices of the loops `pick` accepts, the others at 0, whose
/// origin plus `offset` stays below the bound. Iterations before the last
/// that runs leave whole tiles inside, so one pass from the outside
/// suffices.
template <typename Pick>
int64_t countPoints(const Chain &chain, Pick pick, int64_t offset = 0) {
  std::array<const ChainLoop *, kMaxChain> picked;
  unsigned n = 0;
  for (const ChainLoop &loop : chain)
    if (pick(loop))
      picked[n++] = &loop;
  // Per loop: the choices of it and the loops inside, and the farthest
  // origin they reach.
  std::array<int64_t, kMaxChain + 1> choices, reach;
  choices[n] = 1;
  reach[n] = 0;
  for (unsigned i = n; i-- > 0;) {
    choices[i] = saturatingMul(choices[i + 1], picked[i]->factor);
    reach[i] = reach[i + 1] + (picked[i]->factor - 1) * picked[i]->stride;
  }
  int64_t rest = chain.bound - offset; // room left for the inner loops
  if (rest <= 0)
    return 0;
  int64_t total = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (rest > reach[i])
      return saturatingAdd(total, choices[i]);
    const int64_t last =
        std::min(picked[i]->factor - 1, (rest - 1) / picked[i]->stride);
    total = saturatingAdd(total, saturatingMul(last, choices[i + 1]));
    rest -= last * picked[i]->stride;
  }
  return saturatingAdd(total, 1);
}

/// A dim's part of a move of the box: extents before and after, and how
/// far the origin moved; `count` moves alike.
struct Move {
  int64_t oldExtent, newExtent, shift, count;
};
using Moves = std::vector<Move>;
/// Adds `count` moves to `moves`, merged with an equal one if present.
inline void addMove(Moves &moves, int64_t oldExtent, int64_t newExtent,
                    int64_t shift, int64_t count) {
  if (count == 0)
    return;
  for (Move &m : moves)
    if (m.oldExtent == oldExtent && m.newExtent == newExtent &&
        m.shift == shift) {
      m.count = saturatingAdd(m.count, count);
      return;
    }
  moves.push_back({oldExtent, newExtent, shift, count});
}
/// How many moves `moves` holds, counts included.
inline int64_t moveCount(const Moves &moves) {
  int64_t n = 0;
  for (const Move &m : moves)
    n = saturatingAdd(n, m.count);
  return n;
}

/// One dim as the instances of one level see it: its temporal loops above
/// the level (outermost first) with how far each one's subtree reaches,
/// the spatial loops above, and the tile.
struct DimAtLevel {
  unsigned numTemporal = 0, numSpatial = 0;
  std::array<const ChainLoop *, kMaxLevels> temporal;
  std::array<const ChainLoop *, 2 * kMaxLevels> spatial;
  /// reach[k]: the farthest origin loops k.. reach; reach[numTemporal] = 0.
  std::array<int64_t, kMaxLevels + 1> reach;
  int64_t tile = 1, bound = 1;
};
/// `chain` as the instances of `level` see it.
inline DimAtLevel dimAtLevel(const Chain &chain, unsigned level) {
  DimAtLevel out;
  out.bound = chain.bound;
  for (const ChainLoop &loop : chain) {
    if (loop.level <= level)
      out.tile *= loop.factor;
    else if (loop.spatial)
      out.spatial[out.numSpatial++] = &loop;
    else
      out.temporal[out.numTemporal++] = &loop;
  }
  out.reach[out.numTemporal] = 0;
  for (unsigned k = out.numTemporal; k-- > 0;)
    out.reach[k] = out.reach[k + 1] +
                   (out.temporal[k]->factor - 1) * out.temporal[k]->stride;
  return out;
}

/// A dim's moves summed over some instances, each weighed: the first tile
/// (oldExtent 0), the moves when its k-th temporal loop steps (carry[k]),
/// the moves when a loop of another dim steps with p of this dim's loops
/// outside it (wrap[p]), and the coordinates covered.
struct DimSums {
  Moves first;
  std::array<Moves, kMaxLevels> carry;
  std::array<Moves, kMaxLevels + 1> wrap;
  int64_t coverage = 0;

  void clear(unsigned numTemporal) {
    first.clear();
    for (unsigned k = 0; k < numTemporal; ++k)
      carry[k].clear();
    for (unsigned p = 0; p <= numTemporal; ++p)
      wrap[p].clear();
    coverage = 0;
  }
};

/// Adds the moves of an instance with room `rest` on the dim (its bound
/// less its spatial offset), `weight` times. A node of the tile tree at
/// depth k with room `rest` is whole when rest >= reach[k] + tile; the
/// spine is the chain of nodes that are not.
inline void addInstance(const DimAtLevel &dim, int64_t rest, int64_t weight,
                        DimSums &sums) {
  const int64_t tile = dim.tile;
  const unsigned n = dim.numTemporal;
  if (rest <= 0 || weight == 0)
    return; // no such instance
  const int64_t firstExtent = std::min(tile, rest);
  // Whole nodes per depth, and the spine: each partial node's room and
  // children.
  std::array<int64_t, kMaxLevels + 1> whole{}, room{}, children{};
  unsigned spineEnd = 0;  // depths [0, spineEnd) are partial nodes
  bool spineLeaf = false; // the spine ends in a partial tile at depth n
  for (unsigned k = 0;; ++k) {
    if (rest >= dim.reach[k] + tile) {
      whole[k] += 1;
      break;
    }
    room[k] = rest;
    spineEnd = k + 1;
    if (k == n) {
      spineLeaf = true;
      break;
    }
    const int64_t stride = dim.temporal[k]->stride;
    children[k] =
        std::min(dim.temporal[k]->factor, (rest + stride - 1) / stride);
    whole[k + 1] += children[k] - 1; // all but the last are whole
    rest -= (children[k] - 1) * stride;
  }
  for (unsigned k = 0; k < n; ++k)
    whole[k + 1] = saturatingAdd(
        whole[k + 1], saturatingMul(whole[k], dim.temporal[k]->factor));

  addMove(sums.first, 0, firstExtent, 0, weight);
  sums.coverage = saturatingAdd(
      sums.coverage,
      saturatingMul(weight, saturatingAdd(saturatingMul(whole[n], tile),
                                          spineLeaf ? room[n] : 0)));
  // The last tile under each spine node: its offset from the node and its
  // extent, from the spine's end back.
  // A spine that ends in a whole node ends in that node's last tile.
  int64_t lastOffset = spineLeaf ? 0 : dim.reach[spineEnd];
  const int64_t lastExtent = spineLeaf ? room[n] : tile;
  std::array<int64_t, kMaxLevels + 1> spineLast{};
  for (unsigned k = spineEnd; k-- > 0;) {
    if (k < n)
      lastOffset += (children[k] - 1) * dim.temporal[k]->stride;
    spineLast[k] = lastOffset;
  }
  for (unsigned k = 0; k < n; ++k) {
    const ChainLoop &loop = *dim.temporal[k];
    const int64_t step = loop.stride - dim.reach[k + 1];
    addMove(sums.carry[k], tile, tile, step,
            saturatingMul(weight, saturatingMul(whole[k], loop.factor - 1)));
    if (k < spineEnd && children[k] >= 2) {
      addMove(sums.carry[k], tile, tile, step,
              saturatingMul(weight, children[k] - 2));
      const int64_t lastRoom = room[k] - (children[k] - 1) * loop.stride;
      addMove(sums.carry[k], tile, std::min(tile, lastRoom), step, weight);
    }
  }
  for (unsigned p = 0; p <= n; ++p) {
    addMove(sums.wrap[p], tile, tile, -dim.reach[p],
            saturatingMul(weight, whole[p]));
    if (p < spineEnd)
      addMove(sums.wrap[p], lastExtent, std::min(tile, room[p]), -spineLast[p],
              weight);
  }
}

/// Which instances a sum runs over: those whose spatial choices move only
/// loops of the levels in `vary`; dims the operand ignores count every
/// choice of the spatial loops of the levels in `weigh` (they all receive
/// the same words).
struct Selection {
  uint32_t vary = 0, weigh = 0;
};
/// The mask of the levels above `level`.
inline uint32_t levelsAbove(unsigned level) {
  return level + 1 >= 32 ? 0 : ~((2u << level) - 1);
}
/// A dim's moves summed over the instances `which` selects; `relevant`:
/// whether the operand depends on the dim.
inline void sumDim(const DimAtLevel &dim, bool relevant, Selection which,
                   DimSums &sums) {
  sums.clear(dim.numTemporal);
  if (!relevant) {
    int64_t weight = 1;
    for (unsigned i = 0; i < dim.numSpatial; ++i)
      if (which.weigh & (1u << dim.spatial[i]->level))
        weight = saturatingMul(weight, dim.spatial[i]->factor);
    addInstance(dim, dim.bound, weight, sums);
    sums.coverage = weight; // one word along it, for every copy
    return;
  }
  // Every choice of the selected spatial loops, the innermost fastest;
  // instances whose tiles are all whole move alike.
  const int64_t wholeRoom = dim.reach[0] + dim.tile;
  int64_t wholeInstances = 0;
  std::array<int64_t, 2 * kMaxLevels> index{};
  while (true) {
    int64_t offset = 0;
    for (unsigned i = 0; i < dim.numSpatial; ++i)
      offset += index[i] * dim.spatial[i]->stride;
    if (dim.bound - offset >= wholeRoom)
      ++wholeInstances;
    else
      addInstance(dim, dim.bound - offset, 1, sums);
    unsigned i = dim.numSpatial;
    while (i-- > 0) {
      if (!(which.vary & (1u << dim.spatial[i]->level)))
        continue;
      if (++index[i] < dim.spatial[i]->factor)
        break;
      index[i] = 0;
    }
    if (i == unsigned(-1))
      break;
  }
  addInstance(dim, wholeRoom, wholeInstances, sums);
}

} // namespace marlmap::detail::partial

#endif // MARLMAP_LIB_CORE_PARTIALTILEDIMS_H
