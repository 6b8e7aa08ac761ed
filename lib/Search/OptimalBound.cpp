//===- OptimalBound.cpp - Lower bounds on partial mappings ----------------===//
//
// Levels `decided` and up are fixed; call s = decided. The model's figures
// for a level m depend on its tile and on the loops above it, so for every
// m >= s - 1 the fills are final, and so are the reads and updates of a
// level whose next kept level below is at s - 1 or above. Everything else
// is bounded from below by seven rules (docs/Search.md):
//  1. the innermost level that keeps an operand sends the MACs
//     MACs / (its spatial factors below it on dims the operand ignores)
//     words in all, whatever the rest;
//  2. a level kept below s - 1 fetches, over all its instances, at least
//     what level s - 1 would fetch if it kept the operand:
//     instances(s-1) x points(tile(s-1)) x G, G the decided loops from
//     the innermost one the operand depends on outwards (simple operands,
//     strided or not), which only the decided levels' multicast divides;
//  3. every count is at least zero (for written operands: simple ones
//     without a stride);
//  4. operands that ignore disjoint dims share the fanouts that spread
//     their MACs' sides (rule 1's terms);
//  5. a kept level passes every word of the operand the problem touches
//     at least once;
//  6. once a loop on a dim the operand depends on must run under the
//     decided levels, rule 2 counts every decided loop;
//  7. for EDP, an operand's MACs' side and the compute spread over the
//     same fanout: the least energy x cycles over the ways to share it.
// Spreads of undecided levels are at most the largest products of
// factors that fit their fanouts and divide the extents left to them.
//
//===----------------------------------------------------------------------===//

#include "OptimalBound.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

int64_t refetchedLoops(const Mapping &mapping, unsigned from, uint32_t relevant,
                       bool relevantLoopBelow) {
  int64_t product = 1;
  bool reached = relevantLoopBelow;
  for (unsigned m = from; m < mapping.levels.size(); ++m) {
    const LevelMapping &level = mapping.levels[m];
    for (auto it = level.order.rbegin(); it != level.order.rend(); ++it) {
      if (level.temporal[*it] <= 1)
        continue; // the model drops loops of one step
      reached |= (relevant >> *it) & 1;
      if (reached)
        product = saturatingMul(product, level.temporal[*it]);
    }
  }
  return product;
}

uint32_t relevantDimsOf(const Problem &problem, unsigned operand) {
  uint32_t relevant = 0;
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    relevant |= uint32_t(problem.dependsOn(operand, d)) << d;
  return relevant;
}

bool movesUnder(const Problem &problem, const Mapping &mapping, unsigned level,
                unsigned operand) {
  if (problem.operands[operand].access == Access::None)
    return false;
  for (unsigned m = 0; m < level; ++m)
    if (mapping.levels[m].keep[operand])
      return true;
  return false;
}

bool operandIsSimple(const Problem &problem, unsigned operand) {
  uint32_t seen = 0;
  for (const Coordinate &axis : problem.operands[operand].projection) {
    unsigned moving = 0;
    for (const ProjectionTerm &term : axis.terms) {
      if (term.dim >= 32)
        return false;
      if (term.coefficient == 0 || problem.dims[term.dim].bound == 1)
        continue;
      if ((seen & (1u << term.dim)) || ++moving > 1)
        return false;
      seen |= 1u << term.dim;
    }
  }
  return true;
}

bool operandHasUnitSteps(const Problem &problem, unsigned operand) {
  for (const Coordinate &axis : problem.operands[operand].projection)
    for (const ProjectionTerm &term : axis.terms)
      if (term.coefficient != 0 && std::abs(term.coefficient) != 1 &&
          !(term.dim < problem.dims.size() &&
            problem.dims[term.dim].bound == 1))
        return false;
  return true;
}

int64_t simpleOperandPoints(const Problem &problem, unsigned operand,
                            const int64_t *extents) {
  int64_t points = 1;
  for (const Coordinate &axis : problem.operands[operand].projection) {
    int64_t along = 1;
    for (const ProjectionTerm &term : axis.terms)
      if (term.coefficient != 0)
        along += extents[term.dim] - 1;
    points = saturatingMul(points, along);
  }
  return points;
}

PartialBound::PartialBound(const MapSpace &space, Objective objective)
    : space(space), objective(objective),
      floorBound(objectiveBound(space.model().lowerBound(), objective)) {
  const Problem &problem = space.problem();
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    relevantDims.push_back(relevantDimsOf(problem, o));
    simple.push_back(operandIsSimple(problem, o));
    operandWords.push_back(double(problem.touchedWords(o)));
    // Rule 3 takes a written operand's fetches to cover its partition,
    // which a stride's gaps make larger than the tiles it spans.
    if (problem.operands[o].isWritten() &&
        !(simple.back() && operandHasUnitSteps(problem, o)))
      soundRules = false;
  }
  const Mapping &fixed = space.fixedChoices();
  const unsigned numDims = problem.dims.size();
  int64_t product[CostModel::kMaxDims];
  std::fill(product, product + numDims, 1);
  for (const LevelMapping &level : fixed.levels) {
    for (unsigned d = 0; d < numDims; ++d)
      product[d] *= level.temporal[d] * level.spatialX[d] * level.spatialY[d];
    fixedTile.emplace_back(product, product + numDims);
  }
  const unsigned numLevels = fixed.levels.size();
  spatialCaps.assign(numLevels * 2 * numDims, 1);
  for (unsigned l = 0; l < numLevels; ++l)
    for (unsigned d = 0; d < numDims; ++d) {
      spatialCaps[(l * 2 + 0) * numDims + d] = fixed.levels[l].spatialX[d];
      spatialCaps[(l * 2 + 1) * numDims + d] = fixed.levels[l].spatialY[d];
    }
  constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
  for (unsigned d = 0; d < numDims; ++d)
    for (const MapSpace::FactorSlot &slot : space.factorSlots(d))
      for (unsigned axis = 0; axis < 2; ++axis) {
        if (slot.kind != axis + 1 && slot.kind != 3)
          continue;
        // A slot on either axis has the cap of the axis it lands on.
        const int64_t largest = space.largestFactor(slot.level, axis + 1, d);
        int64_t &cap = spatialCaps[(slot.level * 2 + axis) * numDims + d];
        cap = largest == 0 ? kAny : std::max(cap, largest);
      }
}

bool PartialBound::fits(const Mapping &partial, unsigned level,
                        const int64_t *tile) const {
  const Problem &problem = space.problem();
  const StorageLevel &storage = space.arch().levels[level];
  if (!storage.entries)
    return true;
  extents.assign(tile, tile + problem.dims.size());
  int64_t words = 0;
  for (unsigned o = 0; o < problem.operands.size(); ++o)
    if (partial.levels[level].keep[o] &&
        problem.operands[o].access != Access::None)
      words = saturatingAdd(words, problem.footprint(o, extents));
  return !(double(words) >
           double(*storage.entries) / storage.multipleBuffering);
}

void simplestCompletion(const MapSpace &space, const Mapping &partial,
                        const int64_t *remaining, unsigned decided,
                        Mapping &completion) {
  completion = partial;
  const Mapping &fixed = space.fixedChoices();
  for (unsigned l = 0; l + 1 < decided; ++l) {
    completion.levels[l].temporal = fixed.levels[l].temporal;
    completion.levels[l].spatialX = fixed.levels[l].spatialX;
    completion.levels[l].spatialY = fixed.levels[l].spatialY;
  }
  for (unsigned d = 0; d < space.problem().dims.size(); ++d)
    completion.levels[0].temporal[d] *= remaining[d];
}

std::vector<uint32_t>
PartialBound::orderClass(const Mapping &mapping, unsigned level,
                         const std::vector<unsigned> &order) const {
  // A level's order enters only the fills of the levels under it, and so
  // only for the operands they keep. A simple operand's fetches are its
  // tile times the loops from the innermost one it depends on outwards
  // (rule 2's argument): of this level's order they read only which loops
  // sit inside that one. Any other operand may read the whole order.
  std::vector<uint32_t> key;
  const Problem &problem = space.problem();
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    if (!movesUnder(problem, mapping, level, o))
      continue;
    if (!simple[o]) {
      key.insert(key.end(), order.begin(), order.end());
      continue;
    }
    uint32_t inside = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (relevantDims[o] & (1u << *it))
        break;
      inside |= 1u << *it;
    }
    key.push_back(inside);
  }
  return key;
}

namespace {

/// The figures of a partial mapping that bound() reads, level by level.
struct Layout {
  /// tile[l][d], and every spatial factor's product per level.
  int64_t tile[CostModel::kMaxLevels][CostModel::kMaxDims];
  int64_t spread[CostModel::kMaxLevels];
  /// Instances of each level: the spreads above it.
  int64_t instances[CostModel::kMaxLevels];
};

/// Spatial factors at `level` on the dims not in `relevant` (one bit per
/// dim).
int64_t ignoredSpread(const LevelMapping &level, unsigned numDims,
                      uint32_t relevant) {
  int64_t spread = 1;
  for (unsigned d = 0; d < numDims; ++d)
    if (!(relevant & (1u << d)))
      spread *= level.spatialX[d] * level.spatialY[d];
  return spread;
}

/// The cycles `macs` MACs take at `spread` MACs' instances at once: the
/// steps each instance runs, at the array's MACs per cycle.
double computeCycles(double macs, double spread, const ComputeArray &compute) {
  const double temporal = std::ceil(macs / spread - 1e-9);
  return std::ceil(temporal / double(compute.macsPerCycle) - 1e-9);
}

} // namespace

double leastSharedSpreadCost(const std::vector<SpreadTerm> &terms,
                             double fanout) {
  // At the optimum each X is clamp(weight / mu, 1, room) for the mu whose
  // product is the fanout (the Lagrange condition of the convex problem in
  // log X). The log of that product falls piecewise linearly in log mu,
  // with breaks where a term reaches its room or 1: walk the breaks, then
  // solve the linear piece that crosses log fanout.
  constexpr unsigned kMost = CostModel::kMaxDims;
  // Terms that cannot spread (room 1) or cost nothing take no fanout.
  double sum = 0.0, fixed = 0.0, logWeight[kMost], logRoom[kMost],
         logRooms = 0.0;
  unsigned n = 0;
  for (const SpreadTerm &term : terms) {
    sum += term.weight / term.room;
    if (!(term.weight > 0.0 && term.room > 1.0)) {
      fixed += term.weight / term.room;
    } else if (n < kMost) {
      logWeight[n] = std::log(term.weight);
      logRoom[n] = std::log(term.room);
      logRooms += logRoom[n++];
    } else {
      return sum; // more terms than dims: they cannot ignore disjoint dims
    }
  }
  const double target = std::log(fanout);
  if (n == 0 || logRooms <= target)
    return sum;
  // The log of the product at t = log mu.
  auto logProduct = [&](double t) {
    double total = 0.0;
    for (unsigned i = 0; i < n; ++i)
      total += std::clamp(logWeight[i] - t, 0.0, logRoom[i]);
    return total;
  };
  double breaks[2 * kMost];
  for (unsigned i = 0; i < n; ++i) {
    breaks[2 * i] = logWeight[i] - logRoom[i];
    breaks[2 * i + 1] = logWeight[i];
  }
  std::sort(breaks, breaks + 2 * n);
  // At the first break every term is at its room (the product is over the
  // fanout); at the last, every term is at 1 (under it).
  double t = breaks[2 * n - 1];
  for (unsigned b = 1; b < 2 * n; ++b) {
    const double end = logProduct(breaks[b]);
    if (end > target)
      continue;
    // Linear between the two breaks: interpolate.
    const double start = logProduct(breaks[b - 1]);
    t = start > end ? breaks[b - 1] + (start - target) / (start - end) *
                                          (breaks[b] - breaks[b - 1])
                    : breaks[b];
    break;
  }
  double cost = fixed;
  for (unsigned i = 0; i < n; ++i)
    cost +=
        std::exp(logWeight[i] - std::clamp(logWeight[i] - t, 0.0, logRoom[i]));
  return cost;
}

void PartialBound::reachableSpreads(unsigned level, unsigned axis,
                                    uint32_t dims, const int64_t *extents,
                                    int64_t limit,
                                    std::vector<int64_t> &spreads) const {
  // A handful of products, since fanouts are small and factors divide the
  // extents.
  spreads.assign(1, 1);
  for (unsigned d = 0; d < fixedTile[0].size(); ++d) {
    if (!((dims >> d) & 1))
      continue;
    const int64_t most =
        std::min({spatialCap(level, axis, d), extents[d], limit});
    const size_t count = spreads.size();
    auto grow = [&](int64_t factor) {
      if (factor < 2 || factor > most)
        return;
      for (size_t i = 0; i < count; ++i)
        if (spreads[i] <= limit / factor)
          spreads.push_back(spreads[i] * factor);
    };
    for (int64_t small = 1; small * small <= extents[d]; ++small)
      if (extents[d] % small == 0) {
        grow(small);
        if (small * small != extents[d])
          grow(extents[d] / small);
      }
    std::sort(spreads.begin(), spreads.end());
    spreads.erase(std::unique(spreads.begin(), spreads.end()), spreads.end());
  }
}

double PartialBound::largestSpread(unsigned level, unsigned axis, uint32_t dims,
                                   const int64_t *extents,
                                   int64_t limit) const {
  reachableSpreads(level, axis, dims, extents, limit, products);
  return double(products.back());
}

double PartialBound::tradedEdp(const SpreadTrade &trade) const {
  const uint32_t ignored = trade.term.ignored & trade.open,
                 others = trade.open & ~trade.term.ignored;
  // Along each axis, every spread the ignored dims can take, and the most
  // the other dims can add to it: a completion's spread along that axis
  // is at most that pair's second for its first. The others' spreads under
  // a smaller limit are those of the whole limit up to it.
  auto pairs = [&](unsigned axis, int64_t limit, std::vector<int64_t> &out) {
    reachableSpreads(trade.level, axis, others, trade.extents, limit, products);
    reachableSpreads(trade.level, axis, ignored, trade.extents, limit, out);
    const size_t count = out.size();
    for (size_t i = 0; i < count; ++i)
      out.push_back(
          out[i] * *std::prev(std::upper_bound(products.begin(), products.end(),
                                               limit / out[i])));
  };
  pairs(0, trade.limitX, tradesX);
  pairs(1, trade.limitY, tradesY);
  const size_t countX = tradesX.size() / 2, countY = tradesY.size() / 2;
  const double macs = double(space.problem().iterations());
  double least = std::numeric_limits<double>::infinity();
  for (size_t x = 0; x < countX; ++x)
    for (size_t y = 0; y < countY; ++y) {
      const double spread =
          std::min(trade.fixedIgnored * double(tradesX[x] * tradesY[y]),
                   trade.term.room);
      const double all = std::min(
          trade.fixedAll * double(tradesX[countX + x] * tradesY[countY + y]),
          trade.spreadCap);
      const double cycles = std::max(
          trade.cyclesFloor,
          computeCycles(macs, trade.decidedSpread * all, space.arch().compute));
      least = std::min(least, (trade.energyRest + trade.term.weight / spread) *
                                  cycles);
    }
  return least;
}

double PartialBound::bound(const Mapping &partial, const int64_t *remaining,
                           unsigned decided, unsigned decidedDims) const {
  const Problem &problem = space.problem();
  const Arch &arch = space.arch();
  const unsigned numDims = problem.dims.size(), numLevels = arch.levels.size(),
                 numOperands = problem.operands.size();
  const unsigned s = decided;
  evaluated = false;
  ++boundsTaken;
  if (!soundRules)
    return untraded = floorBound; // the floor and capacity alone prune
  // Levels under s - 1 at their fixed factors, what is left on the
  // innermost temporal loop: at levels s - 1 and up its figures are every
  // completion's (level s - 1's tile is fixed by the levels above it, even
  // while only some of its dims have their factors).
  simplestCompletion(space, partial, remaining, s, completion);
  space.model().evaluate(completion, evaluation);
  evaluated = true;
  if (evaluation.reason == InvalidReason::Shape)
    return untraded = floorBound; // not a completion the searcher makes

  Layout layout;
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelMapping &level = completion.levels[l];
    layout.spread[l] = level.spreadX() * level.spreadY();
    for (unsigned d = 0; d < numDims; ++d)
      layout.tile[l][d] = (l == 0 ? 1 : layout.tile[l - 1][d]) *
                          level.temporal[d] * level.spatialX[d] *
                          level.spatialY[d];
  }
  for (unsigned l = numLevels; l-- > 0;)
    layout.instances[l] =
        l + 1 == numLevels ? 1 : layout.instances[l + 1] * layout.spread[l + 1];
  const unsigned top = s == 0 ? 0 : s - 1;
  const int64_t *topTile = layout.tile[top];

  const uint32_t allDims = uint32_t((uint64_t(1) << numDims) - 1);
  // The largest spread level s - 1 can end with on the dims in `dims`:
  // what its decided dims (and the fixed factors of the others) spread
  // there, times what its fanouts leave for the open ones among `dims`.
  auto frontierRoom = [&](uint32_t dims) {
    const LevelMapping &level = completion.levels[s - 1];
    double room = 1.0;
    for (unsigned d = 0; d < numDims; ++d)
      if ((dims >> d) & 1)
        room *= double(level.spatialX[d] * level.spatialY[d]);
    const uint32_t open = dims & allDims & ~((uint32_t(1) << decidedDims) - 1);
    if (open)
      room *= largestSpread(s - 1, 0, open, topTile,
                            arch.fanoutX(s - 1) / level.spreadX()) *
              largestSpread(s - 1, 1, open, topTile,
                            arch.fanoutY(s - 1) / level.spreadY());
    return room;
  };
  // The largest spread an undecided level m below the frontier can have on
  // the dims in `dims` (bit d for dim d), along each axis.
  auto levelRoom = [&](unsigned m, uint32_t dims) {
    double axes = largestSpread(m, 0, dims, topTile, arch.fanoutX(m)) *
                  largestSpread(m, 1, dims, topTile, arch.fanoutY(m));
    double extents = 1.0;
    for (unsigned d = 0; d < numDims; ++d)
      if (((dims >> d) & 1) &&
          (spatialCap(m, 0, d) > 1 || spatialCap(m, 1, d) > 1))
        extents *= double(topTile[d]);
    return std::min(axes, extents);
  };
  // The largest spread undecided levels [from, to] can have on `dims`.
  auto undecidedSpread = [&](unsigned from, unsigned to, uint32_t dims) {
    if (s == 0 || from > to || from >= s)
      return 1.0;
    to = std::min(to, s - 1);
    double fanouts = 1.0, extents = 1.0;
    for (unsigned m = from; m <= to; ++m)
      fanouts *= m + 1 == s ? frontierRoom(dims) : levelRoom(m, dims);
    for (unsigned d = 0; d < numDims; ++d)
      if ((dims >> d) & 1)
        extents *= double(topTile[d]);
    return std::min(fanouts, extents);
  };
  auto decidedIgnoredSpread = [&](unsigned from, unsigned to, unsigned o) {
    double spread = 1.0;
    for (unsigned m = std::max(from, s); m <= to; ++m)
      spread *=
          double(ignoredSpread(completion.levels[m], numDims, relevantDims[o]));
    return spread;
  };

  // Rule 6: whether a loop of more than one step on a dim operand `o`
  // depends on runs under the decided levels and over its keepers below
  // the frontier, so that every decided loop refetches their tiles: level
  // s - 1 has one, or the frontier's tile of `o` (`points` distinct
  // words) is more than the outermost keeper below it holds, times the
  // most instances the spreads on those dims can give it.
  auto relevantLoopUnderFrontier = [&](unsigned o, double points) {
    if (s < 2)
      return false; // no keeper below the frontier
    for (unsigned d = 0; d < numDims; ++d)
      if (((relevantDims[o] >> d) & 1) &&
          completion.levels[s - 1].temporal[d] > 1)
        return true;
    for (unsigned c = s - 1; c-- > 0;) {
      if (!completion.levels[c].keep[o])
        continue;
      const StorageLevel &storage = arch.levels[c];
      if (!storage.entries)
        return false;
      const double holds = double(*storage.entries) / storage.multipleBuffering;
      return points > holds * undecidedSpread(c + 1, s - 1, relevantDims[o]);
    }
    return false;
  };

  // Dims that undecided levels can still spread.
  uint32_t undecidedDims = 0;
  for (unsigned d = 0; d < numDims; ++d)
    undecidedDims |= uint32_t(topTile[d] > 1) << d;
  macsSide.clear();

  const double macs = double(problem.iterations());
  double energy = macs * arch.compute.energyPerMac;
  double readWords[CostModel::kMaxLevels] = {},
         writeWords[CostModel::kMaxLevels] = {};
  for (unsigned o = 0; o < numOperands; ++o) {
    const Operand &operand = problem.operands[o];
    if (operand.access == Access::None)
      continue;
    const uint32_t relevant = relevantDims[o];
    const uint32_t ignoredDims = ~relevant & allDims;
    // Rule 2's fetch: what level s - 1 would fetch over its instances.
    double fetched = 0.0;
    if (simple[o]) {
      // Points, not the span: the children's tiles cover the frontier's
      // points, and each spans at least its own.
      const double points = double(simpleOperandPoints(problem, o, topTile));
      fetched = double(layout.instances[top]) * points *
                double(refetchedLoops(completion, s, relevant,
                                      relevantLoopUnderFrontier(o, points)));
    }
    int child = -1;
    for (unsigned m = 0; m < numLevels; ++m) {
      if (!completion.levels[m].keep[o])
        continue;
      const StorageLevel &storage = arch.levels[m];
      const OperandStats &stats = evaluation.at(m, o);
      const bool known = m + 1 >= s, outermost = m + 1 == numLevels;
      const double instances = double(layout.instances[m]);
      if (!outermost && known) {
        energy +=
            accessEnergy(stats.fills, storage.blockSize, storage.writeEnergy) *
            instances;
        writeWords[m] += double(stats.fills);
      } else if (!outermost && simple[o] && !operand.isWritten()) {
        energy += fetched * storage.writeEnergy; // rule 2
      } else if (!outermost && !operand.isWritten()) {
        energy += operandWords[o] * storage.writeEnergy; // rule 5
      }
      if ((child >= 0 && unsigned(child) + 1 >= s) || (child < 0 && s == 0)) {
        energy +=
            (accessEnergy(stats.reads, storage.blockSize, storage.readEnergy) +
             accessEnergy(stats.updates, storage.blockSize,
                          storage.updateEnergy)) *
            instances;
        readWords[m] += double(stats.reads);
        writeWords[m] += double(stats.updates);
      } else {
        // Words this level sends down (or takes back), over its instances.
        double content = 0.0;
        const double perWord =
            operand.isWritten() ? storage.updateEnergy : storage.readEnergy;
        if (child < 0) { // rule 1; its energy goes to rule 4 below
          const double room = undecidedSpread(0, m, ignoredDims);
          content = macs / (decidedIgnoredSpread(0, m, o) * room);
          macsSide.push_back(
              {content * room * perWord, room, ~relevant & undecidedDims, m});
        } else if (simple[o]) { // rule 2
          // The children's fetches hold a copy per instance on an ignored
          // dim below the frontier, which multicast takes back: only the
          // decided levels' multicast divides. Every word passes through
          // the level at least once (rule 5).
          content = std::max(fetched / decidedIgnoredSpread(child + 1, m, o),
                             operandWords[o]);
          energy += content * perWord;
        } else { // rule 5 alone, for windows
          content = operandWords[o];
          energy += content * perWord;
        }
        double reads = content;
        if (operand.isWritten()) {
          if (known)
            writeWords[m] += content / instances;
          reads = known
                      ? std::max(0.0, content - instances *
                                                    double(stats.partitionSize))
                      : 0.0;
          energy += reads * storage.readEnergy;
        }
        if (known)
          readWords[m] += reads / instances;
      }
      child = int(m);
    }
  }

  // Rule 4: the MACs' sides of operands that ignore disjoint dims share
  // the undecided fanouts. Each subset of them shares those of the levels
  // up to its outermost keeper; the tightest subset bounds the sum.
  const double energyBesideMacsSides = energy;
  uint32_t shared = 0;
  sharing.clear();
  for (const SpreadTerm &term : macsSide) {
    // Terms that cannot spread take no fanout; overlapping ones stay alone.
    if (term.room <= 1.0 || !term.ignored || (term.ignored & shared)) {
      energy += term.weight / term.room;
    } else {
      shared |= term.ignored;
      sharing.push_back(term);
    }
  }
  double alone = 0.0;
  for (const SpreadTerm &term : sharing)
    alone += term.weight / term.room;
  double macsSideEnergy = alone;
  for (unsigned members = 3; members < (1u << sharing.size()); ++members) {
    if (!(members & (members - 1)))
      continue; // one term alone: its room already says it all
    subset.clear();
    uint32_t dims = 0;
    unsigned outermost = 0;
    double others = alone;
    for (unsigned t = 0; t < sharing.size(); ++t)
      if ((members >> t) & 1) {
        subset.push_back(sharing[t]);
        dims |= sharing[t].ignored;
        outermost = std::max(outermost, sharing[t].level);
        others -= sharing[t].weight / sharing[t].room;
      }
    const double fanout = undecidedSpread(0, outermost, dims);
    macsSideEnergy =
        std::max(macsSideEnergy,
                 std::max(0.0, others) + leastSharedSpreadCost(subset, fanout));
  }
  energy += macsSideEnergy;

  // Cycles: the compute at the widest spread left, and each known level's
  // words at its bandwidth.
  double decidedSpread = 1.0;
  for (unsigned m = s; m < numLevels; ++m)
    decidedSpread *= double(layout.spread[m]);
  const double spreadCap = undecidedSpread(0, numLevels, allDims);
  double bandwidthCycles = 0.0;
  for (unsigned m = top; m < numLevels; ++m) {
    const StorageLevel &storage = arch.levels[m];
    double needed = 0.0;
    if (storage.readBandwidth)
      needed = std::max(needed, readWords[m] / *storage.readBandwidth);
    if (storage.writeBandwidth)
      needed = std::max(needed, writeWords[m] / *storage.writeBandwidth);
    bandwidthCycles =
        std::max(bandwidthCycles, std::ceil(needed * (1.0 - 1e-9)));
  }
  const double cycles =
      std::max(bandwidthCycles,
               computeCycles(macs, decidedSpread * spreadCap, arch.compute));

  double value = objective == Objective::Latency  ? cycles
                 : objective == Objective::Energy ? energy
                                                  : energy * cycles;
  // Sums taken in another order than the model's: a margin against
  // rounding.
  untraded = std::max(floorBound, value) * (1.0 - 1e-9);
  // Rule 7: an operand's MACs' side and the compute spread over the same
  // fanout. When one undecided level has a fanout, for each term that can
  // spread, the least EDP over that level's spreads (the other terms at
  // their rooms, without rule 4's sharing).
  if (objective != Objective::EDP || s == 0)
    return untraded;
  SpreadTrade trade;
  unsigned fanoutLevels = 0;
  const LevelMapping &frontier = completion.levels[s - 1];
  trade.fixedAll = double(frontier.spreadX() * frontier.spreadY());
  for (unsigned m = 0; m < s; ++m) {
    const bool atFrontier = m + 1 == s;
    const double free = atFrontier ? frontierRoom(allDims) / trade.fixedAll
                                   : levelRoom(m, allDims);
    if (free <= 1.0)
      continue;
    ++fanoutLevels;
    trade.level = m;
    trade.open = allDims;
    trade.limitX = arch.fanoutX(m);
    trade.limitY = arch.fanoutY(m);
    if (atFrontier) {
      trade.open &= ~((uint32_t(1) << decidedDims) - 1);
      trade.limitX /= frontier.spreadX();
      trade.limitY /= frontier.spreadY();
    }
  }
  if (fanoutLevels != 1)
    return untraded;
  trade.cyclesFloor = bandwidthCycles;
  trade.decidedSpread = decidedSpread;
  trade.spreadCap = spreadCap;
  trade.extents = topTile;
  double everyTermAlone = energyBesideMacsSides;
  for (const SpreadTerm &term : macsSide)
    everyTermAlone += term.weight / term.room;
  for (const SpreadTerm &term : macsSide) {
    if (!(term.room > 1.0 && term.weight > 0.0) || trade.level > term.level)
      continue;
    // The frontier's spread so far counts whichever level has the fanout.
    trade.fixedIgnored =
        double(ignoredSpread(frontier, numDims, ~term.ignored & allDims));
    trade.term = term;
    trade.energyRest = everyTermAlone - term.weight / term.room;
    value = std::max(value, tradedEdp(trade));
  }

  return std::max(floorBound, value) * (1.0 - 1e-9);
}

} // namespace marlmap
