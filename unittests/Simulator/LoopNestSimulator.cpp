//===- LoopNestSimulator.cpp - A point-by-point referee for the model -----===//
//
// Two passes. The first walks every point of the nest and records, per
// operand and keeping level, the box each instance holds in each epoch, and
// what every MAC touches. The second walks each instance's epochs in time
// order to find what it fetched and wrote back, and lets each keeper count
// its children's traffic, one word per multicast group and epoch.
//
//===----------------------------------------------------------------------===//

#include "LoopNestSimulator.h"

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <tuple>

namespace marlmap::simulator {
namespace {

struct NestLoop {
  unsigned level;
  unsigned dim;
  int64_t factor;
  bool spatial;
  /// How far one step moves along `dim`: the factors inside it on `dim`.
  int64_t stride = 1;
};

/// Outermost first: per level from the outermost, its temporal loops in
/// order, then its spatial ones.
std::vector<NestLoop> buildNest(const Mapping &mapping, unsigned numDims) {
  std::vector<NestLoop> nest;
  for (unsigned l = mapping.levels.size(); l-- > 0;) {
    const LevelMapping &level = mapping.levels[l];
    for (unsigned d : level.order)
      if (level.temporal[d] > 1)
        nest.push_back({l, d, level.temporal[d], false});
    for (unsigned d = 0; d < numDims; ++d) {
      if (level.spatialY[d] > 1)
        nest.push_back({l, d, level.spatialY[d], true});
      if (level.spatialX[d] > 1)
        nest.push_back({l, d, level.spatialX[d], true});
    }
  }
  std::vector<int64_t> inside(numDims, 1);
  for (auto it = nest.rbegin(); it != nest.rend(); ++it) {
    it->stride = inside[it->dim];
    inside[it->dim] *= it->factor;
  }
  return nest;
}

/// Numbers the index combinations of some of the nest's loops, the
/// outermost most significant, so that numbers of temporal loops run in
/// time order.
struct Numbering {
  std::vector<int64_t> weight; // per nest loop; 0 outside the subset
  int64_t count = 1;

  int64_t of(const std::vector<int64_t> &index) const {
    int64_t number = 0;
    for (size_t i = 0; i < index.size(); ++i)
      number += index[i] * weight[i];
    return number;
  }
};

Numbering numbering(const std::vector<NestLoop> &nest,
                    const std::function<bool(const NestLoop &)> &member) {
  Numbering n;
  n.weight.assign(nest.size(), 0);
  for (size_t i = nest.size(); i-- > 0;)
    if (member(nest[i])) {
      n.weight[i] = n.count;
      n.count *= nest[i].factor;
    }
  return n;
}

/// Where an operand's words lie: each axis's lowest coordinate and extent
/// over the whole problem, so that a word has a number.
struct WordSpace {
  std::vector<int64_t> low, extent;

  WordSpace(const Operand &operand, const std::vector<int64_t> &bounds) {
    for (const Coordinate &axis : operand.projection) {
      int64_t lo = axis.offset, hi = axis.offset;
      for (const ProjectionTerm &term : axis.terms) {
        int64_t reach = term.coefficient * (bounds[term.dim] - 1);
        (reach < 0 ? lo : hi) += reach;
      }
      low.push_back(lo);
      extent.push_back(hi - lo + 1);
    }
  }

  int64_t number(const std::vector<int64_t> &coordinates) const {
    int64_t n = 0;
    for (size_t a = 0; a < coordinates.size(); ++a)
      n = n * extent[a] + (coordinates[a] - low[a]);
    return n;
  }
};

/// The words an instance holds in an epoch: a range per axis.
struct Box {
  std::vector<int64_t> low, high; // inclusive; empty when low is empty

  bool empty() const { return low.empty(); }
  void add(const std::vector<int64_t> &coordinates) {
    if (empty()) {
      low = high = coordinates;
      return;
    }
    for (size_t a = 0; a < coordinates.size(); ++a) {
      low[a] = std::min(low[a], coordinates[a]);
      high[a] = std::max(high[a], coordinates[a]);
    }
  }
  bool contains(const std::vector<int64_t> &coordinates) const {
    if (empty())
      return false;
    for (size_t a = 0; a < coordinates.size(); ++a)
      if (coordinates[a] < low[a] || coordinates[a] > high[a])
        return false;
    return true;
  }
  int64_t words() const {
    if (empty())
      return 0;
    int64_t n = 1;
    for (size_t a = 0; a < low.size(); ++a)
      n *= high[a] - low[a] + 1;
    return n;
  }
  /// Calls `visit` with every word's coordinates.
  void forEachWord(
      const std::function<void(const std::vector<int64_t> &)> &visit) const {
    if (empty())
      return;
    std::vector<int64_t> at = low;
    while (true) {
      visit(at);
      size_t a = at.size();
      while (a-- > 0) {
        if (++at[a] <= high[a])
          break;
        at[a] = low[a];
      }
      if (a == size_t(-1))
        return;
    }
  }
};

/// A word moving between a keeper and one of its children's groups.
struct Transfer {
  int64_t parent, epoch, group, word;
  bool operator<(const Transfer &o) const {
    return std::tie(parent, epoch, group, word) <
           std::tie(o.parent, o.epoch, o.group, o.word);
  }
  bool operator==(const Transfer &o) const {
    return parent == o.parent && epoch == o.epoch && group == o.group &&
           word == o.word;
  }
};

/// Transfers counted once per (parent, epoch, group, word): multicast out,
/// reduction in; in total and for parent instance 0.
std::pair<int64_t, int64_t> distinct(std::vector<Transfer> transfers) {
  std::sort(transfers.begin(), transfers.end());
  transfers.erase(std::unique(transfers.begin(), transfers.end()),
                  transfers.end());
  return {int64_t(transfers.size()),
          std::count_if(transfers.begin(), transfers.end(),
                        [](const Transfer &t) { return t.parent == 0; })};
}

/// One keeping level of one operand: what the first pass records.
struct Keeper {
  unsigned level;
  Numbering instances, epochs;
  /// The spatial loops between this keeper and its child keeper (or the
  /// MACs) on dims the operand depends on: one multicast group each.
  Numbering groups;
  /// [instance * epochs + epoch].
  std::vector<Box> boxes;
  /// Per instance: the parent keeper's instance and this instance's group
  /// among the parent's children (unused at the outermost keeper).
  std::vector<std::pair<int64_t, int64_t>> parentOf;
  /// What each instance fetched from and wrote back to its parent, with
  /// the instance number in `parent` until the parent translates it.
  std::vector<Transfer> fetched, returned;
};

/// A MAC's access: the innermost keeper's instance, the step, the MAC's
/// group and the word.
using Touch = Transfer;

class Simulator {
public:
  Simulator(const Problem &problem, const Mapping &mapping)
      : problem(problem), mapping(mapping),
        nest(buildNest(mapping, problem.dims.size())),
        bounds(problem.bounds()) {
    steps = numbering(nest, [](const NestLoop &loop) { return !loop.spatial; });
    macs = numbering(nest, [](const NestLoop &loop) { return loop.spatial; });
    allDims.assign(bounds.size(), true);
    for (unsigned o = 0; o < problem.operands.size(); ++o) {
      words.emplace_back(problem.operands[o], bounds);
      keepers.push_back(keepersOf(o));
      relevantDims.emplace_back(bounds.size(), false);
      for (unsigned d = 0; d < bounds.size(); ++d)
        relevantDims.back()[d] = relevant(o, d);
    }
    touches.resize(problem.operands.size());
  }

  Simulation run() {
    walkPoints();
    Simulation out;
    out.numOperands = problem.operands.size();
    out.operands.resize(mapping.levels.size() * out.numOperands);
    out.points = points;
    out.activeSteps = std::count(stepActive.begin(), stepActive.end(), 1);
    out.macInstancesUsed = std::count(macActive.begin(), macActive.end(), 1);
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      countOperand(o, out);
    return out;
  }

private:
  bool moves(unsigned o) const {
    return problem.operands[o].access != Access::None;
  }
  bool relevant(unsigned o, unsigned dim) const {
    for (const Coordinate &axis : problem.operands[o].projection)
      for (const ProjectionTerm &term : axis.terms)
        if (term.dim == dim && term.coefficient != 0)
          return true;
    return false;
  }

  std::vector<Keeper> keepersOf(unsigned o) const {
    std::vector<Keeper> out;
    if (!moves(o))
      return out;
    int child = -1; // the MACs
    for (unsigned l = 0; l < mapping.levels.size(); ++l) {
      if (!mapping.levels[l].keep[o])
        continue;
      Keeper keeper;
      keeper.level = l;
      keeper.instances = numbering(nest, [l](const NestLoop &loop) {
        return loop.spatial && loop.level > l;
      });
      keeper.epochs = numbering(nest, [l](const NestLoop &loop) {
        return !loop.spatial && loop.level > l;
      });
      keeper.groups = numbering(nest, [&](const NestLoop &loop) {
        return loop.spatial && int(loop.level) > child && loop.level <= l &&
               relevant(o, loop.dim);
      });
      keeper.boxes.resize(keeper.instances.count * keeper.epochs.count);
      keeper.parentOf.resize(keeper.instances.count);
      out.push_back(std::move(keeper));
      child = l;
    }
    return out;
  }

  /// Pass one: every point of the nest, in nest order, twice: the steps
  /// in which some MAC works, then what each point touches.
  void walkPoints() {
    stepActive.assign(steps.count, 0);
    macActive.assign(macs.count, 0);
    forEachPoint([&](const std::vector<int64_t> &index,
                     const std::vector<int64_t> &point) {
      if (inBounds(point, allDims))
        stepActive[steps.of(index)] = 1;
    });
    std::vector<int64_t> coordinates;
    forEachPoint([&](const std::vector<int64_t> &index,
                     const std::vector<int64_t> &point) {
      if (stepActive[steps.of(index)])
        visit(index, point, coordinates);
    });
  }

  /// Calls `visit` with every index combination of the nest and its point,
  /// past the bounds included.
  void forEachPoint(
      const std::function<void(const std::vector<int64_t> &,
                               const std::vector<int64_t> &)> &visit) const {
    std::vector<int64_t> index(nest.size(), 0), point(bounds.size());
    while (true) {
      std::fill(point.begin(), point.end(), 0);
      for (size_t i = 0; i < nest.size(); ++i)
        point[nest[i].dim] += index[i] * nest[i].stride;
      visit(index, point);
      size_t i = nest.size();
      while (i-- > 0) {
        if (++index[i] < nest[i].factor)
          break;
        index[i] = 0;
      }
      if (i == size_t(-1))
        return;
    }
  }

  /// Whether the point lies within the bounds of the dims in `dims`.
  bool inBounds(const std::vector<int64_t> &point,
                const std::vector<bool> &dims) const {
    for (size_t d = 0; d < bounds.size(); ++d)
      if (dims[d] && point[d] >= bounds[d])
        return false;
    return true;
  }

  /// A point of a step in which some MAC works: the MAC's accesses when
  /// the point is within every bound, and each operand's boxes when it is
  /// within the bounds of the dims the operand depends on.
  void visit(const std::vector<int64_t> &index,
             const std::vector<int64_t> &point,
             std::vector<int64_t> &coordinates) {
    const bool works = inBounds(point, allDims);
    const int64_t step = steps.of(index);
    if (works) {
      ++points;
      macActive[macs.of(index)] = 1;
    }
    for (unsigned o = 0; o < problem.operands.size(); ++o) {
      std::vector<Keeper> &chain = keepers[o];
      if (chain.empty() || !inBounds(point, relevantDims[o]))
        continue;
      coordinates.clear();
      for (const Coordinate &axis : problem.operands[o].projection) {
        int64_t c = axis.offset;
        for (const ProjectionTerm &term : axis.terms)
          c += term.coefficient * point[term.dim];
        coordinates.push_back(c);
      }
      for (size_t k = 0; k < chain.size(); ++k) {
        Keeper &keeper = chain[k];
        const int64_t instance = keeper.instances.of(index);
        keeper.boxes[instance * keeper.epochs.count + keeper.epochs.of(index)]
            .add(coordinates);
        if (k + 1 < chain.size())
          keeper.parentOf[instance] = {chain[k + 1].instances.of(index),
                                       chain[k + 1].groups.of(index)};
      }
      if (works)
        touches[o].push_back({chain[0].instances.of(index), step,
                              chain[0].groups.of(index),
                              words[o].number(coordinates)});
    }
  }

  /// Pass two for one operand, from the innermost keeper out.
  void countOperand(unsigned o, Simulation &out) {
    std::vector<Keeper> &chain = keepers[o];
    const bool written = problem.operands[o].isWritten();
    for (size_t k = 0; k < chain.size(); ++k) {
      Keeper &keeper = chain[k];
      OperandCounts &counts = out.operands[keeper.level * out.numOperands + o];
      counts.kept = true;
      std::vector<Transfer> down, up;
      if (k == 0) {
        macTraffic(o, written, down, up);
      } else {
        const Keeper &child = chain[k - 1];
        for (const std::vector<Transfer> *from :
             {&child.fetched, &child.returned})
          for (Transfer t : *from) {
            std::tie(t.parent, t.group) = child.parentOf[t.parent];
            (from == &child.fetched ? down : up).push_back(t);
          }
      }
      std::tie(counts.reads, counts.first.reads) = distinct(std::move(down));
      std::tie(counts.updates, counts.first.updates) = distinct(std::move(up));
      walkEpochs(o, written, keeper, counts);
      if (k + 1 == chain.size())
        counts.fills = counts.first.fills = 0; // the outermost has no parent
    }
  }

  /// What the MACs read from and update at the innermost keeper.
  void macTraffic(unsigned o, bool written, std::vector<Transfer> &down,
                  std::vector<Transfer> &up) {
    std::vector<Touch> &all = touches[o];
    if (!written) {
      down = all;
      return;
    }
    // A partial sum is read unless the keeper instance has not held the
    // word before: walk each instance's steps in time order.
    std::stable_sort(
        all.begin(), all.end(), [](const Touch &a, const Touch &b) {
          return std::tie(a.parent, a.epoch) < std::tie(b.parent, b.epoch);
        });
    std::set<std::pair<int64_t, int64_t>> held; // (instance, word)
    for (size_t begin = 0; begin < all.size();) {
      size_t end = begin;
      while (end < all.size() && all[end].parent == all[begin].parent &&
             all[end].epoch == all[begin].epoch)
        ++end;
      for (size_t i = begin; i < end; ++i) {
        if (held.count({all[i].parent, all[i].word}))
          down.push_back(all[i]);
        up.push_back(all[i]);
      }
      for (size_t i = begin; i < end; ++i)
        held.insert({all[i].parent, all[i].word});
      begin = end;
    }
  }

  /// Each instance's epochs in time order: its capacity and fills, and the
  /// words it fetched and wrote back, for its parent to count.
  void walkEpochs(unsigned o, bool written, Keeper &keeper,
                  OperandCounts &counts) {
    const WordSpace &space = words[o];
    for (int64_t instance = 0; instance < keeper.instances.count; ++instance) {
      std::set<int64_t> heldBefore;
      const Box *previous = nullptr;
      for (int64_t epoch = 0; epoch < keeper.epochs.count; ++epoch) {
        const Box &box = keeper.boxes[instance * keeper.epochs.count + epoch];
        if (box.empty())
          continue; // nothing to do: the instance keeps what it has
        counts.capacity = std::max(counts.capacity, box.words());
        box.forEachWord([&](const std::vector<int64_t> &at) {
          if (previous && previous->contains(at))
            return;
          const int64_t word = space.number(at);
          if (!written || heldBefore.count(word))
            keeper.fetched.push_back({instance, epoch, 0, word});
          heldBefore.insert(word);
        });
        if (previous && written)
          previous->forEachWord([&](const std::vector<int64_t> &at) {
            if (!box.contains(at))
              keeper.returned.push_back({instance, epoch, 0, space.number(at)});
          });
        previous = &box;
      }
      if (!previous)
        continue;
      ++counts.instances;
      if (written)
        previous->forEachWord([&](const std::vector<int64_t> &at) {
          keeper.returned.push_back(
              {instance, keeper.epochs.count, 0, space.number(at)});
        });
    }
    counts.fills = keeper.fetched.size();
    counts.first.fills =
        std::count_if(keeper.fetched.begin(), keeper.fetched.end(),
                      [](const Transfer &t) { return t.parent == 0; });
  }

  const Problem &problem;
  const Mapping &mapping;
  std::vector<NestLoop> nest;
  std::vector<int64_t> bounds;
  Numbering steps, macs;
  std::vector<WordSpace> words;
  std::vector<std::vector<Keeper>> keepers;
  std::vector<std::vector<Touch>> touches;
  std::vector<char> stepActive, macActive;
  /// Per operand, the dims it depends on; and every dim.
  std::vector<std::vector<bool>> relevantDims;
  std::vector<bool> allDims;
  int64_t points = 0;
};

} // namespace

Simulation simulate(const Problem &problem, const Mapping &mapping) {
  return Simulator(problem, mapping).run();
}

} // namespace marlmap::simulator
