//===- PartialTiles.cpp - The cost model's counts for partial tiles -------===//
//
// The nest's conventions are the perfect path's (docs/CostModel.md), with
// ceiling semantics: a loop on dim d steps by the factors inside it on d,
// and an iteration whose origin on d is past the bound does not run. An
// instance of level l (a choice of the spatial loops above l) holds in
// each epoch (a choice of the temporal loops above l) the box its points
// span within the bounds of the dims the operand depends on; along a dim
// those points are [origin, min(origin + tile, bound)). An epoch is empty
// for an instance when a dim the operand depends on starts past its bound
// (counting the instance's spatial offset) or when another dim's temporal
// origin does; empty epochs are skipped.
//
// The valid epochs are a product over dims, so consecutive ones differ at
// one temporal loop j: j steps and every loop inside it comes back from its
// last valid iteration to its first. A dim's part of such a move depends on
// that dim's loops alone: j's own dim steps (a "carry" of its k-th loop),
// a dim with loops inside j wraps (from the last tile under its outer
// loops' choice to the first), any other dim stays. Summing the words that
// enter the box over every move of every instance then factors into a
// product, over groups of dims that share an axis, of sums over the
// group's moves.
//
// Along one dim, the tiles under a whole tile are whole, and a partial
// tile has whole children but its last, so an instance's tiles on a dim are
// whole subtrees hanging off one chain of partial ones (the spine): a dim's
// moves are counted per depth, never tile by tile.
//
//===----------------------------------------------------------------------===//

#include "PartialTiles.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>

namespace marlmap::detail {
namespace {

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

void addMove(Moves &moves, int64_t oldExtent, int64_t newExtent, int64_t shift,
             int64_t count) {
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

int64_t moveCount(const Moves &moves) {
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

DimAtLevel dimAtLevel(const Chain &chain, unsigned level) {
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
void addInstance(const DimAtLevel &dim, int64_t rest, int64_t weight,
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

uint32_t levelsAbove(unsigned level) {
  return level + 1 >= 32 ? 0 : ~((2u << level) - 1);
}

void sumDim(const DimAtLevel &dim, bool relevant, Selection which,
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

/// Words of a box and of its overlap with the box before, summed over the
/// moves of one group's dims.
struct GroupSums {
  int64_t words = 0, kept = 0;
};

void sumGroup(const PartialTileCounter::Group &group, size_t i,
              const Moves *const *dimMoves, const Move **chosen, int64_t weight,
              GroupSums &sums) {
  if (i < group.dims.size()) {
    for (const Move &m : *dimMoves[group.dims[i]]) {
      chosen[group.dims[i]] = &m;
      sumGroup(group, i + 1, dimMoves, chosen, saturatingMul(weight, m.count),
               sums);
    }
    return;
  }
  int64_t words = 1, kept = 1;
  for (const PartialTileCounter::Axis &axis : group.axes) {
    // The box's range on the axis, before and after, relative to the old
    // low end.
    int64_t oldSpan = 1, newSpan = 1, low = 0;
    for (const PartialTileCounter::Term &term : axis.terms) {
      const Move &m = *chosen[term.dim];
      const int64_t c = term.coefficient;
      oldSpan += std::abs(c) * (std::max<int64_t>(m.oldExtent, 1) - 1);
      newSpan += std::abs(c) * (m.newExtent - 1);
      low += c >= 0 ? c * m.shift : c * (m.shift + m.newExtent - m.oldExtent);
    }
    words = saturatingMul(words, newSpan);
    kept = saturatingMul(kept,
                         std::max<int64_t>(0, std::min(oldSpan, low + newSpan) -
                                                  std::max<int64_t>(0, low)));
  }
  sums.words = saturatingAdd(sums.words, saturatingMul(weight, words));
  sums.kept = saturatingAdd(sums.kept, saturatingMul(weight, kept));
}

/// Move lists reused between evaluations on one thread (each thread its
/// own), so that the path does not allocate once warm; no result depends
/// on what they held before.
struct Scratch {
  std::array<DimSums, kMaxDims> sums;
};

} // namespace

PartialTileCounter::PartialTileCounter(const Problem &problem)
    : problem(problem) {
  const unsigned numDims = problem.dims.size();
  for (const Operand &operand : problem.operands) {
    OperandShape shape;
    shape.moves = operand.access != Access::None;
    shape.written = operand.isWritten();
    shape.relevant.assign(numDims, false);
    // Dims joined by an axis share a group: union by a representative.
    std::vector<unsigned> root(numDims);
    std::iota(root.begin(), root.end(), 0);
    auto find = [&](unsigned d) {
      while (root[d] != d)
        d = root[d] = root[root[d]];
      return d;
    };
    std::vector<Axis> axes;
    std::vector<unsigned> uses(numDims, 0);
    for (const Coordinate &coordinate : operand.projection) {
      Axis axis;
      for (const ProjectionTerm &term : coordinate.terms)
        if (term.coefficient != 0) {
          axis.terms.push_back({term.dim, term.coefficient});
          shape.relevant[term.dim] = true;
          ++uses[term.dim];
        }
      for (const Term &term : axis.terms)
        root[find(term.dim)] = find(axis.terms.front().dim);
      if (shape.written && shape.moves &&
          (axis.terms.size() != 1 || std::abs(axis.terms[0].coefficient) != 1))
        writtenOperandsSimple = false;
      if (!axis.terms.empty())
        axes.push_back(std::move(axis));
    }
    if (shape.written && shape.moves)
      for (unsigned d = 0; d < numDims; ++d)
        writtenOperandsSimple &= uses[d] <= 1;
    for (unsigned d = 0; d < numDims; ++d) {
      if (!shape.relevant[d] || find(d) != d)
        continue;
      Group group;
      for (unsigned e = 0; e < numDims; ++e)
        if (shape.relevant[e] && find(e) == d)
          group.dims.push_back(e);
      for (const Axis &axis : axes)
        if (find(axis.terms.front().dim) == d)
          group.axes.push_back(axis);
      shape.groups.push_back(std::move(group));
    }
    shapes.push_back(std::move(shape));
  }
}

namespace {

/// What the children of a level exchange with it, over all its instances
/// and for its first: words sent down, partial sums taken back.
struct Exchange {
  int64_t down = 0, downFirst = 0, up = 0, upFirst = 0;
};

/// One count: the mapping's loops per dim, and the sums built from them.
class Counting {
public:
  Counting(const Problem &problem, const Mapping &mapping, Scratch &scratch)
      : numDims(problem.dims.size()), scratch(scratch) {
    // The temporal loops' places in the nest, outermost first.
    const unsigned numLevels = mapping.levels.size();
    std::array<std::array<unsigned, kMaxDims>, kMaxLevels> position{};
    unsigned places = 0;
    for (unsigned l = numLevels; l-- > 0;)
      for (unsigned d : mapping.levels[l].order)
        if (mapping.levels[l].temporal[d] > 1)
          position[l][d] = places++;
    // Each dim's loops, outermost first: per level its temporal loop, then
    // its spatial loops along Y and X.
    for (unsigned d = 0; d < numDims; ++d) {
      Chain &chain = chains[d];
      chain.bound = problem.dims[d].bound;
      for (unsigned l = numLevels; l-- > 0;) {
        const LevelMapping &level = mapping.levels[l];
        for (auto [spatial, factor] : {std::pair{false, level.temporal[d]},
                                       std::pair{true, level.spatialY[d]},
                                       std::pair{true, level.spatialX[d]}})
          if (factor > 1)
            chain.loops[chain.size++] = {l, spatial, factor, 1, position[l][d]};
      }
      int64_t inside = 1;
      for (unsigned i = chain.size; i-- > 0;) {
        chain.loops[i].stride = inside;
        inside = saturatingMul(inside, chain.loops[i].factor);
      }
    }
  }

  /// The product over dims of `perDim(d)`.
  template <typename PerDim> int64_t product(PerDim perDim) const {
    int64_t p = 1;
    for (unsigned d = 0; d < numDims; ++d)
      p = saturatingMul(p, perDim(d));
    return p;
  }

  /// Over dims, the index choices of the loops `pick` accepts.
  template <typename Pick> int64_t points(Pick pick) const {
    return product([&](unsigned d) { return countPoints(chains[d], pick); });
  }

  /// The largest tile of `operand` at `level`, and the first instance's
  /// whole share of it.
  void tiles(const Operand &operand, unsigned level, int64_t &capacity,
             int64_t &partition) const {
    capacity = partition = 1;
    for (const Coordinate &axis : operand.projection) {
      int64_t span = 1, wholeSpan = 1;
      for (const ProjectionTerm &term : axis.terms) {
        const Chain &chain = chains[term.dim];
        int64_t tile = 1, whole = 1;
        for (const ChainLoop &loop : chain) {
          tile *= loop.level <= level ? loop.factor : 1;
          whole *= loop.level <= level || !loop.spatial ? loop.factor : 1;
        }
        span += std::abs(term.coefficient) * (std::min(tile, chain.bound) - 1);
        wholeSpan +=
            std::abs(term.coefficient) * (std::min(whole, chain.bound) - 1);
      }
      capacity = saturatingMul(capacity, span);
      partition = saturatingMul(partition, wholeSpan);
    }
  }

  /// Instances of `level` that hold a word of the operand: along a dim it
  /// depends on, those that start within the bound; along the others,
  /// every one.
  int64_t instances(const PartialTileCounter::OperandShape &shape,
                    unsigned level) const {
    const auto above = [level](const ChainLoop &loop) {
      return loop.spatial && loop.level > level;
    };
    return product([&](unsigned d) {
      if (shape.relevant[d])
        return countPoints(chains[d], above);
      int64_t copies = 1;
      for (const ChainLoop &loop : chains[d])
        copies *= above(loop) ? loop.factor : 1;
      return copies;
    });
  }

  /// Spatial factors between `child` and `level` on the dims the operand
  /// ignores: children that share each word.
  int64_t shared(const PartialTileCounter::OperandShape &shape, int child,
                 unsigned level) const {
    int64_t copies = 1;
    for (unsigned d = 0; d < numDims; ++d)
      if (!shape.relevant[d])
        for (const ChainLoop &loop : chains[d])
          if (loop.spatial && int(loop.level) > child && loop.level <= level)
            copies *= loop.factor;
    return copies;
  }

  /// The MACs' accesses to the innermost keeper `level`: one per
  /// instance, step and group of MACs that differ along dims the operand
  /// depends on; a written word's first touch by an instance reads
  /// nothing.
  Exchange macTraffic(const PartialTileCounter::OperandShape &shape,
                      unsigned level) const {
    auto macs = [&](auto relevantPick, auto ignoredPick) {
      return product([&](unsigned d) {
        return shape.relevant[d] ? countPoints(chains[d], relevantPick)
                                 : countPoints(chains[d], ignoredPick);
      });
    };
    const auto all = [](const ChainLoop &) { return true; };
    const auto none = [](const ChainLoop &) { return false; };
    const auto temporal = [](const ChainLoop &loop) { return !loop.spatial; };
    const auto above = [level](const ChainLoop &loop) {
      return loop.spatial && loop.level > level;
    };
    const auto notBelow = [level](const ChainLoop &loop) {
      return !loop.spatial || loop.level > level;
    };
    const auto notAbove = [level](const ChainLoop &loop) {
      return !loop.spatial || loop.level <= level;
    };
    Exchange e;
    e.down = macs(all, notBelow);
    e.downFirst = macs(notAbove, temporal);
    if (shape.written) {
      e.up = e.down;
      e.upFirst = e.downFirst;
      e.down -= macs(all, above);
      e.downFirst -= macs(notAbove, none);
    }
    return e;
  }

  /// What the child keeper `child` fetches from `level` (once per
  /// multicast group) and, for a written operand, writes back: every word
  /// that enters a child's box leaves it once, and is fetched unless it is
  /// the child's first visit.
  Exchange childTraffic(const PartialTileCounter::OperandShape &shape,
                        unsigned child, unsigned level) {
    const Selection all{levelsAbove(child), levelsAbove(level)};
    const Selection first{levelsAbove(child) & ~levelsAbove(level), 0};
    int64_t held, heldFirst;
    Exchange e;
    e.down = enteringWords(shape, child, all, held);
    e.downFirst = enteringWords(shape, child, first, heldFirst);
    if (shape.written) {
      e.up = e.down;
      e.upFirst = e.downFirst;
      e.down -= held;
      e.downFirst -= heldFirst;
    }
    return e;
  }

  /// Words entering the boxes of the operand at `level` over the instances
  /// `which` selects; `held` gets the distinct words they hold.
  int64_t enteringWords(const PartialTileCounter::OperandShape &shape,
                        unsigned level, Selection which, int64_t &held) {
    held = 1;
    for (unsigned d = 0; d < numDims; ++d) {
      dims[d] = dimAtLevel(chains[d], level);
      sumDim(dims[d], shape.relevant[d], which, scratch.sums[d]);
      held = saturatingMul(held, scratch.sums[d].coverage);
    }
    for (unsigned d = 0; d < numDims; ++d)
      dimMoves[d] = &scratch.sums[d].first;
    int64_t total = wordsIn(shape, true);
    // Every temporal loop j above the level steps.
    for (unsigned jd = 0; jd < numDims; ++jd)
      for (unsigned k = 0; k < dims[jd].numTemporal; ++k) {
        const unsigned at = dims[jd].temporal[k]->position;
        // A step that moves no dim the operand depends on brings nothing.
        bool moves = shape.relevant[jd];
        for (unsigned d = 0; d < numDims; ++d) {
          if (d == jd) {
            dimMoves[d] = &scratch.sums[d].carry[k];
            continue;
          }
          unsigned outside = 0;
          while (outside < dims[d].numTemporal &&
                 dims[d].temporal[outside]->position < at)
            ++outside;
          dimMoves[d] = &scratch.sums[d].wrap[outside];
          moves |= shape.relevant[d] && outside < dims[d].numTemporal;
        }
        if (moves)
          total = saturatingAdd(total, wordsIn(shape, false));
      }
    return total;
  }

private:
  /// The words that one kind of move brings, each dim's moves in
  /// `dimMoves`: the boxes' words less what they kept (nothing, for the
  /// first boxes).
  int64_t wordsIn(const PartialTileCounter::OperandShape &shape, bool first) {
    int64_t copies = 1;
    for (unsigned d = 0; d < numDims; ++d)
      if (!shape.relevant[d])
        copies = saturatingMul(copies, moveCount(*dimMoves[d]));
    if (copies == 0)
      return 0;
    int64_t words = 1, kept = first ? 0 : 1;
    for (const PartialTileCounter::Group &group : shape.groups) {
      GroupSums sums;
      sumGroup(group, 0, dimMoves.data(), chosen.data(), 1, sums);
      words = saturatingMul(words, sums.words);
      kept = saturatingMul(kept, sums.kept);
    }
    return saturatingMul(copies, words - kept);
  }

  unsigned numDims;
  Scratch &scratch;
  std::array<Chain, kMaxDims> chains;
  std::array<DimAtLevel, kMaxDims> dims;
  std::array<const Moves *, kMaxDims> dimMoves;
  std::array<const Move *, kMaxDims> chosen;
};

} // namespace

PartialTileCounter::Totals PartialTileCounter::count(const Mapping &mapping,
                                                     Evaluation &out) const {
  const unsigned numLevels = mapping.levels.size();
  const unsigned numOperands = problem.operands.size();
  thread_local Scratch scratch;
  Counting counting(problem, mapping, scratch);
  Totals totals;
  totals.activeSteps =
      counting.points([](const ChainLoop &l) { return !l.spatial; });
  totals.macInstancesUsed =
      counting.points([](const ChainLoop &l) { return l.spatial; });
  for (unsigned o = 0; o < numOperands; ++o) {
    const OperandShape &shape = shapes[o];
    if (!shape.moves)
      continue;
    int child = -1; // the MACs
    for (unsigned l = 0; l < numLevels; ++l) {
      if (!mapping.levels[l].keep[o])
        continue;
      OperandStats &stats = out.operands[l * numOperands + o];
      stats.kept = true;
      int64_t capacity, partition;
      counting.tiles(problem.operands[o], l, capacity, partition);
      stats.utilizedCapacity = capacity;
      stats.partitionSize = partition;
      totals.levelWords[l] = saturatingAdd(totals.levelWords[l], capacity);
      stats.instances = counting.instances(shape, l);
      const Exchange children = child < 0
                                    ? counting.macTraffic(shape, l)
                                    : counting.childTraffic(shape, child, l);
      // What this level fetches from its parent: what enters its boxes,
      // less first visits of a written operand.
      int64_t fills = 0, fillsFirst = 0;
      if (l + 1 < numLevels) {
        int64_t held, heldFirst;
        fills = counting.enteringWords(shape, l,
                                       {levelsAbove(l), levelsAbove(l)}, held);
        fillsFirst = counting.enteringWords(shape, l, {0, 0}, heldFirst);
        if (shape.written) {
          fills -= held;
          fillsFirst -= heldFirst;
        }
      }
      stats.reads = children.downFirst;
      stats.fills = fillsFirst;
      stats.updates = children.upFirst;
      stats.sumReads = children.down;
      stats.sumFills = fills;
      stats.sumUpdates = children.up;
      (shape.written ? stats.spatialReduction : stats.multicast) =
          counting.shared(shape, child, l);
      for (int64_t figure :
           {children.down, children.up, fills, capacity, stats.instances})
        totals.overflow |= figure == kSaturated;
      child = int(l);
    }
  }
  for (unsigned l = 0; l < numLevels; ++l)
    totals.overflow |= totals.levelWords[l] == kSaturated;
  totals.overflow |= totals.activeSteps == kSaturated;
  return totals;
}

} // namespace marlmap::detail
