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
#include "PartialTileDims.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <numeric>

namespace marlmap::detail {
using namespace partial;
namespace {

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
  /// Each dim as each level's instances see it, made once per count.
  std::array<std::array<DimAtLevel, kMaxDims>, kMaxLevels> atLevel;
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
          if (factor > 1) {
            assert(chain.size < kMaxChain && "three loops per level at most");
            chain.loops[chain.size++] = {l, spatial, factor, 1, position[l][d]};
          }
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
  /// the child's first visit. `childEntering` and `childHeld` are the
  /// child's own entering words and held words over all its instances
  /// (what its fills counted): over multicast groups they are the same
  /// sums with each ignored dim weighed by fewer copies, which only scale
  /// them, so they divide by the `copies` each group has.
  Exchange childTraffic(const PartialTileCounter::OperandShape &shape,
                        unsigned child, unsigned level, int64_t childEntering,
                        int64_t childHeld, int64_t copies) {
    const Selection all{levelsAbove(child), levelsAbove(level)};
    const Selection first{levelsAbove(child) & ~levelsAbove(level), 0};
    int64_t held, heldFirst;
    Exchange e;
    if (childEntering != kSaturated && childHeld != kSaturated) {
      assert(childEntering % copies == 0 && childHeld % copies == 0 &&
             "every word's copies enter alike");
      e.down = childEntering / copies;
      held = childHeld / copies;
    } else {
      e.down = enteringWords(shape, child, all, held);
    }
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
    const std::array<DimAtLevel, kMaxDims> &dims = dimsAt(level);
    for (unsigned d = 0; d < numDims; ++d) {
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
  /// Every dim as the instances of `level` see it; the same for every
  /// operand and selection, so made at the first ask.
  const std::array<DimAtLevel, kMaxDims> &dimsAt(unsigned level) {
    std::array<DimAtLevel, kMaxDims> &dims = scratch.atLevel[level];
    if (!(levelsMade & (1u << level))) {
      for (unsigned d = 0; d < numDims; ++d)
        dims[d] = dimAtLevel(chains[d], level);
      levelsMade |= 1u << level;
    }
    return dims;
  }

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
  /// The levels whose dims scratch.atLevel holds for this count.
  uint32_t levelsMade = 0;
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
    // The child keeper's entering and held words over all its instances.
    int64_t childEntering = kSaturated, childHeld = kSaturated;
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
      const int64_t copies = counting.shared(shape, child, l);
      const Exchange children =
          child < 0 ? counting.macTraffic(shape, l)
                    : counting.childTraffic(shape, child, l, childEntering,
                                            childHeld, copies);
      // What this level fetches from its parent: what enters its boxes,
      // less first visits of a written operand.
      int64_t fills = 0, fillsFirst = 0;
      if (l + 1 < numLevels) {
        int64_t held, heldFirst;
        fills = counting.enteringWords(shape, l,
                                       {levelsAbove(l), levelsAbove(l)}, held);
        childEntering = fills;
        childHeld = held;
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
      (shape.written ? stats.spatialReduction : stats.multicast) = copies;
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
