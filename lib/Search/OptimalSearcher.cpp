//===- OptimalSearcher.cpp - Branch and bound to a proven optimum ---------===//
//
// Depth first over partial mappings: the keeps first (they fix what reuse
// is possible), then level by level from the outermost inwards each dim's
// factors at that level (spatial and temporal), then the level's loop
// order, one per class of orders that cost alike. A node whose lower bound
// (PartialBound) is no better than the best mapping found is dropped, so
// is one whose tiles overflow a level (footprints only grow as factors move
// inwards), and so is one that an earlier node in the same state beats
// (Dominance). Complete mappings are
// proposed to the driver, which evaluates and counts them like any
// searcher's; what is left open when the budget ends bounds the optimum.
//
//===----------------------------------------------------------------------===//

#include "OptimalBound.h"
#include "OptimalDominance.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <set>

namespace marlmap {
namespace {

std::vector<int64_t> divisorsOf(int64_t n) {
  std::vector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      small.push_back(d);
      if (d != n / d)
        large.push_back(n / d);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

/// A partial mapping: every level above `level` decided, and at `level` the
/// dims before `dim` (dim == number of dims: its order is next). Level -1
/// is a complete mapping; level == the level count: only keeps to choose.
struct Node {
  Mapping mapping;
  std::vector<int64_t> remaining;
  int level = 0;
  unsigned dim = 0;
  double bound = 0.0;
};

/// The children of one expanded node, visited in a chosen order. A frame
/// keeps its nodes when it is done: the next expansion at its depth copies
/// into them, so the search stops allocating once its tree is as deep as it
/// gets.
class Frame {
public:
  /// A new child, a copy of `parent`; its index (a reference would not
  /// survive the next add).
  size_t add(const Node &parent) {
    if (live == nodes.size())
      nodes.push_back(parent);
    else
      nodes[live] = parent;
    return live++;
  }
  /// Drops child `index`: the last one takes its place.
  void drop(size_t index) {
    std::swap(nodes[index], nodes[live - 1]);
    --live;
  }
  Node &child(size_t index) { return nodes[index]; }
  size_t size() const { return live; }

  /// Visits the children in the order `before` sorts them, ties by their
  /// place in the frame (where drop moves the last child): the same order
  /// on every run.
  template <typename Less> void visitInOrder(Less before) {
    visits.resize(live);
    for (unsigned i = 0; i < live; ++i)
      visits[i] = i;
    std::sort(visits.begin(), visits.end(), [&](unsigned a, unsigned b) {
      if (before(nodes[a], nodes[b]))
        return true;
      return !before(nodes[b], nodes[a]) && a < b;
    });
    next = 0;
  }
  bool done() const { return next == visits.size(); }
  Node &takeNext() { return nodes[visits[next++]]; }
  /// The least bound of the children not visited yet, or `least`.
  double leastOpenBound(double least) const {
    for (size_t i = next; i < visits.size(); ++i)
      least = std::min(least, nodes[visits[i]].bound);
    return least;
  }
  void clear() {
    live = 0;
    visits.clear();
    next = 0;
  }

private:
  std::vector<Node> nodes;
  std::vector<unsigned> visits;
  size_t live = 0, next = 0;
};

class OptimalSearcher : public Searcher {
public:
  OptimalSearcher(const MapSpace &space, Objective objective,
                  const SearchBudget &budget)
      : space(space), bounds(space, objective),
        dominance(space, bounds, objective), clock(budget),
        numDims(space.problem().dims.size()),
        numLevels(space.arch().levels.size()) {
    Node root;
    root.mapping = space.fixedChoices();
    for (unsigned d = 0; d < numDims; ++d)
      root.remaining.push_back(space.problem().dims[d].bound /
                               bounds.fixedBelow(numLevels - 1, d));
    root.level = int(numLevels);
    // Its keeps are not chosen yet: only the model's own bound holds.
    root.bound = bounds.floor();
    frames.push_back(std::make_unique<Frame>());
    frames[0]->add(root);
    frames[0]->visitInOrder([](const Node &, const Node &) { return false; });
    depth = 1;
  }

  void ask(unsigned count,
           std::vector<std::vector<int64_t>> &proposals) override {
    proposals.clear();
    // Whole subtrees can go by without a proposal: a time budget is
    // checked here too, and once spent the search proposes nothing more.
    for (unsigned steps = 0; proposals.size() < count && depth > 0; ++steps) {
      if (steps % 1024 == 1023 && outOfTime())
        break;
      Frame &frame = *frames[depth - 1];
      if (frame.done()) {
        frame.clear();
        --depth;
        continue;
      }
      const Node &node = frame.takeNext();
      if (pruned(node.bound))
        continue;
      if (node.level < 0) {
        if (std::optional<std::vector<int64_t>> point =
                space.encode(node.mapping)) {
          proposals.push_back(std::move(*point));
          untold.push_back(node.bound);
        }
        continue;
      }
      if (depth == frames.size())
        frames.push_back(std::make_unique<Frame>());
      Frame &children = *frames[depth];
      expand(node, children);
      if (children.size() > 0)
        ++depth;
      else
        children.clear();
    }
  }

  void tell(const std::vector<std::vector<int64_t>> &,
            const std::vector<Feedback> &feedback) override {
    for (const Feedback &f : feedback)
      if (f.valid)
        best = std::min(best, f.cost);
    // Proposals the driver did not evaluate (its budget ended inside the
    // batch) stay open.
    for (size_t i = feedback.size(); i < untold.size(); ++i)
      unevaluated = std::min(unevaluated, untold[i]);
    untold.clear();
  }

  std::optional<SearchCertificate> certificate() const override {
    SearchCertificate certificate;
    certificate.complete = depth == 0 && untold.empty() && unevaluated == kNone;
    double open = std::min(best, unevaluated);
    for (double bound : untold)
      open = std::min(open, bound);
    for (size_t i = 0; i < depth; ++i)
      open = frames[i]->leastOpenBound(open);
    certificate.lowerBound = open;
    return certificate;
  }

private:
  bool pruned(double bound) const { return bound >= best; }

  bool outOfTime() {
    timeUp = timeUp || clock.secondsSpent();
    return timeUp;
  }

  /// The children of `node` that are worth visiting, best first.
  void expand(const Node &node, Frame &children) {
    if (node.level == int(numLevels))
      return expandKeeps(node, children);
    if (node.dim == numDims)
      return expandOrders(node, children);
    expandFactors(node, children);
  }

  void expandKeeps(const Node &node, Frame &children) {
    std::vector<std::pair<unsigned, unsigned>> free;
    for (unsigned l = 0; l < numLevels; ++l)
      for (unsigned o = 0; o < space.problem().operands.size(); ++o)
        if (space.keepIsFree(l, o))
          free.push_back({l, o});
    for (uint64_t mask = 0; mask < (uint64_t(1) << free.size()); ++mask) {
      const size_t c = children.add(node);
      Node &child = children.child(c);
      for (size_t i = 0; i < free.size(); ++i)
        child.mapping.levels[free[i].first].keep[free[i].second] =
            (mask >> i) & 1;
      child.level = int(numLevels) - 1;
      child.dim = 0;
      if (!settle(child, /*entered=*/true))
        children.drop(c);
    }
    visitByBound(children);
  }

  /// Every way to give dim `node.dim` its factors at `node.level`.
  void expandFactors(const Node &node, Frame &children) {
    const unsigned l = unsigned(node.level), d = node.dim;
    const int64_t left = node.remaining[d];
    std::vector<MapSpace::FactorSlot> here;
    bool below = false;
    for (const MapSpace::FactorSlot &slot : space.factorSlots(d)) {
      if (slot.level == l)
        here.push_back(slot);
      below |= slot.level < l;
    }
    // One factor per slot here, in slot order, each dividing what is left.
    std::vector<int64_t> factors(here.size(), 1);
    std::function<void(size_t, int64_t)> place = [&](size_t k, int64_t rest) {
      if (k == here.size()) {
        if (!below && rest != 1)
          return; // nothing below may take the rest
        const size_t c = children.add(node);
        Node &child = children.child(c);
        LevelMapping &level = child.mapping.levels[l];
        for (size_t j = 0; j < here.size(); ++j) {
          if (factors[j] == 1)
            continue;
          // An either-axis slot goes along X; addFactorChild adds its twin
          // along Y.
          const unsigned kind = here[j].kind == 3 ? 1 : here[j].kind;
          (kind == 0   ? level.temporal
           : kind == 1 ? level.spatialX
                       : level.spatialY)[d] *= factors[j];
        }
        child.remaining[d] = rest;
        addFactorChild(c, here, factors, children);
        return;
      }
      for (int64_t f : divisorsOf(rest)) {
        factors[k] = f;
        place(k + 1, rest / f);
      }
      factors[k] = 1;
    };
    place(0, left);
    // Wider spreads first (parallelism), then larger inner tiles.
    children.visitInOrder([&](const Node &a, const Node &b) {
      const LevelMapping &la = a.mapping.levels[l], &lb = b.mapping.levels[l];
      int64_t sa = la.spatialX[d] * la.spatialY[d],
              sb = lb.spatialX[d] * lb.spatialY[d];
      if (sa != sb)
        return sa > sb;
      return a.remaining[d] > b.remaining[d];
    });
  }

  /// Keeps child `c` (and its twins with an axis slot's factor along Y)
  /// when it obeys the largest factors and the fanouts and its tiles can
  /// fit.
  void addFactorChild(size_t c, const std::vector<MapSpace::FactorSlot> &here,
                      const std::vector<int64_t> &factors, Frame &children) {
    const unsigned l = unsigned(children.child(c).level),
                   d = children.child(c).dim;
    for (size_t j = 0; j < here.size(); ++j)
      if (here[j].kind == 3 && factors[j] > 1) {
        const size_t t = children.add(children.child(c));
        Node &twin = children.child(t);
        twin.mapping.levels[l].spatialX[d] /= factors[j];
        twin.mapping.levels[l].spatialY[d] *= factors[j];
        ++twin.dim;
        if (!admissible(twin))
          children.drop(t);
      }
    Node &child = children.child(c);
    ++child.dim;
    if (!admissible(child))
      children.drop(c);
  }

  /// Whether the dim just decided obeys its largest factors and the
  /// fanouts, and the level below can still fit; then settles the node.
  bool admissible(Node &node) {
    const unsigned l = unsigned(node.level), d = node.dim - 1;
    const LevelMapping &level = node.mapping.levels[l];
    const int64_t chosen[3] = {level.temporal[d], level.spatialX[d],
                               level.spatialY[d]};
    for (unsigned kind = 0; kind < 3; ++kind) {
      int64_t most = space.largestFactor(l, kind, d);
      if (most > 0 && chosen[kind] > most)
        return false;
    }
    if (level.spreadX() > space.arch().fanoutX(l) ||
        level.spreadY() > space.arch().fanoutY(l))
      return false;
    if (l > 0 && !belowFits(node, node.dim))
      return false;
    return settle(node, /*entered=*/false);
  }

  /// The loop orders of `node.level` that can differ in cost: the
  /// permutations of its loops with a factor above 1, one per class.
  void expandOrders(const Node &node, Frame &children) {
    if (!levelDecided(node))
      return;
    const unsigned l = unsigned(node.level);
    const LevelMapping &level = node.mapping.levels[l];
    std::vector<unsigned> moving, still;
    for (unsigned d : space.orderedLoops(l))
      (level.temporal[d] > 1 ? moving : still).push_back(d);
    std::sort(moving.begin(), moving.end());
    std::set<std::vector<uint32_t>> classes;
    do {
      if (!classes.insert(bounds.orderClass(node.mapping, l, moving)).second)
        continue;
      const size_t c = children.add(node);
      Node &child = children.child(c);
      std::vector<unsigned> &order = child.mapping.levels[l].order;
      std::copy(moving.begin(), moving.end(), order.begin());
      std::copy(still.begin(), still.end(), order.begin() + moving.size());
      // The tail (the fixed innermost loops) is the parent's already.
      nextLevel(child);
      if (!settle(child, /*entered=*/true))
        children.drop(c);
    } while (std::next_permutation(moving.begin(), moving.end()));
    visitByBound(children);
  }

  /// Whether a level's order can change any figure: only the loops above
  /// a kept tile move it, and only those with a factor above 1.
  bool orderMatters(const Node &node) const {
    const unsigned l = unsigned(node.level);
    unsigned moving = 0;
    for (unsigned d : space.orderedLoops(l))
      moving += node.mapping.levels[l].temporal[d] > 1;
    if (l == 0 || moving < 2)
      return false;
    for (unsigned m = 0; m < l; ++m)
      for (unsigned o = 0; o < space.problem().operands.size(); ++o)
        if (node.mapping.levels[m].keep[o])
          return true;
    return false;
  }

  /// The level is decided: on to the next one inwards.
  void nextLevel(Node &node) {
    --node.level;
    node.dim = 0;
  }

  /// Skips the choices that have one option (dims with no slot at the
  /// level, orders that change nothing), checks the tiles of each level
  /// that becomes decided, and bounds the node. False when it cannot lead
  /// to a valid mapping or a node seen before beats it. `entered`: the node
  /// has just entered its level (nothing there decided yet).
  bool settle(Node &node, bool entered) {
    while (node.level >= 0) {
      const unsigned l = unsigned(node.level);
      while (node.dim < numDims && !hasSlotAt(node.dim, l))
        ++node.dim;
      if (node.dim < numDims)
        break;
      if (orderMatters(node))
        break;
      // The order cannot matter: the fixed one stands. Level l is decided.
      if (!levelDecided(node))
        return false;
      nextLevel(node);
      entered = true;
    }
    // A complete mapping keeps its parent's bound: the driver evaluates it.
    if (node.level < 0)
      return !pruned(node.bound);
    const unsigned decided = unsigned(node.level) + 1;
    node.bound =
        bounds.bound(node.mapping, node.remaining.data(), decided, node.dim);
    // Checked even when the bound prunes: what it beats goes too.
    if (entered && dominance.dominated(node.mapping, node.remaining.data(),
                                       decided, bounds.lastCompletion()))
      return false;
    return !pruned(node.bound);
  }

  /// The exact check of the level under a level just decided.
  bool levelDecided(const Node &node) const {
    const unsigned l = unsigned(node.level);
    if (l == 0) {
      for (int64_t left : node.remaining)
        if (left != 1)
          return false;
      return true;
    }
    return belowFits(node, numDims);
  }

  /// Whether the level under `node.level` can fit its tiles: the first
  /// `decidedDims` dims have their tile there (their fixed factors below
  /// and all they have left), the others at least their fixed factors.
  bool belowFits(const Node &node, unsigned decidedDims) const {
    const unsigned below = unsigned(node.level) - 1;
    std::vector<int64_t> tile(numDims);
    for (unsigned d = 0; d < numDims; ++d)
      tile[d] = bounds.fixedBelow(below, d) *
                (d < decidedDims ? node.remaining[d] : 1);
    return bounds.fits(node.mapping, below, tile.data());
  }

  bool hasSlotAt(unsigned dim, unsigned level) const {
    for (const MapSpace::FactorSlot &slot : space.factorSlots(dim))
      if (slot.level == level)
        return true;
    return false;
  }

  static void visitByBound(Frame &children) {
    children.visitInOrder(
        [](const Node &a, const Node &b) { return a.bound < b.bound; });
  }

  const MapSpace &space;
  PartialBound bounds;
  Dominance dominance;
  const BudgetClock clock;
  bool timeUp = false;
  const unsigned numDims, numLevels;
  static constexpr double kNone = std::numeric_limits<double>::infinity();
  /// frames[0, depth): the path from the root, each frame the children of
  /// a node of the one before; frames past depth wait to be reused.
  std::vector<std::unique_ptr<Frame>> frames;
  size_t depth = 0;
  double best = kNone;
  /// The bounds of the proposals of the last ask, and the least bound of
  /// proposals never evaluated.
  std::vector<double> untold;
  double unevaluated = kNone;
};

} // namespace

std::unique_ptr<Searcher> makeOptimalSearcher(const MapSpace &space,
                                              Objective objective,
                                              const SearchBudget &budget) {
  return std::make_unique<OptimalSearcher>(space, objective, budget);
}

} // namespace marlmap
