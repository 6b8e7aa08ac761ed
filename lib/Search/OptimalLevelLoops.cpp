//===- OptimalLevelLoops.cpp - Rule 10: a level's loops before its order -===//
//
// While level s - 1's factors and order are open, the bound of
// OptimalBound.cpp counts under it only its tile and the loops above. In
// every order some loop of that level is innermost there, and the keepers
// of the operands that depend on it pay for every loop of the level: the
// bound is the least over those loops (docs/Search.md, rule 10).
//
//===----------------------------------------------------------------------===//

#include "OptimalBound.h"
#include "OptimalFrontier.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

bool everyTileBetweenTouches(const Problem &problem, unsigned operand,
                             const int64_t *smallest, const int64_t *largest) {
  for (const Coordinate &axis : problem.operands[operand].projection)
    for (const ProjectionTerm &term : axis.terms) {
      if (term.coefficient == 0 || largest[term.dim] == 1)
        continue; // never moves
      // tileTouchesItsFootprint's test with the terms of smaller steps
      // reaching least, at their smallest extents.
      const int64_t step = std::abs(term.coefficient);
      int64_t reach = 0;
      for (const ProjectionTerm &smaller : axis.terms)
        if (smaller.coefficient != 0 && std::abs(smaller.coefficient) < step)
          reach += std::abs(smaller.coefficient) * (smallest[smaller.dim] - 1);
      if (step > reach + 1)
        return false;
    }
  return true;
}

bool spansGrowWithOpenFactors(const Problem &problem, unsigned operand,
                              const int64_t *smallest, const int64_t *largest) {
  for (const Coordinate &axis : problem.operands[operand].projection)
    for (const ProjectionTerm &term : axis.terms) {
      if (term.coefficient == 0 || largest[term.dim] == smallest[term.dim])
        continue; // its extent is fixed
      // With a factor f, the span times f is c t + f (1 - c + R): it grows
      // with f while c <= R + 1, R what the other terms reach.
      int64_t reach = 0;
      for (const ProjectionTerm &other : axis.terms)
        if (other.dim != term.dim)
          reach += std::abs(other.coefficient) * (smallest[other.dim] - 1);
      if (std::abs(term.coefficient) > reach + 1)
        return false;
    }
  return true;
}

void PartialBound::raiseByInnermostLoops(const Frontier &frontier,
                                         double &energy,
                                         double &bandwidthCycles) const {
  // Without a loop of more than one step at level s - 1, an order may
  // have none there: the node's figures hold.
  const LevelMapping &level = completion.levels[frontier.top];
  if (frontier.top == 0 ||
      std::all_of(level.temporal.begin(), level.temporal.end(),
                  [](int64_t factor) { return factor <= 1; }))
    return;
  const unsigned numOperands = space.problem().operands.size();
  payingFigures.resize(numOperands * space.problem().dims.size());
  payingDims.assign(numOperands, 0);
  bool paying = false;
  for (unsigned o = 0; o < numOperands; ++o)
    if (payable[o]) {
      addPayingFigures(frontier, o, keeperFetches[o], undecidedAtLastBound);
      paying |= payingDims[o] != 0;
    }
  if (paying)
    leastOverInnermostLoops(frontier, energy, bandwidthCycles);
}

void PartialBound::leastOverInnermostLoops(const Frontier &frontier,
                                           double &energy,
                                           double &bandwidthCycles) const {
  // Rule 10: some loop of level s - 1 is innermost there in every order
  // that has a loop of more than one step; with loop i there, operands
  // that depend on i pay every loop of the level. The energy and the
  // cycles both grow with each operand's figures, so their least over
  // the loops bounds each.
  const Problem &problem = space.problem();
  const unsigned numDims = problem.dims.size(), top = frontier.top;
  const LevelMapping &level = completion.levels[top];
  double leastEnergy = std::numeric_limits<double>::infinity();
  double leastCycles = leastEnergy;
  for (unsigned i = 0; i < numDims; ++i) {
    const bool open = i >= frontier.decidedDims &&
                      ((temporalSlotDims[top] >> i) & 1) &&
                      frontier.topTile()[i] > fixedBelow(top, i);
    if (!(level.temporal[i] > 1 || open))
      continue;
    Figures cased;
    cased.energy =
        double(problem.iterations()) * space.arch().compute.energyPerMac;
    for (unsigned o = 0; o < problem.operands.size(); ++o) {
      // A simple operand's figures are the same for each loop it pays.
      const bool pays = (payingDims[o] >> i) & 1;
      addFigures(pays ? payingFigures[o * numDims + (simple[o] ? 0 : i)]
                      : perOperand[o],
                 cased);
    }
    leastEnergy = std::min(leastEnergy, cased.energy);
    leastCycles = std::min(leastCycles, bandwidthCyclesOf(frontier, cased));
  }
  energy = std::max(energy, leastEnergy);
  bandwidthCycles = std::max(bandwidthCycles, leastCycles);
}

void PartialBound::addPayingFigures(const Frontier &frontier, unsigned o,
                                    const KeeperFetch &fetch,
                                    uint32_t undecidedDims) const {
  if (!movesUnder(space.problem(), completion, frontier.top, o))
    return; // no keeper under the frontier
  if (simple[o])
    addSimplePayingFigures(frontier, o, fetch, undecidedDims);
  else if (windowWalk[o])
    addWindowPayingFigures(frontier, o, fetch, undecidedDims);
}

void PartialBound::addSimplePayingFigures(const Frontier &frontier, unsigned o,
                                          const KeeperFetch &fetch,
                                          uint32_t undecidedDims) const {
  // With a loop on a dim the operand depends on innermost at level s - 1,
  // its keepers under that level refetch their tiles for every loop there
  // and above, those on dims it ignores included: the same figures
  // whichever of its dims that loop is on.
  const unsigned numDims = space.problem().dims.size(), top = frontier.top;
  const LevelMapping &level = completion.levels[top];
  double ignoredLoops = 1.0;
  for (unsigned d = 0; d < numDims; ++d)
    if (!((relevantDims[o] >> d) & 1))
      ignoredLoops *= double(level.temporal[d]);
  KeeperFetch paying = fetch;
  paying.fetched =
      double(frontier.instances[top]) * fetch.points *
      double(refetchedLoops(completion, frontier.s, relevantDims[o], true)) *
      ignoredLoops;
  if (!(paying.fetched > fetch.fetched))
    return;
  Figures &own = payingFigures[o * numDims];
  own = Figures();
  keeperFigures(frontier, o, paying, undecidedDims, false, own);
  payingDims[o] = relevantDims[o];
}

void PartialBound::addWindowPayingFigures(const Frontier &frontier, unsigned o,
                                          const KeeperFetch &fetch,
                                          uint32_t undecidedDims) const {
  // With decided loop i innermost at level s - 1, each step of the loops
  // there and above brings every keeper under it, per instance of level
  // s - 2, what a step of i brings in, as rule 9 counts at a decided
  // level (the model's fillsIfInnermost). Open dims are walked at their
  // fixed factors at s - 1: a factor f there divides a span along one
  // axis and multiplies the steps by f, so the steps' words only grow
  // with it; the first tile is taken at its smallest (the open dims'
  // fixed factors under s - 1), and only the spreads on the operand's own
  // dims count instances, so that no copy is counted.
  const Problem &problem = space.problem();
  const unsigned numDims = problem.dims.size(), top = frontier.top;
  const LevelMapping &level = completion.levels[top];
  subTile.assign(frontier.tile[top - 1], frontier.tile[top - 1] + numDims);
  smallestSubTile = subTile;
  double ownSpread = 1.0;
  for (unsigned d = 0; d < numDims; ++d) {
    if (d >= frontier.decidedDims)
      smallestSubTile[d] = fixedBelow(top - 1, d);
    if ((relevantDims[o] >> d) & 1)
      ownSpread *= double(level.spatialX[d] * level.spatialY[d]);
  }
  // The MACs touch every word of the tile, whatever the open dims' factors
  // (and with no gaps, a factor's steps grow the words as argued above):
  // each word a step brings in is new to every keeper under it. With
  // gaps, only a keeper at level s - 2 itself is sure to fetch them (its
  // fills are that walk of its own tile), and only while the open dims'
  // factors cannot shrink the words.
  const bool touches = everyTileBetweenTouches(
      problem, o, smallestSubTile.data(), subTile.data());
  if (!touches && !(completion.levels[top - 1].keep[o] &&
                    spansGrowWithOpenFactors(problem, o, smallestSubTile.data(),
                                             subTile.data())))
    return;
  const int64_t firstTileGap =
      problem.footprint(o, subTile) - problem.footprint(o, smallestSubTile);
  for (unsigned i = 0; i < frontier.decidedDims; ++i) {
    if (level.temporal[i] <= 1 || !((relevantDims[o] >> i) & 1))
      continue;
    const double fetched =
        double(frontier.instances[top]) * ownSpread *
        double(space.model().fillsIfInnermost(completion, top - 1, o, i) -
               firstTileGap);
    KeeperFetch paying = fetch;
    if (touches) {
      paying.fetched = fetched;
    } else {
      paying.ownWalkAt = int(top - 1);
      paying.ownWalkFetched = fetched;
    }
    if (!(paying.fetchedAt(top - 1) > fetch.fetchedAt(top - 1)))
      continue;
    Figures &own = payingFigures[o * numDims + i];
    own = Figures();
    keeperFigures(frontier, o, paying, undecidedDims, false, own);
    payingDims[o] |= uint32_t(1) << i;
  }
}

} // namespace marlmap
