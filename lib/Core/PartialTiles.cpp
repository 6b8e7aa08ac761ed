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
//===----------------------------------------------------------------------===//

#include "PartialTiles.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace marlmap::detail {
namespace {

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
  std::vector<ChainLoop> loops;
};

/// Index choices of the loops `pick` accepts, the others at 0, whose
/// origin plus `offset` stays below the bound. Along a dim every tile but
/// the last of its parent is whole, so one pass from the outside suffices.
template <typename Pick>
int64_t countPoints(const Chain &chain, Pick pick, int64_t offset = 0) {
  std::vector<const ChainLoop *> picked;
  for (const ChainLoop &loop : chain.loops)
    if (pick(loop))
      picked.push_back(&loop);
  const size_t n = picked.size();
  // Per loop: the choices of it and the loops inside, and the farthest
  // origin they reach.
  std::vector<int64_t> choices(n + 1, 1), reach(n + 1, 0);
  for (size_t i = n; i-- > 0;) {
    choices[i] = saturatingMul(choices[i + 1], picked[i]->factor);
    reach[i] = reach[i + 1] + (picked[i]->factor - 1) * picked[i]->stride;
  }
  int64_t rest = chain.bound - offset; // room left for the inner loops
  if (rest <= 0)
    return 0;
  int64_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    if (rest > reach[i])
      return saturatingAdd(total, choices[i]);
    // Iterations before the last that runs leave whole tiles inside.
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

void addMove(Moves &moves, Move move) {
  for (Move &m : moves)
    if (m.oldExtent == move.oldExtent && m.newExtent == move.newExtent &&
        m.shift == move.shift) {
      m.count = saturatingAdd(m.count, move.count);
      return;
    }
  moves.push_back(move);
}

int64_t moveCount(const Moves &moves) {
  int64_t n = 0;
  for (const Move &m : moves)
    n = saturatingAdd(n, m.count);
  return n;
}

/// What one dim does for the instances of one level: the first tile
/// (oldExtent 0), the moves of each of its temporal loops stepping, the
/// moves when the loops inside a loop of another dim wrap (by how many of
/// this dim's loops are outside it), and the coordinates covered.
struct Profile {
  Moves first;
  std::vector<Moves> carry;
  std::vector<Moves> wrap;
  int64_t coverage = 0;

  void add(const Profile &other, int64_t weight) {
    auto merge = [weight](Moves &into, const Moves &from) {
      for (Move m : from) {
        m.count = saturatingMul(m.count, weight);
        addMove(into, m);
      }
    };
    merge(first, other.first);
    carry.resize(other.carry.size());
    wrap.resize(other.wrap.size());
    for (size_t k = 0; k < other.carry.size(); ++k)
      merge(carry[k], other.carry[k]);
    for (size_t p = 0; p < other.wrap.size(); ++p)
      merge(wrap[p], other.wrap[p]);
    coverage = saturatingAdd(coverage, saturatingMul(other.coverage, weight));
  }
};

/// One valid epoch's tile on a dim: its origin and extent, and which
/// temporal loop stepped to reach it from the one before (-1: the first).
struct Tile {
  int64_t origin, extent;
  int carry;
};

void walkTiles(const std::vector<const ChainLoop *> &loops, size_t k,
               int64_t origin, int carry, int64_t bound, int64_t tile,
               std::vector<Tile> &out) {
  if (k == loops.size()) {
    out.push_back({origin, std::min(tile, bound - origin), carry});
    return;
  }
  const ChainLoop &loop = *loops[k];
  for (int64_t i = 0; i < loop.factor && origin + i * loop.stride < bound; ++i)
    walkTiles(loops, k + 1, origin + i * loop.stride, i == 0 ? carry : int(k),
              bound, tile, out);
}

Profile profileOf(const std::vector<const ChainLoop *> &temporal,
                  int64_t offset, int64_t bound, int64_t tile) {
  Profile profile;
  const size_t n = temporal.size();
  profile.carry.resize(n);
  profile.wrap.resize(n + 1);
  if (offset >= bound)
    return profile; // no such instance
  std::vector<Tile> tiles;
  walkTiles(temporal, 0, offset, -1, bound, tile, tiles);
  addMove(profile.first, {0, tiles[0].extent, 0, 1});
  for (size_t i = 0; i < tiles.size(); ++i) {
    profile.coverage += tiles[i].extent;
    if (i > 0)
      addMove(profile.carry[tiles[i].carry],
              {tiles[i - 1].extent, tiles[i].extent,
               tiles[i].origin - tiles[i - 1].origin, 1});
  }
  // With p of the dim's loops outside the stepping loop, the tiles that
  // share those p choices wrap from the last of them to the first.
  for (size_t p = 0; p <= n; ++p)
    for (size_t begin = 0; begin < tiles.size();) {
      size_t end = begin + 1;
      while (end < tiles.size() && tiles[end].carry >= int(p))
        ++end;
      const Tile &last = tiles[end - 1], &firstTile = tiles[begin];
      addMove(profile.wrap[p], {last.extent, firstTile.extent,
                                firstTile.origin - last.origin, 1});
      begin = end;
    }
  return profile;
}

/// One dim as the instances of one level see it.
struct DimAtLevel {
  /// The temporal loops above the level, outermost first.
  std::vector<const ChainLoop *> temporal;
  /// Per choice of the spatial loops above the level: the levels whose
  /// spatial loops it moves (a bit each) and its profile. The first choice
  /// is every index 0.
  struct Instance {
    uint32_t levels;
    Profile profile;
  };
  std::vector<Instance> instances;
  /// The spatial loops above the level.
  std::vector<const ChainLoop *> spatial;
};

DimAtLevel dimAtLevel(const Chain &chain, unsigned level) {
  DimAtLevel out;
  int64_t tile = 1;
  for (const ChainLoop &loop : chain.loops) {
    if (loop.level <= level)
      tile *= loop.factor;
    else
      (loop.spatial ? out.spatial : out.temporal).push_back(&loop);
  }
  // Every choice of the spatial loops, the innermost fastest.
  std::vector<int64_t> index(out.spatial.size(), 0);
  while (true) {
    int64_t offset = 0;
    uint32_t levels = 0;
    for (size_t i = 0; i < index.size(); ++i) {
      offset += index[i] * out.spatial[i]->stride;
      if (index[i])
        levels |= 1u << out.spatial[i]->level;
    }
    out.instances.push_back(
        {levels, profileOf(out.temporal, offset, chain.bound, tile)});
    size_t i = index.size();
    while (i-- > 0) {
      if (++index[i] < out.spatial[i]->factor)
        break;
      index[i] = 0;
    }
    if (i == size_t(-1))
      break;
  }
  return out;
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

Profile sumProfiles(const DimAtLevel &dim, bool relevant, Selection which) {
  Profile sum;
  if (!relevant) {
    int64_t weight = 1;
    for (const ChainLoop *loop : dim.spatial)
      if (which.weigh & (1u << loop->level))
        weight = saturatingMul(weight, loop->factor);
    sum.add(dim.instances.front().profile, weight);
    sum.coverage = weight; // one word along it, for every copy
    return sum;
  }
  for (const DimAtLevel::Instance &instance : dim.instances)
    if ((instance.levels & ~which.vary) == 0)
      sum.add(instance.profile, 1);
  return sum;
}

/// Words of a box and of its overlap with the box before, summed over the
/// moves of one group's dims: `dimMoves[d]` are dim d's.
struct GroupSums {
  int64_t words = 0, kept = 0;
};

void sumGroup(const PartialTileCounter::Group &group, size_t i,
              const std::vector<const Moves *> &dimMoves, const Move **chosen,
              int64_t weight, GroupSums &sums) {
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

/// A temporal loop above a level: its dim and its place among the dim's.
struct Stepper {
  unsigned dim, index, position;
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

PartialTileCounter::Totals PartialTileCounter::count(const Mapping &mapping,
                                                     Evaluation &out) const {
  const unsigned numDims = problem.dims.size();
  const unsigned numLevels = mapping.levels.size();
  const unsigned numOperands = problem.operands.size();
  Totals totals;
  totals.levelWords.assign(numLevels, 0);

  // The temporal loops' places in the nest, outermost first.
  std::vector<std::vector<unsigned>> position(
      numLevels, std::vector<unsigned>(numDims, 0));
  unsigned places = 0;
  for (unsigned l = numLevels; l-- > 0;)
    for (unsigned d : mapping.levels[l].order)
      if (mapping.levels[l].temporal[d] > 1)
        position[l][d] = places++;
  std::vector<Chain> chains(numDims);
  for (unsigned d = 0; d < numDims; ++d) {
    Chain &chain = chains[d];
    chain.bound = problem.dims[d].bound;
    for (const DimLoop &loop : loopsOnDim(mapping, problem, d))
      if (loop.factor > 1)
        chain.loops.push_back({loop.level, loop.kind != DimLoop::Temporal,
                               loop.factor, 1, position[loop.level][d]});
    int64_t inside = 1;
    for (auto it = chain.loops.rbegin(); it != chain.loops.rend(); ++it) {
      it->stride = inside;
      inside = saturatingMul(inside, it->factor);
    }
  }
  auto product = [&](auto perDim) {
    int64_t p = 1;
    for (unsigned d = 0; d < numDims; ++d)
      p = saturatingMul(p, perDim(d));
    return p;
  };
  totals.activeSteps = product([&](unsigned d) {
    return countPoints(chains[d],
                       [](const ChainLoop &l) { return !l.spatial; });
  });
  totals.macInstancesUsed = product([&](unsigned d) {
    return countPoints(chains[d], [](const ChainLoop &l) { return l.spatial; });
  });

  // Each dim as each level's instances see it, built when first needed.
  std::vector<std::vector<DimAtLevel>> dims(numLevels);
  auto dimAt = [&](unsigned l, unsigned d) -> const DimAtLevel & {
    if (dims[l].empty())
      for (unsigned e = 0; e < numDims; ++e)
        dims[l].push_back(dimAtLevel(chains[e], l));
    return dims[l][d];
  };

  // Words entering the boxes of operand `o` at level `l` over the
  // instances `which` selects, and the distinct words they hold.
  auto enteringWords = [&](unsigned o, unsigned l, Selection which,
                           int64_t &distinctWords) {
    const OperandShape &shape = shapes[o];
    std::vector<Profile> sums(numDims);
    distinctWords = 1;
    for (unsigned d = 0; d < numDims; ++d) {
      sums[d] = sumProfiles(dimAt(l, d), shape.relevant[d], which);
      distinctWords = saturatingMul(distinctWords, sums[d].coverage);
    }
    std::vector<Stepper> steppers;
    for (unsigned d = 0; d < numDims; ++d) {
      const DimAtLevel &dim = dimAt(l, d);
      for (unsigned k = 0; k < dim.temporal.size(); ++k)
        steppers.push_back({d, k, dim.temporal[k]->position});
    }
    std::vector<const Moves *> dimMoves(numDims);
    std::vector<const Move *> chosen(numDims);
    // One kind of move: each dim's moves in `dimMoves`.
    auto wordsIn = [&](bool first) {
      int64_t copies = 1;
      for (unsigned d = 0; d < numDims; ++d)
        if (!shape.relevant[d])
          copies = saturatingMul(copies, moveCount(*dimMoves[d]));
      if (copies == 0)
        return int64_t(0);
      int64_t words = 1, kept = first ? 0 : 1;
      for (const Group &group : shape.groups) {
        GroupSums sums;
        sumGroup(group, 0, dimMoves, chosen.data(), 1, sums);
        words = saturatingMul(words, sums.words);
        kept = saturatingMul(kept, sums.kept);
      }
      return saturatingMul(copies, words - kept);
    };
    for (unsigned d = 0; d < numDims; ++d)
      dimMoves[d] = &sums[d].first;
    int64_t total = wordsIn(true);
    for (const Stepper &j : steppers) {
      for (unsigned d = 0; d < numDims; ++d) {
        if (d == j.dim) {
          dimMoves[d] = &sums[d].carry[j.index];
          continue;
        }
        unsigned outside = 0;
        for (const ChainLoop *loop : dimAt(l, d).temporal)
          outside += loop->position < j.position;
        dimMoves[d] = &sums[d].wrap[outside];
      }
      total = saturatingAdd(total, wordsIn(false));
    }
    return total;
  };

  auto isRelevant = [&](unsigned o, unsigned d) {
    return bool(shapes[o].relevant[d]);
  };
  for (unsigned o = 0; o < numOperands; ++o) {
    const OperandShape &shape = shapes[o];
    const Operand &operand = problem.operands[o];
    if (!shape.moves)
      continue;
    int child = -1; // the MACs
    for (unsigned l = 0; l < numLevels; ++l) {
      if (!mapping.levels[l].keep[o])
        continue;
      OperandStats &stats = out.operands[l * numOperands + o];
      stats.kept = true;
      // The largest tile and the first instance's whole share.
      int64_t capacity = 1, partition = 1;
      for (const Coordinate &axis : operand.projection) {
        int64_t span = 1, wholeSpan = 1;
        for (const ProjectionTerm &term : axis.terms) {
          const Chain &chain = chains[term.dim];
          int64_t tile = 1, whole = 1;
          for (const ChainLoop &loop : chain.loops) {
            tile *= loop.level <= unsigned(l) ? loop.factor : 1;
            whole *=
                loop.level <= unsigned(l) || !loop.spatial ? loop.factor : 1;
          }
          span +=
              std::abs(term.coefficient) * (std::min(tile, chain.bound) - 1);
          wholeSpan +=
              std::abs(term.coefficient) * (std::min(whole, chain.bound) - 1);
        }
        capacity = saturatingMul(capacity, span);
        partition = saturatingMul(partition, wholeSpan);
      }
      stats.utilizedCapacity = capacity;
      stats.partitionSize = partition;
      totals.levelWords[l] = saturatingAdd(totals.levelWords[l], capacity);
      stats.instances = product([&](unsigned d) {
        const auto above = [l](const ChainLoop &loop) {
          return loop.spatial && loop.level > l;
        };
        if (isRelevant(o, d))
          return countPoints(chains[d], above);
        int64_t copies = 1;
        for (const ChainLoop &loop : chains[d].loops)
          copies *= above(loop) ? loop.factor : 1;
        return copies;
      });
      // Spatial factors between the child and this level on the dims the
      // operand ignores: children that share each word.
      int64_t shared = 1;
      for (unsigned d = 0; d < numDims; ++d)
        if (!isRelevant(o, d))
          for (const ChainLoop &loop : chains[d].loops)
            if (loop.spatial && int(loop.level) > child && loop.level <= l)
              shared *= loop.factor;

      // What the children exchange with this level, over all instances
      // and for the first.
      int64_t down, downFirst, up = 0, upFirst = 0;
      if (child < 0) {
        // A MAC's access, once per instance, step and group of MACs that
        // differ along dims the operand depends on.
        auto macs = [&](auto relevantPick, auto ignoredPick) {
          return product([&](unsigned d) {
            return isRelevant(o, d) ? countPoints(chains[d], relevantPick)
                                    : countPoints(chains[d], ignoredPick);
          });
        };
        const auto all = [](const ChainLoop &) { return true; };
        const auto notBelow = [l](const ChainLoop &loop) {
          return !loop.spatial || loop.level > l;
        };
        const auto notAbove = [l](const ChainLoop &loop) {
          return !loop.spatial || loop.level <= l;
        };
        const auto temporal = [](const ChainLoop &loop) {
          return !loop.spatial;
        };
        const auto above = [l](const ChainLoop &loop) {
          return loop.spatial && loop.level > l;
        };
        const auto none = [](const ChainLoop &) { return false; };
        down = macs(all, notBelow);
        downFirst = macs(notAbove, temporal);
        if (shape.written) {
          // The first touch of a word by an instance reads nothing.
          up = down;
          upFirst = downFirst;
          down -= macs(all, above);
          downFirst -= macs(notAbove, none);
        }
      } else {
        const Selection all{levelsAbove(child), levelsAbove(l)};
        const Selection firstInstance{levelsAbove(child) & ~levelsAbove(l), 0};
        int64_t held, heldFirst;
        const int64_t entered = enteringWords(o, child, all, held);
        const int64_t enteredFirst =
            enteringWords(o, child, firstInstance, heldFirst);
        down = entered;
        downFirst = enteredFirst;
        if (shape.written) {
          // Children write back what enters their boxes, and fetch it
          // back unless it is their first visit.
          up = entered;
          upFirst = enteredFirst;
          down = entered - held;
          downFirst = enteredFirst - heldFirst;
        }
      }
      int64_t fills = 0, fillsFirst = 0;
      if (l + 1 < numLevels) {
        int64_t held, heldFirst;
        fills = enteringWords(o, l, {levelsAbove(l), levelsAbove(l)}, held);
        fillsFirst = enteringWords(o, l, {0, 0}, heldFirst);
        if (shape.written) {
          fills -= held;
          fillsFirst -= heldFirst;
        }
      }
      stats.reads = downFirst;
      stats.fills = fillsFirst;
      stats.updates = upFirst;
      stats.sumReads = down;
      stats.sumFills = fills;
      stats.sumUpdates = up;
      (shape.written ? stats.spatialReduction : stats.multicast) = shared;
      for (int64_t figure : {down, up, fills, capacity, stats.instances})
        totals.overflow |= figure == kSaturated;
      child = l;
    }
  }
  for (int64_t words : totals.levelWords)
    totals.overflow |= words == kSaturated;
  totals.overflow |= totals.activeSteps == kSaturated;
  return totals;
}

} // namespace marlmap::detail
