//===- OptimalTree.cpp - One walk of the exact searcher's tree ------------===//

#include "OptimalTree.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace marlmap {
OptimalTree::OptimalTree(const MapSpace &space, const PartialBound &bounds,
                         Objective objective, const double &best,
                         size_t remember)
    : space(space), bounds(bounds),
      dominance(space, bounds, objective, remember), best(best),
      numDims(space.problem().dims.size()),
      numLevels(space.arch().levels.size()) {
  frames.push_back(std::make_unique<TreeFrame>());
  startPass();
}

void OptimalTree::usePasses(double first) {
  threshold = first;
  startPass();
}

OptimalTree::Step OptimalTree::step(std::vector<int64_t> &point,
                                    double &pointBound, bool start,
                                    double unevaluated) {
  if (depth == 0) {
    if (!leftOutBelowBest())
      return Step::Finished;
    if (!start)
      return Step::PassEnded;
    nextPass(unevaluated);
  }
  TreeFrame &frame = *frames[depth - 1];
  if (frame.done()) {
    frame.clear();
    --depth;
    return Step::Moved;
  }
  const TreeNode &node = frame.takeNext();
  if (pruned(node.bound))
    return Step::Moved;
  if (node.level < 0) {
    std::optional<std::vector<int64_t>> encoded = space.encode(node.mapping);
    if (!encoded)
      return Step::Moved;
    point = std::move(*encoded);
    pointBound = node.bound;
    return Step::Proposed;
  }
  if (depth == frames.size())
    frames.push_back(std::make_unique<TreeFrame>());
  TreeFrame &children = *frames[depth];
  ++expansions;
  expand(node, children);
  if (children.size() > 0)
    ++depth;
  else
    children.clear();
  return Step::Moved;
}

double OptimalTree::lowerBound() const {
  // Ended: what was pruned holds nothing better than the best by more than
  // the bounds' margin (pruningLevel), so the best is the optimum.
  if (finished())
    return best;
  double open = std::min(best, leastLeftOut);
  for (size_t i = 0; i < depth; ++i)
    open = frames[i]->leastOpenBound(open);
  return std::max(open, provedBelow);
}

/// A node whose bound reaches the best mapping found, or this pass's
/// threshold, is not visited; the least bound left out for the threshold
/// is kept: the next pass starts from it.
bool OptimalTree::pruned(double bound) {
  if (bound >= pruningLevel())
    return true;
  if (bound < threshold)
    return false;
  leastLeftOut = std::min(leastLeftOut, bound);
  return true;
}

void OptimalTree::nextPass(double unevaluated) {
  provedBelow =
      std::max(provedBelow, std::min({best, leastLeftOut, unevaluated}));
  // Each pass should do about twice the work of the one before, or the
  // passes would repeat each other: the growth squares while they do not.
  const int64_t length = expansions - passStart;
  if (length < 2 * lastPassLength)
    growth *= growth;
  lastPassLength = length;
  threshold = std::max(threshold * growth, std::nextafter(leastLeftOut, kNone));
  startPass();
}

/// The root alone open; what the last pass remembered forgotten (a node
/// seen in it would dominate itself).
void OptimalTree::startPass() {
  for (std::unique_ptr<TreeFrame> &frame : frames)
    frame->clear();
  TreeNode root;
  root.mapping = space.fixedChoices();
  for (unsigned d = 0; d < numDims; ++d)
    root.remaining.push_back(space.problem().dims[d].bound /
                             bounds.fixedBelow(numLevels - 1, d));
  root.level = int(numLevels);
  // Its keeps are not chosen yet: only the model's own bound holds.
  root.bound = root.rank = bounds.floor();
  frames[0]->add(root);
  frames[0]->visitInOrder(
      [](const TreeNode &, const TreeNode &) { return false; });
  depth = 1;
  leastLeftOut = kNone;
  passStart = expansions;
  dominance.forget();
}

/// The children of `node` that are worth visiting, best first.
void OptimalTree::expand(const TreeNode &node, TreeFrame &children) {
  if (node.level == int(numLevels))
    return expandKeeps(node, children);
  if (node.dim == numDims)
    return expandOrders(node, children);
  expandFactors(node, children);
}

void OptimalTree::expandKeeps(const TreeNode &node, TreeFrame &children) {
  std::vector<std::pair<unsigned, unsigned>> free;
  for (unsigned l = 0; l < numLevels; ++l)
    for (unsigned o = 0; o < space.problem().operands.size(); ++o)
      if (space.keepIsFree(l, o))
        free.push_back({l, o});
  for (uint64_t mask = 0; mask < (uint64_t(1) << free.size()); ++mask) {
    const size_t c = children.add(node);
    TreeNode &child = children.child(c);
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
void OptimalTree::expandFactors(const TreeNode &node, TreeFrame &children) {
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
      TreeNode &child = children.child(c);
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
    for (int64_t f : divisors(rest)) {
      factors[k] = f;
      place(k + 1, rest / f);
    }
    factors[k] = 1;
  };
  place(0, left);
  // Wider spreads first (parallelism), then larger inner tiles.
  children.visitInOrder([&](const TreeNode &a, const TreeNode &b) {
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
void OptimalTree::addFactorChild(size_t c,
                                 const std::vector<MapSpace::FactorSlot> &here,
                                 const std::vector<int64_t> &factors,
                                 TreeFrame &children) {
  const unsigned l = unsigned(children.child(c).level),
                 d = children.child(c).dim;
  for (size_t j = 0; j < here.size(); ++j)
    if (here[j].kind == 3 && factors[j] > 1) {
      const size_t t = children.add(children.child(c));
      TreeNode &twin = children.child(t);
      twin.mapping.levels[l].spatialX[d] /= factors[j];
      twin.mapping.levels[l].spatialY[d] *= factors[j];
      ++twin.dim;
      if (!admissible(twin))
        children.drop(t);
    }
  TreeNode &child = children.child(c);
  ++child.dim;
  if (!admissible(child))
    children.drop(c);
}

/// Whether the dim just decided obeys its largest factors and the
/// fanouts, and the level below can still fit; then settles the node.
bool OptimalTree::admissible(TreeNode &node) {
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
void OptimalTree::expandOrders(const TreeNode &node, TreeFrame &children) {
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
    TreeNode &child = children.child(c);
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
bool OptimalTree::orderMatters(const TreeNode &node) const {
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
void OptimalTree::nextLevel(TreeNode &node) {
  --node.level;
  node.dim = 0;
}

/// Skips the choices that have one option (dims with no slot at the
/// level, orders that change nothing), checks the tiles of each level
/// that becomes decided, and bounds the node. False when it cannot lead
/// to a valid mapping or a node seen before beats it. `entered`: the node
/// has just entered its level (nothing there decided yet).
bool OptimalTree::settle(TreeNode &node, bool entered) {
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
  node.bound = bounds.bound(node.mapping, node.remaining.data(), decided,
                            node.dim, pruningLevel());
  node.rank = bounds.lastUntraded();
  // Checked even when the bound prunes: what it beats goes too.
  if (entered && dominance.dominated(node.mapping, node.remaining.data(),
                                     decided, bounds.lastCompletion()))
    return false;
  // The level's order is next: most such nodes have no order worth
  // listing, which rule 9 tells at the price of a few orders.
  if (node.dim == numDims && node.bound < std::min(pruningLevel(), threshold))
    node.bound = bounds.orderFreeBoundAfter(node.mapping, node.remaining.data(),
                                            decided, node.bound);
  return !pruned(node.bound);
}

/// The exact check of the level under a level just decided.
bool OptimalTree::levelDecided(const TreeNode &node) const {
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
bool OptimalTree::belowFits(const TreeNode &node, unsigned decidedDims) const {
  const unsigned below = unsigned(node.level) - 1;
  std::vector<int64_t> tile(numDims);
  for (unsigned d = 0; d < numDims; ++d)
    tile[d] =
        bounds.fixedBelow(below, d) * (d < decidedDims ? node.remaining[d] : 1);
  return bounds.fits(node.mapping, below, tile.data());
}

bool OptimalTree::hasSlotAt(unsigned dim, unsigned level) const {
  for (const MapSpace::FactorSlot &slot : space.factorSlots(dim))
    if (slot.level == level)
      return true;
  return false;
}

void OptimalTree::visitByBound(TreeFrame &children) {
  children.visitInOrder(
      [](const TreeNode &a, const TreeNode &b) { return a.rank < b.rank; });
}

} // namespace marlmap
