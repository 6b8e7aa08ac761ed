//===- OptimalBound.cpp - Lower bounds on partial mappings ----------------===//
//
// Levels `decided` and up are fixed; call s = decided. The model's figures
// for a level m depend on its tile and on the loops above it, so for every
// m >= s - 1 the fills are final, and so are the reads and updates of a
// level whose next kept level below is at s - 1 or above. Everything else
// is bounded from below by ten rules (docs/Search.md):
//  1. the innermost level that keeps an operand sends the MACs
//     MACs / (its spatial factors below it on dims the operand ignores)
//     words in all, whatever the rest;
//  2. a level kept below s - 1 fetches, over all its instances, at least
//     what level s - 1 would fetch if it kept the operand:
//     instances(s-1) x points(tile(s-1)) x G, G the decided loops from
//     the innermost one the operand depends on outwards (simple operands,
//     strided or not), which only the decided levels' multicast divides;
//     for a read-only window whose tile at s - 1 touches every word of its
//     footprint, the model's walk of the decided loops over that tile in
//     place of points x G;
//  3. every count is at least zero (for written operands: simple ones
//     without a stride);
//  4. operands that ignore disjoint dims share the fanouts that spread
//     their MACs' sides (rule 1's terms);
//  5. a kept level passes every word of the operand the problem touches
//     at least once;
//  6. once a loop on a dim the operand depends on must run under the
//     decided levels, rule 2 counts every decided loop;
//  7. for EDP, an operand's MACs' side and the compute spread over the
//     same fanout: the least energy x cycles over the ways to share it;
//  8. a written operand's reads at a level are its updates less the first
//     update of every word of every instance's partition: at most the
//     operand's words times the most its instances' copies can be;
//  9. with every factor of level s - 1 decided but not its order, the
//     least over its loops i of a bound on the orders with i innermost:
//     simple operands that depend on i have the figures of any of them,
//     windows that depend on i fetch what i's steps bring in under every
//     loop outside it, and the others what the order-open node gives;
// 10. with level s - 1's order open (its factors decided or not), the
//     least over the loops that can be innermost there of the figures
//     with the keepers of the operands that depend on that loop paying
//     for every loop of the level: simple ones refetch their tiles, and
//     windows fetch what rule 9 counts one level down, the open dims at
//     their fixed factors.
// Spreads of undecided levels are at most the largest products of
// factors that fit their fanouts and divide the extents left to them
// (OptimalFrontier.cpp; rules 4 and 7 and those products are in
// OptimalSpreads.cpp).
//
//===----------------------------------------------------------------------===//

#include "OptimalBound.h"
#include "OptimalFrontier.h"

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

bool operandIsWindow(const Problem &problem, unsigned operand) {
  const Operand &read = problem.operands[operand];
  if (read.isWritten() || read.access == Access::None ||
      operandIsSimple(problem, operand))
    return false;
  // Each dim in one term at most: two terms on one dim step together (an
  // axis 2p reads every other word), which the tile's test below would
  // take for two independent ones.
  uint32_t seen = 0;
  for (const Coordinate &axis : read.projection)
    for (const ProjectionTerm &term : axis.terms) {
      if (term.dim >= 32)
        return false;
      if (term.coefficient == 0 || problem.dims[term.dim].bound == 1)
        continue;
      if (seen & (1u << term.dim))
        return false;
      seen |= 1u << term.dim;
    }
  return true;
}

bool tileTouchesItsFootprint(const Problem &problem, unsigned operand,
                             const int64_t *extents) {
  for (const Coordinate &axis : problem.operands[operand].projection) {
    // Terms by the size of their steps: the values so far fill [0, reach],
    // and a step past reach + 1 leaves a gap no larger step fills.
    std::pair<int64_t, int64_t> moving[CostModel::kMaxDims];
    unsigned count = 0;
    for (const ProjectionTerm &term : axis.terms) {
      if (term.coefficient == 0 || extents[term.dim] == 1)
        continue;
      if (count == CostModel::kMaxDims)
        return false; // more than an operandIsWindow has
      moving[count++] = {std::abs(term.coefficient), extents[term.dim]};
    }
    std::sort(moving, moving + count);
    int64_t reach = 0;
    for (unsigned t = 0; t < count; ++t) {
      if (moving[t].first > reach + 1)
        return false;
      reach += moving[t].first * (moving[t].second - 1);
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
    // The walk that rule 2 takes for windows counts what each step brings
    // in: the exact fill rule's count, not Timeloop's.
    windowWalk.push_back(operandIsWindow(problem, o) &&
                         space.arch().fillRule == FillRule::Exact);
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
  for (unsigned l = 0; l < numLevels; ++l) {
    fanouts.push_back(space.arch().fanoutX(l));
    fanouts.push_back(space.arch().fanoutY(l));
  }
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
  temporalSlotDims.assign(numLevels, 0);
  for (unsigned d = 0; d < numDims; ++d)
    for (const MapSpace::FactorSlot &slot : space.factorSlots(d))
      if (slot.kind == 0)
        temporalSlotDims[slot.level] |= uint32_t(1) << d;
  // The walk's tiles divide their dims' bounds: list the divisors of every
  // extent up to the largest bound once (a sieve), unless it is huge.
  int64_t largest = 1;
  for (const LoopDim &dim : problem.dims)
    largest = std::max(largest, dim.bound);
  if (largest <= kMostListedExtent) {
    listedDivisors.resize(size_t(largest) + 1);
    for (int64_t factor = 2; factor <= largest; ++factor)
      for (int64_t multiple = factor; multiple <= largest; multiple += factor)
        listedDivisors[size_t(multiple)].push_back(factor);
  }
}

const std::vector<int64_t> &
PartialBound::divisorsOfExtent(int64_t extent) const {
  if (extent >= 0 && size_t(extent) < listedDivisors.size())
    return listedDivisors[size_t(extent)];
  // Pairs up to the square root: the small ones ascending, then their
  // partners in reverse.
  otherDivisors.clear();
  std::vector<int64_t> partners;
  for (int64_t factor = 2; factor * factor <= extent; ++factor)
    if (extent % factor == 0) {
      otherDivisors.push_back(factor);
      if (factor * factor != extent)
        partners.push_back(extent / factor);
    }
  otherDivisors.insert(otherDivisors.end(), partners.rbegin(), partners.rend());
  if (extent > 1)
    otherDivisors.push_back(extent);
  return otherDivisors;
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

double PartialBound::bound(const Mapping &partial, const int64_t *remaining,
                           unsigned decided, unsigned decidedDims,
                           double enough) const {
  return boundWith(partial, remaining, decided, decidedDims, nullptr, enough);
}

double PartialBound::orderFreeBound(const Mapping &partial,
                                    const int64_t *remaining,
                                    unsigned decided) const {
  const double base =
      bound(partial, remaining, decided, space.problem().dims.size());
  return orderFreeBoundAfter(partial, remaining, decided, base);
}

double PartialBound::orderFreeBoundAfter(const Mapping &partial,
                                         const int64_t *remaining,
                                         unsigned decided, double base) const {
  // No completion to bound from (the model's floor alone, or a shape no
  // tile fits), or level 0, whose order changes no figure.
  if (!evaluated || evaluation.reason == InvalidReason::Shape || decided < 2)
    return base;
  // Rule 9 (docs/Search.md): every order of level l's loops has an
  // innermost one of more than one step. With loop i there, the simple
  // operands that depend on i have the figures of any such order, a
  // window that depends on it fetches at least what i's steps bring in
  // under every loop outside it, and every other operand at least what
  // this node's bound gives it.
  const unsigned l = decided - 1;
  const std::vector<unsigned> &free = space.orderedLoops(l);
  const std::vector<unsigned> &order = partial.levels[l].order;
  for (size_t i = free.size(); i < order.size(); ++i)
    if (partial.levels[l].temporal[order[i]] > 1)
      return base; // a fixed innermost loop: one order, the children's own
  nodeFigures = perOperand;
  // The orders' children: level l - 1 open, at its fixed factors.
  orderFreeMapping = partial;
  orderFreeMapping.levels[l - 1] = space.fixedChoices().levels[l - 1];
  orderFreeMapping.levels[l - 1].keep = partial.levels[l - 1].keep;
  std::vector<unsigned> &tried = orderFreeMapping.levels[l].order;
  double least = std::numeric_limits<double>::infinity();
  for (unsigned innermost : free) {
    if (partial.levels[l].temporal[innermost] <= 1)
      continue;
    // The others in any order, `innermost` inside them all.
    auto end = std::copy_if(free.begin(), free.end(), tried.begin(),
                            [&](unsigned d) { return d != innermost; });
    *end = innermost;
    const OrderFree given{innermost, &nodeFigures};
    least =
        std::min(least, boundWith(orderFreeMapping, remaining, l, 0, &given));
    if (least <= base)
      return base;
  }
  return least < std::numeric_limits<double>::infinity() ? least : base;
}

double PartialBound::boundWith(const Mapping &partial, const int64_t *remaining,
                               unsigned decided, unsigned decidedDims,
                               const OrderFree *orderFree,
                               double enough) const {
  evaluated = false;
  ++boundsTaken;
  if (!soundRules)
    return untraded = floorBound; // the floor and capacity alone prune
  // Levels under s - 1 at their fixed factors, what is left on the
  // innermost temporal loop: at levels s - 1 and up its figures are every
  // completion's (level s - 1's tile is fixed by the levels above it, even
  // while only some of its dims have their factors).
  simplestCompletion(space, partial, remaining, decided, completion);
  space.model().evaluate(completion, evaluation);
  evaluated = true;
  if (evaluation.reason == InvalidReason::Shape)
    return untraded = floorBound; // not a completion the searcher makes

  const Frontier frontier(*this, decided, decidedDims);
  Figures figures;
  operandFigures(frontier, orderFree, figures);
  double energyBesideMacsSides = figures.energy;
  // Cycles: each known level's words at its bandwidth, and below the
  // compute at the widest spread left.
  double bandwidthCycles = bandwidthCyclesOf(frontier, figures);
  const double spreadCap =
      frontier.undecidedSpread(0, space.arch().levels.size(), frontier.allDims);
  double energy;
  untraded = valueOf(frontier, energyBesideMacsSides, bandwidthCycles,
                     spreadCap, false, energy);
  // Rule 10, and rule 4 over the spreads the fanouts can take, where they
  // can matter: a node the bound without them prunes is pruned whatever
  // they add.
  if (untraded < enough) {
    raiseByInnermostLoops(frontier, energyBesideMacsSides, bandwidthCycles);
    untraded = valueOf(frontier, energyBesideMacsSides, bandwidthCycles,
                       spreadCap, true, energy);
  }
  // Rule 7 where it can matter: a node whose bound reaches `enough`
  // without it is pruned whatever it adds.
  if (!(untraded < enough) || objective == Objective::Energy || decided == 0)
    return untraded;
  return std::max(untraded, tradedBound(frontier, energyBesideMacsSides, energy,
                                        bandwidthCycles, spreadCap) *
                                (1.0 - kBoundMargin));
}

double PartialBound::valueOf(const Frontier &frontier,
                             double energyBesideMacsSides,
                             double bandwidthCycles, double spreadCap,
                             bool integral, double &energy) const {
  energy = energyBesideMacsSides + macsSidesEnergy(frontier, integral);
  const double cycles = std::max(
      bandwidthCycles,
      computeCycles(double(space.problem().iterations()),
                    frontier.decidedSpread * spreadCap, space.arch().compute));
  const double value = objective == Objective::Latency  ? cycles
                       : objective == Objective::Energy ? energy
                                                        : energy * cycles;
  // Sums taken in another order than the model's: a margin against
  // rounding.
  return std::max(floorBound, value) * (1.0 - kBoundMargin);
}

double PartialBound::bandwidthCyclesOf(const Frontier &frontier,
                                       const Figures &figures) const {
  double cycles = 0.0;
  for (unsigned m = frontier.top; m < space.arch().levels.size(); ++m) {
    const StorageLevel &storage = space.arch().levels[m];
    double needed = 0.0;
    if (storage.readBandwidth)
      needed = std::max(needed, figures.readWords[m] / *storage.readBandwidth);
    if (storage.writeBandwidth)
      needed =
          std::max(needed, figures.writeWords[m] / *storage.writeBandwidth);
    cycles = std::max(cycles, std::ceil(needed * (1.0 - 1e-9)));
  }
  return cycles;
}

void PartialBound::operandFigures(const Frontier &frontier,
                                  const OrderFree *orderFree,
                                  Figures &figures) const {
  const Problem &problem = space.problem();
  const unsigned numDims = problem.dims.size();
  const unsigned s = frontier.s;
  // Dims that undecided levels can still spread.
  uint32_t undecidedDims = 0;
  for (unsigned d = 0; d < numDims; ++d)
    undecidedDims |= uint32_t(frontier.topTile()[d] > 1) << d;
  macsSide.clear();
  const double macs = double(problem.iterations());
  figures.energy = macs * space.arch().compute.energyPerMac;
  perOperand.assign(problem.operands.size(), Figures());
  keeperFetches.resize(problem.operands.size());
  payable.assign(problem.operands.size(), false);
  undecidedAtLastBound = undecidedDims;
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    const Operand &operand = problem.operands[o];
    if (operand.access == Access::None)
      continue;
    Figures &own = perOperand[o];
    const uint32_t relevant = relevantDims[o];
    // A window kept at the frontier or under it, whose tile there has no
    // gaps: what the walk of the decided loops brings in bounds its keepers.
    const bool windowUnder =
        windowWalk[o] && movesUnder(problem, completion, frontier.top, o);
    const bool windowOnFrontier =
        (windowUnder ||
         (windowWalk[o] && completion.levels[frontier.top].keep[o])) &&
        tileTouchesItsFootprint(problem, o, frontier.topTile());
    // Rule 9: which of this operand's figures hold for every order of
    // level s's loops with orderFree's loop innermost.
    const OperandSource source = sourceOf(o, s, orderFree, windowOnFrontier);
    if (source == OperandSource::Node) {
      // What the node with the order open gave it, besides its MACs'
      // side, which does not depend on the order.
      own = (*orderFree->node)[o];
      for (unsigned m = 0; m < completion.levels.size(); ++m)
        if (completion.levels[m].keep[o]) {
          if (s != 0) {
            addMacsSide(frontier, o, m, undecidedDims);
            macsSide.back().weight += macsSide.back().words * own.macsSideReads;
          }
          break;
        }
      addFigures(own, figures);
      continue;
    }
    // Rule 2's fetch: what level s - 1 would fetch over its instances.
    KeeperFetch fetch;
    if (simple[o]) {
      // Points, not the span: the children's tiles cover the frontier's
      // points, and each spans at least its own.
      fetch.points =
          double(simpleOperandPoints(problem, o, frontier.topTile()));
      fetch.fetched = double(frontier.instances[frontier.top]) * fetch.points *
                      double(refetchedLoops(
                          completion, s, relevant,
                          frontier.relevantLoopUnderFrontier(o, fetch.points)));
    } else if (windowOnFrontier &&
               (windowUnder || source == OperandSource::InnermostSteps)) {
      // Every step of the decided loops brings the frontier's tile words
      // that no child held: the model's own walk of those loops (rule 9:
      // of the innermost loop's steps alone).
      fetch.walk = source == OperandSource::InnermostSteps
                       ? space.model().fillsIfInnermost(
                             completion, frontier.top, o, orderFree->innermost)
                       : space.model().fillsIfKept(completion, frontier.top, o);
      fetch.fetched =
          double(frontier.instances[frontier.top]) * double(fetch.walk);
    }
    // Under rule 9 the frontier's own fills and its parent's reads are
    // the innermost loop's, not the model's for this order.
    fetch.floored =
        source == OperandSource::InnermostSteps ? int(frontier.top) : -1;
    keeperFigures(frontier, o, fetch, undecidedDims, true, own);
    addFigures(own, figures);
    if (!orderFree && (simple[o] || windowWalk[o])) {
      keeperFetches[o] = fetch;
      payable[o] = true;
    }
  }
}

void PartialBound::keeperFigures(const Frontier &frontier, unsigned o,
                                 const KeeperFetch &fetch,
                                 uint32_t undecidedDims, bool addMacs,
                                 Figures &own) const {
  const Operand &operand = space.problem().operands[o];
  const Arch &arch = space.arch();
  const unsigned numLevels = arch.levels.size();
  const unsigned s = frontier.s;
  const uint32_t ignoredDims = ~relevantDims[o] & frontier.allDims;
  int child = -1;
  for (unsigned m = 0; m < numLevels; ++m) {
    if (!completion.levels[m].keep[o])
      continue;
    const StorageLevel &storage = arch.levels[m];
    const OperandStats &stats = evaluation.at(m, o);
    const bool known = m + 1 >= s, outermost = m + 1 == numLevels;
    const double instances = double(frontier.instances[m]);
    if (!outermost && known) {
      const int64_t fills = int(m) == fetch.floored ? fetch.walk : stats.fills;
      own.energy +=
          accessEnergy(fills, storage.blockSize, storage.writeEnergy) *
          instances;
      own.writeWords[m] += double(fills);
    } else if (!outermost && fetch.fetchedAt(m) > 0.0 && !operand.isWritten()) {
      own.energy += fetch.fetchedAt(m) * storage.writeEnergy; // rule 2
    } else if (!outermost && !operand.isWritten()) {
      own.energy += operandWords[o] * storage.writeEnergy; // rule 5
    }
    if ((child >= 0 && unsigned(child) + 1 >= s && child != fetch.floored) ||
        (child < 0 && s == 0)) {
      own.energy +=
          (accessEnergy(stats.reads, storage.blockSize, storage.readEnergy) +
           accessEnergy(stats.updates, storage.blockSize,
                        storage.updateEnergy)) *
          instances;
      own.readWords[m] += double(stats.reads);
      own.writeWords[m] += double(stats.updates);
      child = int(m);
      continue;
    }
    // Words this level sends down (or takes back), over its instances.
    double content = 0.0;
    const double perWord =
        operand.isWritten() ? storage.updateEnergy : storage.readEnergy;
    if (child < 0) { // rule 1; its energy goes to rule 4
      content = addMacs ? addMacsSide(frontier, o, m, undecidedDims)
                        : macsSideWords(frontier, o, m);
    } else if (fetch.fetchedAt(child) > 0.0) { // rule 2
      // The children's fetches hold a copy per instance on an ignored
      // dim below the frontier, which multicast takes back: only the
      // decided levels' multicast divides. Every word passes through
      // the level at least once (rule 5).
      content = std::max(fetch.fetchedAt(child) /
                             frontier.decidedIgnoredSpread(child + 1, m, o),
                         operandWords[o]);
      own.energy += content * perWord;
    } else { // rule 5 alone, for other windows
      content = operandWords[o];
      own.energy += content * perWord;
    }
    double reads = content;
    if (operand.isWritten()) {
      if (known)
        own.writeWords[m] += content / instances;
      // The first update of each word reads nothing back: the words of
      // every instance's partition, which copies on ignored dims above
      // multiply (rule 8 where the level is undecided; soundRules has
      // every written operand simple with unit steps, for which that
      // product is the partitions' words exactly).
      const double partitions =
          known ? instances * double(stats.partitionSize)
                : operandWords[o] *
                      frontier.decidedIgnoredSpread(m + 1, numLevels - 1, o) *
                      frontier.undecidedSpread(m + 1, s - 1, ignoredDims);
      reads = std::max(0.0, content - partitions);
      if (child < 0 && reads > 0.0) {
        // On the MACs' side the reads fall with the updates as they
        // spread: the term carries them (its words over any spread it can
        // take stay above the partitions), less the partitions here.
        own.macsSideReads = storage.readEnergy;
        if (addMacs)
          macsSide.back().weight += macsSide.back().words * own.macsSideReads;
        own.energy -= partitions * storage.readEnergy;
      } else {
        own.energy += reads * storage.readEnergy;
      }
    }
    if (known)
      own.readWords[m] += reads / instances;
    child = int(m);
  }
}

double PartialBound::macsSideWords(const Frontier &frontier, unsigned o,
                                   unsigned m) const {
  const double room =
      frontier.undecidedSpread(0, m, ~relevantDims[o] & frontier.allDims);
  return double(space.problem().iterations()) /
         (frontier.decidedIgnoredSpread(0, m, o) * room);
}

double PartialBound::addMacsSide(const Frontier &frontier, unsigned o,
                                 unsigned m, uint32_t undecidedDims) const {
  const StorageLevel &storage = space.arch().levels[m];
  const uint32_t ignored = ~relevantDims[o] & frontier.allDims;
  const double perWord = space.problem().operands[o].isWritten()
                             ? storage.updateEnergy
                             : storage.readEnergy;
  const double room = frontier.undecidedSpread(0, m, ignored);
  const double content = macsSideWords(frontier, o, m);
  const std::optional<double> &bandwidth =
      space.problem().operands[o].isWritten() ? storage.writeBandwidth
                                              : storage.readBandwidth;
  macsSide.push_back({content * room * perWord, room, ignored & undecidedDims,
                      m, content * room, bandwidth.value_or(0.0)});
  return content;
}

void PartialBound::addFigures(const Figures &operand, Figures &sum) const {
  sum.energy += operand.energy;
  for (unsigned m = 0; m < space.arch().levels.size(); ++m) {
    sum.readWords[m] += operand.readWords[m];
    sum.writeWords[m] += operand.writeWords[m];
  }
}

PartialBound::OperandSource
PartialBound::sourceOf(unsigned o, unsigned s, const OrderFree *orderFree,
                       bool windowOnFrontier) const {
  if (!orderFree || !movesUnder(space.problem(), completion, s, o))
    return OperandSource::Model; // level s's order does not reach it
  const bool dependsOnInnermost = (relevantDims[o] >> orderFree->innermost) & 1;
  if (simple[o] && dependsOnInnermost)
    return OperandSource::Model; // the same class in every such order
  if (windowOnFrontier && dependsOnInnermost)
    return OperandSource::InnermostSteps;
  return OperandSource::Node;
}

} // namespace marlmap
