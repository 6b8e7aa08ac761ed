//===- OptimalSpreads.cpp - What the fanouts may spread -------------------===//
//
// The bound's rules on spreads: the largest products of factors a level's
// fanout can take (every undecided level's room), rule 4 (the MACs' sides
// of operands that ignore disjoint dims share the fanouts) and rule 7 (an
// operand's MACs' side against the compute, over one fanout).
//
//===----------------------------------------------------------------------===//

#include "OptimalFrontier.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace marlmap {

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

void PartialBound::reachableSpreads(int level, unsigned axis, uint32_t dims,
                                    const int64_t *extents, int64_t limit,
                                    std::vector<int64_t> &spreads) const {
  // A handful of products, since fanouts are small and factors divide the
  // extents.
  spreads.assign(1, 1);
  for (unsigned d = 0; d < fixedTile[0].size(); ++d) {
    if (!((dims >> d) & 1))
      continue;
    const int64_t cap =
        level < 0 ? extents[d] : spatialCap(unsigned(level), axis, d);
    const int64_t most = std::min({cap, extents[d], limit});
    const size_t count = spreads.size();
    for (int64_t factor : divisorsOfExtent(extents[d])) {
      if (factor > most)
        break;
      const int64_t widest = limit / factor;
      for (size_t i = 0; i < count; ++i)
        if (spreads[i] <= widest)
          spreads.push_back(spreads[i] * factor);
    }
    std::sort(spreads.begin(), spreads.end());
    spreads.erase(std::unique(spreads.begin(), spreads.end()), spreads.end());
  }
}

double PartialBound::largestSpread(unsigned level, unsigned axis, uint32_t dims,
                                   const int64_t *extents,
                                   int64_t limit) const {
  if (limit <= 1 || dims == 0)
    return 1.0; // most levels have no fanout: nothing to look up
  // Nodes that share their top tile ask the same: remember the latest
  // answers, one per slot of a small table.
  const unsigned numDims = unsigned(fixedTile[0].size());
  uint64_t hash = (uint64_t(limit) * 31 + level * 2 + axis) * 131 + dims;
  for (unsigned d = 0; d < numDims; ++d)
    if ((dims >> d) & 1)
      hash = (hash ^ uint64_t(extents[d])) * 0x100000001b3ull;
  KnownSpread &known = knownSpreads[(hash >> 20) & (kKnownSpreads - 1)];
  bool same = known.largest > 0 && known.level == level && known.axis == axis &&
              known.dims == dims && known.limit == limit;
  for (unsigned d = 0; same && d < numDims; ++d)
    same = !((dims >> d) & 1) || known.extents[d] == extents[d];
  if (same)
    return known.largest;
  reachableSpreads(level, axis, dims, extents, limit, products);
  known.level = level;
  known.axis = axis;
  known.dims = dims;
  known.limit = limit;
  std::copy(extents, extents + numDims, known.extents);
  known.largest = double(products.back());
  return known.largest;
}

const std::vector<PartialBound::SpreadPair> &
PartialBound::levelTrades(const SpreadTrade &trade,
                          const OpenFanout &level) const {
  const uint32_t ignored = trade.term.ignored & level.open,
                 others = level.open & ~ignored;
  // Along each axis, every spread the ignored dims can take, and the most
  // the other dims can add to it: a completion's spread along that axis
  // is at most that pair's second for its first. The others' spreads under
  // a smaller limit are those of the whole limit up to it.
  auto pairs = [&](unsigned axis, int64_t limit, std::vector<int64_t> &out) {
    reachableSpreads(level.level, axis, others, trade.extents, limit, products);
    reachableSpreads(level.level, axis, ignored, trade.extents, limit, out);
    const size_t count = out.size();
    for (size_t i = 0; i < count; ++i)
      out.push_back(
          out[i] * *std::prev(std::upper_bound(products.begin(), products.end(),
                                               limit / out[i])));
  };
  pairs(0, level.limitX, tradesX);
  pairs(1, level.limitY, tradesY);
  const size_t countX = tradesX.size() / 2, countY = tradesY.size() / 2;
  levelPairs.clear();
  for (size_t x = 0; x < countX; ++x)
    for (size_t y = 0; y < countY; ++y)
      levelPairs.push_back({double(tradesX[x] * tradesY[y]),
                            double(tradesX[countX + x] * tradesY[countY + y])});
  return levelPairs;
}

double PartialBound::tradedValue(const SpreadTrade &trade,
                                 const std::vector<OpenFanout> &levels,
                                 double &leastCycles) const {
  // Each level's spreads are taken on the whole tile's extents, apart from
  // the others': a superset of the completions' products, so the least
  // over it is a bound. At and under the term's level only the pairs no
  // other beats in both spreads are kept from level to level; above it,
  // only the most of all dims: the level's instances.
  const bool frontierUnder = trade.frontier <= trade.term.level;
  tradeFront.assign(
      1, {frontierUnder ? std::min(trade.fixedIgnored, trade.term.room) : 1.0,
          frontierUnder ? std::min(trade.fixedAll, trade.spreadCap) : 1.0});
  double instances =
      trade.decidedSpread * (frontierUnder ? 1.0 : trade.fixedAll);
  for (const OpenFanout &level : levels) {
    if (level.level > trade.term.level) {
      instances *= largestSpread(level.level, 0, level.open, trade.extents,
                                 level.limitX) *
                   largestSpread(level.level, 1, level.open, trade.extents,
                                 level.limitY);
      continue;
    }
    const std::vector<SpreadPair> &levelPairs = levelTrades(trade, level);
    nextFront.clear();
    for (const SpreadPair &so : tradeFront)
      for (const SpreadPair &more : levelPairs)
        nextFront.push_back(
            {std::min(so.ignored * more.ignored, trade.term.room),
             std::min(so.all * more.all, trade.spreadCap)});
    std::sort(nextFront.begin(), nextFront.end(),
              [](const SpreadPair &a, const SpreadPair &b) {
                return a.ignored != b.ignored ? a.ignored > b.ignored
                                              : a.all > b.all;
              });
    tradeFront.clear();
    for (const SpreadPair &pair : nextFront)
      if (tradeFront.empty() || pair.all > tradeFront.back().all)
        tradeFront.push_back(pair);
  }
  const double macs = double(space.problem().iterations());
  double least = std::numeric_limits<double>::infinity();
  leastCycles = least;
  for (const SpreadPair &pair : tradeFront) {
    const double spread =
        std::min(pair.all * instances, trade.spreadCap * trade.decidedSpread);
    double cycles = std::max(trade.cyclesFloor,
                             computeCycles(macs, spread, space.arch().compute));
    // The term's words pass through its level's instances, each at the
    // level's bandwidth.
    if (trade.term.bandwidth > 0.0)
      cycles = std::max(cycles, trade.term.words / pair.ignored / instances /
                                    trade.term.bandwidth);
    leastCycles = std::min(leastCycles, cycles);
    least = std::min(
        least,
        objective == Objective::Latency
            ? cycles
            : (trade.energyRest + trade.term.weight / pair.ignored) * cycles);
  }
  return least;
}

namespace {

/// leastSharedSpreadCostOver's search from term `t` on, with `left` of the
/// fanout and `sum` spent: depth first over the terms but the last, which
/// takes the widest choice the fanout leaves it; a partial sum at or above
/// `best` stops (every weight is at least 0).
void leastFrom(const std::vector<SpreadTerm> &terms,
               const std::vector<const std::vector<int64_t> *> &choices,
               unsigned t, double left, double sum, double &best) {
  const std::vector<int64_t> &own = *choices[t];
  if (t + 1 == terms.size()) {
    auto widest =
        std::upper_bound(own.begin(), own.end(), int64_t(left * (1.0 + 1e-12)));
    if (widest != own.begin())
      best = std::min(best, sum + terms[t].weight / double(widest[-1]));
    return;
  }
  for (int64_t spread : own) {
    if (double(spread) > left * (1.0 + 1e-12))
      break;
    const double next = sum + terms[t].weight / double(spread);
    if (next < best)
      leastFrom(terms, choices, t + 1, left / double(spread), next, best);
  }
}

} // namespace

double leastSharedSpreadCostOver(
    const std::vector<SpreadTerm> &terms,
    const std::vector<const std::vector<int64_t> *> &choices, double fanout) {
  double best = std::numeric_limits<double>::infinity();
  if (!terms.empty())
    leastFrom(terms, choices, 0, fanout, 0.0, best);
  // No choice fits (a fanout under 1): the relaxation still bounds.
  return best < std::numeric_limits<double>::infinity()
             ? best
             : leastSharedSpreadCost(terms, fanout);
}

double PartialBound::macsSidesEnergy(const Frontier &frontier,
                                     bool integral) const {
  // Rule 4: the MACs' sides of operands that ignore disjoint dims share
  // the undecided fanouts. Each subset of them shares those of the levels
  // up to its outermost keeper; the tightest subset bounds the sum.
  double energy = 0.0;
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
  if (integral) {
    // Every undecided spread of a dim divides its extent at the frontier:
    // products of one divisor per dim, no wider than the room, whatever
    // the levels (a superset of their spreads).
    sharingChoices.resize(std::max(sharingChoices.size(), sharing.size()));
    for (unsigned t = 0; t < sharing.size(); ++t)
      reachableSpreads(-1, 0, sharing[t].ignored, frontier.topTile(),
                       int64_t(sharing[t].room * (1.0 + 1e-12)),
                       sharingChoices[t]);
  }
  double sharedEnergy = alone;
  for (unsigned members = 3; members < (1u << sharing.size()); ++members) {
    if (!(members & (members - 1)))
      continue; // one term alone: its room already says it all
    subset.clear();
    subsetChoices.clear();
    uint32_t dims = 0;
    unsigned outermost = 0;
    double others = alone;
    for (unsigned t = 0; t < sharing.size(); ++t)
      if ((members >> t) & 1) {
        subset.push_back(sharing[t]);
        if (integral)
          subsetChoices.push_back(&sharingChoices[t]);
        dims |= sharing[t].ignored;
        outermost = std::max(outermost, sharing[t].level);
        others -= sharing[t].weight / sharing[t].room;
      }
    const double fanout = frontier.undecidedSpread(0, outermost, dims);
    const double least =
        integral ? leastSharedSpreadCostOver(subset, subsetChoices, fanout)
                 : leastSharedSpreadCost(subset, fanout);
    sharedEnergy = std::max(sharedEnergy, std::max(0.0, others) + least);
  }
  return energy + sharedEnergy;
}

double PartialBound::tradedBound(const Frontier &frontier,
                                 double energyBesideMacsSides, double energy,
                                 double bandwidthCycles,
                                 double spreadCap) const {
  // Rule 7: an operand's MACs' side and the compute spread over the same
  // fanouts, and that side's words pass through its level's bandwidth.
  // For each term, the least EDP (or cycles) over the undecided levels'
  // spreads (the other terms at their rooms, without rule 4's sharing).
  const unsigned s = frontier.s;
  SpreadTrade trade;
  const LevelMapping &top = frontier.completion.levels[s - 1];
  trade.frontier = s - 1;
  trade.fixedAll = double(top.spreadX() * top.spreadY());
  openFanouts.clear();
  for (unsigned m = 0; m < s; ++m) {
    const bool atFrontier = m + 1 == s;
    const double free =
        atFrontier ? frontier.frontierRoom(frontier.allDims) / trade.fixedAll
                   : frontier.levelRoom(m, frontier.allDims);
    if (free <= 1.0)
      continue;
    OpenFanout level{m, frontier.allDims, fanout(m, 0), fanout(m, 1)};
    if (atFrontier) {
      level.open &= ~((uint32_t(1) << frontier.decidedDims) - 1);
      level.limitX /= top.spreadX();
      level.limitY /= top.spreadY();
    }
    openFanouts.push_back(level);
  }
  trade.cyclesFloor = bandwidthCycles;
  trade.decidedSpread = frontier.decidedSpread;
  trade.spreadCap = spreadCap;
  trade.extents = frontier.topTile();
  double everyTermAlone = energyBesideMacsSides;
  for (const SpreadTerm &term : macsSide)
    everyTermAlone += term.weight / term.room;
  double value = 0.0;
  for (const SpreadTerm &term : macsSide) {
    const bool spreads = term.room > 1.0 && !openFanouts.empty() &&
                         openFanouts.front().level <= term.level;
    if (!(term.weight > 0.0) || (!spreads && term.bandwidth <= 0.0))
      continue;
    trade.fixedIgnored = double(ignoredSpread(
        top, space.problem().dims.size(), ~term.ignored & frontier.allDims));
    trade.term = term;
    trade.energyRest = everyTermAlone - term.weight / term.room;
    double leastCycles;
    value = std::max(value, tradedValue(trade, openFanouts, leastCycles));
    // The cycles whatever the term's spread, with every energy rule.
    if (objective == Objective::EDP)
      value = std::max(value, energy * leastCycles);
  }
  return value;
}

} // namespace marlmap
