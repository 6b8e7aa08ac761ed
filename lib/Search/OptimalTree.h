//===- OptimalTree.h - One walk of the exact searcher's tree ----*- C++ -*-===//
//
// The exact searcher's tree of partial mappings: the keeps first (they fix
// what reuse is possible), then level by level from the outermost inwards
// each dim's factors at that level (spatial and temporal), then the level's
// loop order, one per class of orders that cost alike. A walk goes depth
// first and drops a node whose lower bound (PartialBound) reaches the best
// mapping found or its threshold, one whose tiles overflow a level
// (footprints only grow as factors move inwards), and one that an earlier
// node in the same state beats (Dominance).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_OPTIMALTREE_H
#define MARLMAP_LIB_SEARCH_OPTIMALTREE_H

#include "OptimalBound.h"
#include "OptimalDominance.h"

#include <limits>
#include <memory>

namespace marlmap {

/// A partial mapping: every level above `level` decided, and at `level` the
/// dims before `dim` (dim == number of dims: its order is next). Level -1
/// is a complete mapping; level == the level count: only keeps to choose.
struct TreeNode {
  Mapping mapping;
  std::vector<int64_t> remaining;
  int level = 0;
  unsigned dim = 0;
  double bound = 0.0;
  /// What the walks visit children in order of: the bound without rule 7,
  /// which would otherwise draw the first dives to loosely bounded keeps.
  double rank = 0.0;
};

/// The children of one expanded node, visited in a chosen order. A frame
/// keeps its nodes when it is done: the next expansion at its depth copies
/// into them, so the search stops allocating once its tree is as deep as it
/// gets.
class TreeFrame {
public:
  /// A new child, a copy of `parent`; its index (a reference would not
  /// survive the next add).
  size_t add(const TreeNode &parent) {
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
  TreeNode &child(size_t index) { return nodes[index]; }
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
  TreeNode &takeNext() { return nodes[visits[next++]]; }
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
  std::vector<TreeNode> nodes;
  std::vector<unsigned> visits;
  size_t live = 0, next = 0;
};

/// A depth-first walk of the tree in passes. With no threshold it is one
/// pass over every node the bounds and the best mapping leave. With one, a
/// pass visits only nodes bounded under it, and the next pass starts from
/// the root with a higher threshold: a pass that ends without a mapping
/// under its threshold proves that none exists, so the walk's lower bound
/// climbs pass by pass, and the mappings it proposes come in order of their
/// bounds, near the bound, instead of wherever the first dive leads.
class OptimalTree {
public:
  static constexpr double kNone = std::numeric_limits<double>::infinity();

  /// `best`: the least objective of the mappings found so far, which the
  /// searcher updates; `remember`: how many states Dominance may keep.
  OptimalTree(const MapSpace &space, const PartialBound &bounds,
              Objective objective, const double &best, size_t remember);

  /// Passes from now on, the first under `first`.
  void usePasses(double first);

  enum class Step { Moved, Proposed, PassEnded, Finished };
  /// Visits the next node: a complete mapping is proposed (appended to
  /// `point`); at the end of a pass, the next one starts only when `start`
  /// (its proposals have been evaluated: their best counts).
  Step step(std::vector<int64_t> &point, double &pointBound, bool start,
            double unevaluated);

  bool finished() const { return depth == 0 && !leftOutBelowBest(); }
  /// A lower bound on every mapping this walk has not proposed.
  double lowerBound() const;

private:
  bool pruned(double bound);
  /// Where bounds prune: the best mapping found, less twice the bounds'
  /// margin, so that the mappings tied with it (a pooling op has many) go
  /// with it instead of being walked one by one. What is pruned holds
  /// nothing better than the best by more than that part of it.
  double pruningLevel() const { return best * (1.0 - 2 * kBoundMargin); }
  bool leftOutBelowBest() const { return leastLeftOut < pruningLevel(); }
  void nextPass(double unevaluated);
  void startPass();

  void expand(const TreeNode &node, TreeFrame &children);
  void expandKeeps(const TreeNode &node, TreeFrame &children);
  void expandFactors(const TreeNode &node, TreeFrame &children);
  void addFactorChild(size_t c, const std::vector<MapSpace::FactorSlot> &here,
                      const std::vector<int64_t> &factors, TreeFrame &children);
  bool admissible(TreeNode &node);
  void expandOrders(const TreeNode &node, TreeFrame &children);
  bool orderMatters(const TreeNode &node) const;
  void nextLevel(TreeNode &node);
  bool settle(TreeNode &node, bool entered);
  bool levelDecided(const TreeNode &node) const;
  bool belowFits(const TreeNode &node, unsigned decidedDims) const;
  bool hasSlotAt(unsigned dim, unsigned level) const;
  static void visitByBound(TreeFrame &children);

  const MapSpace &space;
  const PartialBound &bounds;
  Dominance dominance;
  const double &best;
  const unsigned numDims, numLevels;
  /// frames[0, depth): the path from the root, each frame the children of
  /// a node of the one before; frames past depth wait to be reused.
  std::vector<std::unique_ptr<TreeFrame>> frames;
  size_t depth = 0;
  /// This pass visits only nodes bounded under `threshold`; the least bound
  /// it left out; what its earlier passes proved of the optimum.
  double threshold = kNone, leastLeftOut = kNone, provedBelow = 0.0;
  /// How much the threshold grows from one pass to the next; nodes expanded
  /// in all, and at the start of this pass and the last.
  double growth = 1.05;
  int64_t expansions = 0, passStart = 0, lastPassLength = 0;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_OPTIMALTREE_H
