//===- LevelSpreads.cpp - A level's spread as one choice ------------------===//

#include "LevelSpreads.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>

namespace marlmap {

std::string spreadDecisionName(const MapSpace &space, const SpreadPlan &plan) {
  std::string name = std::string("spread ") + (plan.axis == 1 ? "X" : "Y") +
                     "@" + space.arch().levels[plan.level].name + " of";
  for (size_t at = 0; at < plan.dims.size(); ++at)
    name += std::string(at ? "," : " ") +
            space.problem().dims[plan.dims[at]].name + "=" +
            std::to_string(plan.freeFactors[at]);
  return name;
}

namespace {

/// Where the copies beyond a spread at `level` go among a dim's `slots`:
/// the level's temporal slot, else the outermost temporal slot, else
/// nowhere (-1).
int overflowSlot(const std::vector<MapSpace::FactorSlot> &slots,
                 unsigned level) {
  int atLevel = -1, outermost = -1;
  for (unsigned k = 0; k < slots.size(); ++k)
    if (slots[k].kind == 0) {
      outermost = int(k);
      if (slots[k].level == level)
        atLevel = int(k);
    }
  return atLevel >= 0 ? atLevel : outermost;
}

} // namespace

LevelSpreads::LevelSpreads(const MapSpace &space, int64_t mostSpreads)
    : space(space) {
  const std::vector<Parameter> &params = space.parameters();
  followers.resize(params.size());
  for (unsigned p = 0; p < params.size(); ++p)
    if (std::optional<MapSpace::SplitShape> shape = space.splitShape(p))
      followers[p] = {shape->copies, shape->slots, {}};
  // Two-dimensional arrays only: along a line the copies did as well or
  // better (docs/Search.md, "Spreads as decisions").
  const Arch &arch = space.arch();
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    if (arch.fanoutX(l) > 1 && arch.fanoutY(l) > 1)
      for (unsigned axis : {1u, 2u})
        addPlan(l, axis, mostSpreads);
  // claim() visits a parameter's slots in order.
  for (Follower &follower : followers)
    std::sort(follower.governed.begin(), follower.governed.end(),
              [](const GovernedSlot &a, const GovernedSlot &b) {
                return a.slot < b.slot;
              });
}

void LevelSpreads::addPlan(unsigned level, unsigned axis, int64_t mostSpreads) {
  const Problem &problem = space.problem();
  const Mapping &base = space.fixedChoices();
  const LevelMapping &fixedHere = base.levels[level];
  const std::vector<int64_t> &fixedAlong =
      axis == 1 ? fixedHere.spatialX : fixedHere.spatialY;
  const int64_t fanout =
      axis == 1 ? space.arch().fanoutX(level) : space.arch().fanoutY(level);
  const int64_t room = fanout / saturatingProduct(fixedAlong);
  if (room < 2)
    return;
  SpreadPlan plan{level, axis, {}, {}, {}};
  std::vector<std::vector<int64_t>> candidates;
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    const std::vector<MapSpace::FactorSlot> &slots = space.factorSlots(d);
    if (std::none_of(slots.begin(), slots.end(), [&](const auto &slot) {
          return slot.level == level && slot.kind == axis;
        }))
      continue;
    int64_t fixed = 1;
    for (const LevelMapping &l : base.levels)
      fixed *= l.temporal[d] * l.spatialX[d] * l.spatialY[d];
    int64_t most = room;
    if (int64_t cap = space.largestFactor(level, axis, d))
      most = std::max<int64_t>(1, std::min(most, cap / fixedAlong[d]));
    plan.dims.push_back(d);
    plan.freeFactors.push_back(problem.dims[d].bound / fixed);
    std::vector<int64_t> upToMost = divisors(plan.freeFactors.back());
    upToMost.erase(std::upper_bound(upToMost.begin(), upToMost.end(), most),
                   upToMost.end());
    candidates.push_back(std::move(upToMost));
  }
  if (plan.dims.empty())
    return;
  // Every spread within the room, depth first; too many leave the level to
  // the copies.
  std::vector<int64_t> spread;
  bool tooMany = false;
  auto walk = [&](auto &self, size_t position, int64_t used) -> void {
    if (tooMany)
      return;
    if (position == candidates.size()) {
      plan.spreads.push_back(spread);
      tooMany = int64_t(plan.spreads.size()) > mostSpreads;
      return;
    }
    for (int64_t f : candidates[position]) {
      if (used * f > room)
        break;
      spread.push_back(f);
      self(self, position + 1, used * f);
      spread.pop_back();
    }
  };
  walk(walk, 0, 1);
  if (tooMany || plan.spreads.size() < 2)
    return;
  std::stable_sort(plan.spreads.begin(), plan.spreads.end(),
                   [](const auto &a, const auto &b) {
                     return saturatingProduct(a) > saturatingProduct(b);
                   });
  std::vector<int64_t> sorted(plan.spreads.size());
  for (size_t i = 0; i < sorted.size(); ++i)
    sorted[i] = int64_t(i);
  std::sort(sorted.begin(), sorted.end(), [&](int64_t a, int64_t b) {
    return plan.spreads[size_t(a)] < plan.spreads[size_t(b)];
  });

  const int planIndex = int(list.size());
  std::vector<std::vector<Source>> planSources(plan.dims.size());
  for (unsigned p = 0; p < followers.size(); ++p) {
    std::optional<MapSpace::SplitShape> shape = space.splitShape(p);
    if (!shape)
      continue;
    auto position = std::find(plan.dims.begin(), plan.dims.end(), shape->dim);
    if (position == plan.dims.end())
      continue;
    const std::vector<MapSpace::FactorSlot> &slots =
        space.factorSlots(shape->dim);
    for (unsigned k = 0; k < slots.size(); ++k)
      if (slots[k].level == level && slots[k].kind == axis) {
        const unsigned at = unsigned(position - plan.dims.begin());
        std::vector<unsigned> copies;
        for (const std::vector<int64_t> &spread : plan.spreads)
          copies.push_back(valuation(spread[at], shape->prime));
        followers[p].governed.push_back(
            {k, planIndex, overflowSlot(slots, level), std::move(copies)});
        planSources[at].push_back({p, k, shape->prime});
      }
  }
  list.push_back(std::move(plan));
  byValue.push_back(std::move(sorted));
  sources.push_back(std::move(planSources));
}

void LevelSpreads::claim(unsigned parameter, const int64_t *chosen,
                         unsigned *counts) const {
  const Follower &follower = followers[parameter];
  unsigned want[3 * CostModel::kMaxLevels];
  static_assert(3 * CostModel::kMaxLevels <= 64, "a slot per bit");
  // Bit k: slot k holds what a chosen spread gives it.
  uint64_t claimed = 0;
  unsigned left = follower.copies;
  for (const GovernedSlot &g : follower.governed) {
    if (chosen[g.plan] == list[g.plan].copiesDecide())
      continue;
    want[g.slot] = std::min(g.copies[size_t(chosen[g.plan])], left);
    left -= want[g.slot];
    claimed |= uint64_t(1) << g.slot;
  }
  if (!claimed)
    return;
  auto claims = [&](unsigned slot) { return (claimed >> slot & 1) != 0; };
  for (const GovernedSlot &g : follower.governed) {
    const unsigned k = g.slot;
    if (!claims(k) || counts[k] <= want[k] || g.overflowTo < 0)
      continue;
    counts[g.overflowTo] += counts[k] - want[k];
    counts[k] = want[k];
  }
  // Copies a slot lacks come from the slots no plan claims, outermost first.
  for (const GovernedSlot &g : follower.governed) {
    const unsigned k = g.slot;
    if (!claims(k))
      continue;
    for (unsigned j = follower.slotCount; j-- > 0 && counts[k] < want[k];) {
      if (claims(j))
        continue;
      const unsigned moved = std::min(counts[j], want[k] - counts[k]);
      counts[j] -= moved;
      counts[k] += moved;
    }
  }
}

void LevelSpreads::read(const int64_t *values, int64_t *chosen) const {
  unsigned counts[3 * CostModel::kMaxLevels];
  int64_t spread[CostModel::kMaxDims];
  for (size_t i = 0; i < list.size(); ++i) {
    const size_t dims = list[i].dims.size();
    std::fill(spread, spread + dims, int64_t(1));
    for (size_t at = 0; at < dims; ++at)
      for (const Source &source : sources[i][at]) {
        space.unrankSplit(source.parameter, values[source.parameter], counts);
        for (unsigned c = 0; c < counts[source.slot]; ++c)
          spread[at] = saturatingMul(spread[at], source.prime);
      }
    const std::vector<std::vector<int64_t>> &spreads = list[i].spreads;
    auto below = [&](int64_t index, const int64_t *value) {
      return std::lexicographical_compare(spreads[size_t(index)].begin(),
                                          spreads[size_t(index)].end(), value,
                                          value + dims);
    };
    auto found =
        std::lower_bound(byValue[i].begin(), byValue[i].end(), spread, below);
    chosen[i] =
        found != byValue[i].end() && std::equal(spread, spread + dims,
                                                spreads[size_t(*found)].begin())
            ? *found
            : list[i].copiesDecide();
  }
}

} // namespace marlmap
