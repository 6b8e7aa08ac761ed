//===- OptimalBound.h - Lower bounds on partial mappings --------*- C++ -*-===//
//
// The exact searcher's walk (OptimalTree.cpp) decides a mapping from the
// outermost level inwards. Once every level from `decided` outwards has its
// factors and its order, this bounds from below the objective of every
// completion: what those levels fix is taken from the cost model itself,
// and what the undecided levels will add is bounded by rules that hold of
// the model (docs/Search.md, "The exact searcher" argues each one).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_OPTIMALBOUND_H
#define MARLMAP_LIB_SEARCH_OPTIMALBOUND_H

#include "marlmap/Search/Searcher.h"

#include <algorithm>
#include <limits>

namespace marlmap {

/// Every bound is lowered by this part of itself: its sums are taken in
/// another order than the model's, against rounding.
constexpr double kBoundMargin = 1e-9;

/// One operand's words on the MACs' side (rule 1): `weight` / X pJ, where
/// X, the undecided spatial factors on the dims in `ignored` (bit d for
/// dim d) at levels `level` and below, is at most `room`. They are `words`
/// / X words, moved at `level`'s `bandwidth` per instance and cycle (0:
/// unlimited).
struct SpreadTerm {
  double weight = 0.0;
  double room = 1.0;
  uint32_t ignored = 0;
  unsigned level = 0;
  double words = 0.0, bandwidth = 0.0;
};

/// The least sum of `weight / X` over `terms` when every X is at least 1
/// and at most its room, and the product of the X is at most `fanout`:
/// terms whose dims are disjoint share the fanouts that spread them
/// (rule 4). Solved without integrality, so it is a lower bound on any
/// choice of factors.
double leastSharedSpreadCost(const std::vector<SpreadTerm> &terms,
                             double fanout);

/// leastSharedSpreadCost with each term's X one of its `choices` (one
/// increasing list per term, each at most the term's room): the integer
/// problem, solved by enumeration (rule 4 over the spreads the fanouts can
/// take). At least leastSharedSpreadCost.
double leastSharedSpreadCostOver(
    const std::vector<SpreadTerm> &terms,
    const std::vector<const std::vector<int64_t> *> &choices, double fanout);

/// One searcher's: it keeps scratch space between calls, so that bounding
/// a node allocates nothing; do not share one between threads.
class PartialBound {
public:
  PartialBound(const MapSpace &space, Objective objective);

  /// A lower bound on the objective of every mapping that agrees with
  /// `partial` on levels `decided` and above (factors, orders), on every
  /// level's keeps, and on level `decided` - 1's factors of its first
  /// `decidedDims` dims; the other dims there have their fixed factors in
  /// `partial`. Every dim has `remaining[d]` of its free factor left for
  /// what is undecided below that. `decided` == the level count: nothing
  /// but the keeps (and those factors) is decided. Where the rules on
  /// undecided levels do not hold for the problem (a written operand that
  /// is not operandIsSimple or strides), the model's floor alone.
  /// Once the bound without rules 10 and 7 reaches `enough` (where the
  /// walk prunes whatever the rest), that is returned.
  double bound(const Mapping &partial, const int64_t *remaining,
               unsigned decided, unsigned decidedDims,
               double enough = std::numeric_limits<double>::infinity()) const;

  /// bound() of `partial` with every dim of level `decided` - 1 decided,
  /// raised to what holds whatever that level's loop order (rule 9): the
  /// least, over the loops that can be innermost there, of a bound on
  /// every order with that loop innermost. lastCompletion() and
  /// lastUntraded() are then those of the node or of one of those orders.
  double orderFreeBound(const Mapping &partial, const int64_t *remaining,
                        unsigned decided) const;
  /// orderFreeBound(partial, remaining, decided) when the last call of
  /// bound() was that of `partial` with every dim decided, and gave
  /// `base`: the walk's, which bounds the node before it asks.
  double orderFreeBoundAfter(const Mapping &partial, const int64_t *remaining,
                             unsigned decided, double base) const;

  /// Whether operand `operand` is operandIsSimple, and the dims it depends
  /// on (bit d for dim d).
  bool isSimple(unsigned operand) const { return simple[operand]; }
  uint32_t relevantTo(unsigned operand) const { return relevantDims[operand]; }

  /// The model's evaluation of simplestCompletion in the last call of
  /// bound(), or null when that call did not evaluate one.
  const Evaluation *lastCompletion() const {
    return evaluated ? &evaluation : nullptr;
  }

  /// The last call of bound()'s value without rule 7 (its own when rule 7
  /// did not apply).
  double lastUntraded() const { return untraded; }

  /// The model's bound on the objective of any mapping (LowerBound).
  double floor() const { return floorBound; }

  /// How many times bound() has run: the walks' work, in a unit that does
  /// not depend on the machine.
  uint64_t calls() const { return boundsTaken; }

  /// Whether level `level`'s tiles, at least `tile` (one extent per dim),
  /// fit its capacity.
  bool fits(const Mapping &partial, unsigned level, const int64_t *tile) const;

  /// What of level `level`'s loop order the model's figures read, when its
  /// loops with a factor above 1 run in `order` (outermost first) and
  /// `mapping` has its keeps: two orders with the same class give every
  /// completion the same figures.
  std::vector<uint32_t> orderClass(const Mapping &mapping, unsigned level,
                                   const std::vector<unsigned> &order) const;

  /// Product of the fixed factors (temporal and spatial) of `dim` at levels
  /// `level` and below: its smallest tile there.
  int64_t fixedBelow(unsigned level, unsigned dim) const {
    return fixedTile[level][dim];
  }

private:
  /// What one call of bound() reads of its partial mapping
  /// (OptimalFrontier.h).
  class Frontier;
  /// The energy and each level's read and write words that rules 1 to 3,
  /// 5, 6, 8, 9 and 10 give, of one operand or summed over all; rule 1's MACs'
  /// sides are in macsSide, not yet in the energy.
  struct Figures {
    double energy = 0.0;
    double readWords[CostModel::kMaxLevels] = {};
    double writeWords[CostModel::kMaxLevels] = {};
    /// A written operand's read energy per word that its MACs' side term
    /// carries (rule 8 with rule 1's spread), 0 when the term has none.
    double macsSideReads = 0.0;
  };
  /// Rule 9's view of one order of level s: `innermost`'s loop is the
  /// innermost there, and `node` has every operand's figures with the
  /// order open.
  struct OrderFree {
    unsigned innermost;
    const std::vector<Figures> *node;
  };
  /// Where an operand's figures come from under rule 9: the model's
  /// evaluation of the order at hand (the same for every order with that
  /// innermost loop), the innermost loop's steps in place of the walk of
  /// every loop (a window), or the node with the order open.
  enum class OperandSource { Model, InnermostSteps, Node };
  OperandSource sourceOf(unsigned operand, unsigned s,
                         const OrderFree *orderFree,
                         bool windowOnFrontier) const;
  double
  boundWith(const Mapping &partial, const int64_t *remaining, unsigned decided,
            unsigned decidedDims, const OrderFree *orderFree,
            double enough = std::numeric_limits<double>::infinity()) const;
  /// The objective's bound from the energy besides the MACs' sides and the
  /// bandwidths' cycles, rule 4 added (rule 7 is tradedBound's), with the
  /// compute at most `spreadCap` wider than the decided levels make it;
  /// the energy bound in `energy`.
  double valueOf(const Frontier &frontier, double energyBesideMacsSides,
                 double bandwidthCycles, double spreadCap, bool integral,
                 double &energy) const;
  /// Every operand's figures, summed into `figures` and kept one by one
  /// in perOperand.
  void operandFigures(const Frontier &frontier, const OrderFree *orderFree,
                      Figures &figures) const;
  /// What rule 2 says the keepers of one operand under the frontier fetch:
  /// `fetched` words over all their instances (0: rule 5 alone), the
  /// frontier's tile's `points` (simple operands), and under rule 9 the
  /// innermost loop's `walk` in place of the model's fills at level
  /// `floored` (-1: none). Rule 10 on a window whose tile has gaps holds
  /// of its keeper at level `ownWalkAt` alone (-1: none), which fetches at
  /// least `ownWalkFetched`.
  struct KeeperFetch {
    double fetched = 0.0, points = 0.0;
    int64_t walk = 0;
    int floored = -1;
    int ownWalkAt = -1;
    double ownWalkFetched = 0.0;
    /// What the keeper at level `level` under the frontier fetches, over
    /// its instances (0: rule 5 alone).
    double fetchedAt(unsigned level) const {
      return int(level) == ownWalkAt ? std::max(fetched, ownWalkFetched)
                                     : fetched;
    }
  };
  /// One operand's figures, level by level over its keepers, with `fetch`
  /// under the frontier; its MACs' side joins macsSide when `addMacs`.
  void keeperFigures(const Frontier &frontier, unsigned o,
                     const KeeperFetch &fetch, uint32_t undecidedDims,
                     bool addMacs, Figures &own) const;
  /// Rule 10: operand `o`'s figures when a loop it depends on is
  /// innermost at level s - 1, into payingFigures and payingDims where
  /// they are more than `fetch` gives (simple operands and windows).
  void addPayingFigures(const Frontier &frontier, unsigned o,
                        const KeeperFetch &fetch, uint32_t undecidedDims) const;
  void addSimplePayingFigures(const Frontier &frontier, unsigned o,
                              const KeeperFetch &fetch,
                              uint32_t undecidedDims) const;
  void addWindowPayingFigures(const Frontier &frontier, unsigned o,
                              const KeeperFetch &fetch,
                              uint32_t undecidedDims) const;
  /// Rule 10 on the last operandFigures: raises `energy` and
  /// `bandwidthCycles` as leastOverInnermostLoops does, where some operand
  /// pays more for a loop there.
  void raiseByInnermostLoops(const Frontier &frontier, double &energy,
                             double &bandwidthCycles) const;
  /// Rule 10: raises `energy` (the energy besides the MACs' sides) and
  /// `bandwidthCycles` to their least over the loops that can be innermost
  /// at level s - 1.
  void leastOverInnermostLoops(const Frontier &frontier, double &energy,
                               double &bandwidthCycles) const;
  /// The cycles the known levels' words of `figures` take at their
  /// bandwidths.
  double bandwidthCyclesOf(const Frontier &frontier,
                           const Figures &figures) const;
  /// Rule 1: operand `o`'s words on the MACs' side at level `m`, the
  /// innermost that keeps it.
  double macsSideWords(const Frontier &frontier, unsigned o, unsigned m) const;
  /// macsSideWords, with its term added to macsSide.
  double addMacsSide(const Frontier &frontier, unsigned o, unsigned m,
                     uint32_t undecidedDims) const;
  /// Adds one operand's figures to `sum`.
  void addFigures(const Figures &operand, Figures &sum) const;
  /// Rule 4: the least energy of macsSide's terms, those that ignore
  /// disjoint dims sharing the undecided fanouts; over the spreads they
  /// can take when `integral`, else without integrality (cheaper, lower).
  double macsSidesEnergy(const Frontier &frontier, bool integral) const;
  /// Rule 7's bound on the EDP or the cycles (the objective's), 0 where no
  /// MACs' side can spread or has a bandwidth; `energy` is the energy
  /// bound with every rule.
  double tradedBound(const Frontier &frontier, double energyBesideMacsSides,
                     double energy, double bandwidthCycles,
                     double spreadCap) const;

  const MapSpace &space;
  Objective objective;
  /// Every written operand is simple, with unit steps.
  bool soundRules = true;
  /// Per operand: operandIsSimple.
  std::vector<bool> simple;
  /// Per operand: operandIsWindow, under the exact fill rule (rule 2's
  /// walk for windows).
  std::vector<bool> windowWalk;
  /// Per operand, the dims it depends on (bit d for dim d).
  std::vector<uint32_t> relevantDims;
  /// Per operand, the distinct words the problem touches.
  std::vector<double> operandWords;
  std::vector<std::vector<int64_t>> fixedTile;
  /// Per level, axis (0 X, 1 Y) and dim: the largest factor the dim can
  /// spread there, its fixed factor (1 when none) where the space offers
  /// it no slot.
  std::vector<int64_t> spatialCaps;
  int64_t spatialCap(unsigned level, unsigned axis, unsigned dim) const {
    return spatialCaps[(level * 2 + axis) * fixedTile[0].size() + dim];
  }
  /// Per level and axis (0 X, 1 Y): the arch's fanout, asked for at every
  /// bound.
  std::vector<int64_t> fanouts;
  int64_t fanout(unsigned level, unsigned axis) const {
    return fanouts[level * 2 + axis];
  }
  /// The largest product at most `limit` of one factor per dim in `dims`
  /// (bit d for dim d), each dividing the dim's entry of `extents` and no
  /// larger than its cap at `level` along `axis` (0 X, 1 Y): the most that
  /// level can spread those dims there.
  double largestSpread(unsigned level, unsigned axis, uint32_t dims,
                       const int64_t *extents, int64_t limit) const;
  /// The divisors of `extent` above 1, in increasing order: listed once
  /// for every extent up to the largest bound (the rules ask for them at
  /// every node), computed for larger ones.
  const std::vector<int64_t> &divisorsOfExtent(int64_t extent) const;
  static constexpr int64_t kMostListedExtent = 1 << 14;
  std::vector<std::vector<int64_t>> listedDivisors;
  mutable std::vector<int64_t> otherDivisors;
  /// A largestSpread answer: what was asked, and the product (0: none
  /// yet).
  struct KnownSpread {
    unsigned level = 0, axis = 0;
    uint32_t dims = 0;
    int64_t limit = 0;
    int64_t extents[CostModel::kMaxDims] = {};
    double largest = 0.0;
  };
  static constexpr size_t kKnownSpreads = 1024; // a power of 2
  mutable std::vector<KnownSpread> knownSpreads =
      std::vector<KnownSpread>(kKnownSpreads);
  /// Every such product, in increasing order; with `level` -1, of
  /// divisors of the extents alone, no level's caps (what several levels
  /// can spread together is among them).
  void reachableSpreads(int level, unsigned axis, uint32_t dims,
                        const int64_t *extents, int64_t limit,
                        std::vector<int64_t> &spreads) const;

  /// An undecided level with a fanout left: its still open dims (bit d
  /// for dim d) and what its fanouts leave along X and Y.
  struct OpenFanout {
    unsigned level = 0;
    uint32_t open = 0;
    int64_t limitX = 1, limitY = 1;
  };
  /// What rule 7 trades: one MACs' side `term` that can spread, spread by
  /// the open fanouts, with the frontier level's `fixedAll` (all dims) and
  /// `fixedIgnored` (the term's ignored dims) spreads already set; the
  /// energy besides the term; the cycles whatever the spread (bandwidths);
  /// the decided levels' spread; the largest undecided spread; the tile's
  /// extents.
  struct SpreadTrade {
    SpreadTerm term;
    /// The frontier level, s - 1.
    unsigned frontier = 0;
    double fixedAll = 1.0, fixedIgnored = 1.0;
    double energyRest = 0.0, cyclesFloor = 0.0, decidedSpread = 1.0,
           spreadCap = 1.0;
    const int64_t *extents = nullptr;
  };
  /// A spread of a term's ignored dims and the most spread of all dims that
  /// goes with it.
  struct SpreadPair {
    double ignored = 1.0, all = 1.0;
  };
  /// Rule 7: the least EDP (or cycles) over the spreads the open fanouts
  /// can take, the term's energy at the spread of its ignored dims and the
  /// cycles at the spread of all, or at the term's words over its level's
  /// instances and bandwidth; the least of those cycles in `leastCycles`.
  double tradedValue(const SpreadTrade &trade,
                     const std::vector<OpenFanout> &levels,
                     double &leastCycles) const;
  /// The spreads one open fanout at or under the term's level offers
  /// `trade`'s term, as pairs.
  const std::vector<SpreadPair> &levelTrades(const SpreadTrade &trade,
                                             const OpenFanout &level) const;

  double floorBound;
  /// Reused by every call: the completion bound() evaluates, its
  /// evaluation, and a tile's extents.
  mutable Mapping completion;
  mutable Evaluation evaluation;
  mutable bool evaluated = false;
  mutable uint64_t boundsTaken = 0;
  mutable double untraded = 0.0;
  mutable std::vector<int64_t> extents;
  /// The last bound's figures per operand, the node's under rule 9, and
  /// the orders rule 9 tries.
  mutable std::vector<Figures> perOperand, nodeFigures;
  /// Rule 10: per operand o and dim i (at o x dims + i; a simple
  /// operand's at i = 0, the same for every i), its figures with loop i
  /// innermost at level s - 1, where those are more than the node's (bit i
  /// of payingDims[o]); and the tiles under that level it reads.
  mutable std::vector<Figures> payingFigures;
  mutable std::vector<uint32_t> payingDims;
  /// What operandFigures left for rule 10: each operand's fetch, whether
  /// rule 10 may raise it, and the dims undecided levels can spread.
  mutable std::vector<KeeperFetch> keeperFetches;
  mutable std::vector<bool> payable;
  mutable uint32_t undecidedAtLastBound = 0;
  mutable std::vector<int64_t> subTile, smallestSubTile;
  /// Per level, the dims with a temporal slot there (bit d for dim d).
  std::vector<uint32_t> temporalSlotDims;
  mutable Mapping orderFreeMapping;
  mutable std::vector<SpreadTerm> macsSide, sharing, subset;
  /// Rule 4's spreads: each sharing term's choices, and the subset's.
  mutable std::vector<std::vector<int64_t>> sharingChoices;
  mutable std::vector<const std::vector<int64_t> *> subsetChoices;
  mutable std::vector<int64_t> products;
  /// Per axis (X, Y): each reachable spread of a term's ignored dims, then
  /// the most spread of all dims it allows, in pairs.
  mutable std::vector<int64_t> tradesX, tradesY;
  mutable std::vector<OpenFanout> openFanouts;
  /// One level's pairs, and those of the levels so far (none below
  /// another in both).
  mutable std::vector<SpreadPair> levelPairs, tradeFront, nextFront;
};

/// `partial` with the levels under `decided` - 1 at their fixed factors and
/// what each dim has left (`remaining`) on the innermost temporal loop: the
/// completion whose figures at levels `decided` - 1 and up are every
/// completion's.
void simplestCompletion(const MapSpace &space, const Mapping &partial,
                        const int64_t *remaining, unsigned decided,
                        Mapping &completion);

/// Rule 2's multiplier: the product of `mapping`'s temporal loops at levels
/// `from` and up, from the innermost one on a dim in `relevant` (bit d for
/// dim d) outwards, or all of them when `relevantLoopBelow` (such a loop
/// runs under level `from`, rule 6). A simple operand kept under `from`
/// refetches its tile that many times for those loops.
int64_t refetchedLoops(const Mapping &mapping, unsigned from, uint32_t relevant,
                       bool relevantLoopBelow = false);

/// The dims operand `operand` depends on: bit d for dim d.
uint32_t relevantDimsOf(const Problem &problem, unsigned operand);

/// Whether operand `operand` moves and a level under `level` keeps it: the
/// operands whose counts the levels from `level` up reach through fills.
bool movesUnder(const Problem &problem, const Mapping &mapping, unsigned level,
                unsigned operand);

/// Whether every axis of operand `operand` reads at most one dim (with any
/// non-zero coefficient: a stride) and no dim feeds two axes, not counting
/// dims of bound 1 (they never loop and add nothing to a span: a 1x1
/// convolution's inputs are simple, strided or not): for such an operand
/// the model's fills are its tile times the loops from the innermost one it
/// depends on outwards (docs/Search.md).
bool operandIsSimple(const Problem &problem, unsigned operand);

/// Whether operand `operand` is a read-only window: not operandIsSimple,
/// and each dim in one of its terms at most (dims of bound 1 aside), so
/// that a tile's footprint is a box, one span per axis.
bool operandIsWindow(const Problem &problem, unsigned operand);

/// Whether a tile of `extents` touches every word of operand `operand`'s
/// footprint along each axis (no gaps between the values its terms take;
/// each dim in one term, as operandIsWindow has it). For a window, the
/// model's fills under the exact rule then count the words each step
/// brings in (rule 2 for windows, docs/Search.md).
bool tileTouchesItsFootprint(const Problem &problem, unsigned operand,
                             const int64_t *extents);

/// Whether every tile whose extents lie between `smallest` and `largest`
/// (dim by dim) passes tileTouchesItsFootprint: along each axis, each term
/// that may move steps at most one past what the terms of smaller steps
/// reach at their smallest.
bool everyTileBetweenTouches(const Problem &problem, unsigned operand,
                             const int64_t *smallest, const int64_t *largest);

/// Whether, along each axis of operand `operand`, every term whose dim
/// may take any extent from `smallest` to `largest` (not a fixed one)
/// steps at most one past what the axis's other terms reach at their
/// smallest: a span times a factor that divides it then never falls as
/// the factor grows (rule 10 for a window kept right under the level).
bool spansGrowWithOpenFactors(const Problem &problem, unsigned operand,
                              const int64_t *smallest, const int64_t *largest);

/// Whether every dim operand `operand` reads has a coefficient of 1 or -1
/// (no stride), where it is not of bound 1.
bool operandHasUnitSteps(const Problem &problem, unsigned operand);

/// The distinct words of a simple operand that a tile of `extents` touches:
/// one per point along each axis, however far apart a stride sets them (the
/// footprint counts the span, gaps included).
int64_t simpleOperandPoints(const Problem &problem, unsigned operand,
                            const int64_t *extents);

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_OPTIMALBOUND_H
