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

LevelSpreads::LevelSpreads(const MapSpace &space, int64_t mostSpreads)
    : space(space) {
  const std::vector<Parameter> &params = space.parameters();
  governed.resize(params.size());
  followers.assign(params.size(), 0);
  for (unsigned p = 0; p < params.size(); ++p)
    if (std::optional<MapSpace::SplitShape> shape = space.splitShape(p))
      governed[p].resize(shape->slots);
  // Two-dimensional arrays only: along a line the copies did as well or
  // better (docs/Search.md, "Spreads as decisions").
  const Arch &arch = space.arch();
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    if (arch.fanoutX(l) > 1 && arch.fanoutY(l) > 1)
      for (unsigned axis : {1u, 2u})
        addPlan(l, axis, mostSpreads);
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
  std::map<std::vector<int64_t>, int64_t> index;
  for (size_t i = 0; i < plan.spreads.size(); ++i)
    index.emplace(plan.spreads[i], int64_t(i));

  const int planIndex = int(list.size());
  std::vector<std::vector<Source>> planSources(plan.dims.size());
  for (unsigned p = 0; p < governed.size(); ++p) {
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
        governed[p][k] = {planIndex, at};
        followers[p] = 1;
        planSources[at].push_back({p, k});
      }
  }
  list.push_back(std::move(plan));
  indexOf.push_back(std::move(index));
  sources.push_back(std::move(planSources));
}

void LevelSpreads::claim(unsigned parameter, const int64_t *chosen,
                         unsigned *counts) const {
  const std::vector<Governed> &slotsGoverned = governed[parameter];
  const MapSpace::SplitShape shape = *space.splitShape(parameter);
  const std::vector<MapSpace::FactorSlot> &slots = space.factorSlots(shape.dim);
  unsigned want[3 * CostModel::kMaxLevels];
  bool claims[3 * CostModel::kMaxLevels];
  unsigned left = shape.copies;
  bool any = false;
  for (unsigned k = 0; k < slots.size(); ++k) {
    const Governed &g = slotsGoverned[k];
    claims[k] = g.plan >= 0 && chosen[g.plan] != list[g.plan].copiesDecide();
    if (!claims[k])
      continue;
    const int64_t factor =
        list[g.plan].spreads[size_t(chosen[g.plan])][g.position];
    want[k] = std::min(valuation(factor, shape.prime), left);
    left -= want[k];
    any = true;
  }
  if (!any)
    return;
  // Copies beyond a slot's spread go to its level's temporal loop, else the
  // outermost temporal loop.
  int temporalAt[CostModel::kMaxLevels];
  std::fill(temporalAt, temporalAt + CostModel::kMaxLevels, -1);
  int outermostTemporal = -1;
  for (unsigned k = 0; k < slots.size(); ++k)
    if (slots[k].kind == 0)
      temporalAt[slots[k].level] = outermostTemporal = int(k);
  for (unsigned k = 0; k < slots.size(); ++k) {
    if (!claims[k] || counts[k] <= want[k])
      continue;
    const int to = temporalAt[slots[k].level] >= 0 ? temporalAt[slots[k].level]
                                                   : outermostTemporal;
    if (to < 0)
      continue;
    counts[to] += counts[k] - want[k];
    counts[k] = want[k];
  }
  // Copies a slot lacks come from the slots no plan governs, outermost first.
  for (unsigned k = 0; k < slots.size(); ++k) {
    if (!claims[k])
      continue;
    for (unsigned j = unsigned(slots.size()); j-- > 0 && counts[k] < want[k];) {
      if (claims[j])
        continue;
      const unsigned moved = std::min(counts[j], want[k] - counts[k]);
      counts[j] -= moved;
      counts[k] += moved;
    }
  }
}

void LevelSpreads::read(const int64_t *values, int64_t *chosen) const {
  unsigned counts[3 * CostModel::kMaxLevels];
  for (size_t i = 0; i < list.size(); ++i) {
    std::vector<int64_t> spread(list[i].dims.size(), 1);
    for (size_t at = 0; at < spread.size(); ++at)
      for (const Source &source : sources[i][at]) {
        space.unrankSplit(source.parameter, values[source.parameter], counts);
        const int64_t prime = space.splitShape(source.parameter)->prime;
        for (unsigned c = 0; c < counts[source.slot]; ++c)
          spread[at] = saturatingMul(spread[at], prime);
      }
    auto found = indexOf[i].find(spread);
    chosen[i] =
        found == indexOf[i].end() ? list[i].copiesDecide() : found->second;
  }
}

} // namespace marlmap
