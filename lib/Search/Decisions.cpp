//===- Decisions.cpp - The map space as small categorical choices ---------===//

#include "marlmap/Search/Decisions.h"

#include "LevelSpreads.h"

#include <algorithm>
#include <cassert>

namespace marlmap {

DecisionSpace::DecisionSpace(DecisionSpace &&) = default;
DecisionSpace::~DecisionSpace() = default;

DecisionSpace::DecisionSpace(const MapSpace &space, int64_t maxChoices,
                             bool levelSpreads)
    : space(space), radix(maxChoices) {
  const std::vector<Parameter> &params = space.parameters();
  for (unsigned p = 0; p < params.size(); ++p) {
    ParameterPlan plan{Split::Whole, unsigned(list.size()), 1};
    std::optional<MapSpace::SplitShape> shape = space.splitShape(p);
    if (params[p].choices <= maxChoices) {
      list.push_back({params[p].name, params[p].choices, p});
    } else if (shape) {
      plan.split = Split::Copies;
      plan.numDecisions = shape->copies;
      for (unsigned c = 0; c < shape->copies; ++c)
        list.push_back({params[p].name + " #" + std::to_string(c),
                        int64_t(shape->slots), p});
    } else if (params[p].kind == Parameter::Kind::LoopFactor) {
      // A candidate's index as two digits; the values past the last
      // candidate take the last.
      plan.split = Split::Digits;
      plan.numDecisions = 2;
      list.push_back({params[p].name + " #high",
                      (params[p].choices + radix - 1) / radix, p});
      list.push_back({params[p].name + " #low", radix, p});
    } else {
      // Loop orders: n! orders as digits with n, n-1, ..., 2 choices.
      unsigned n = 1;
      for (int64_t f = 1; f < params[p].choices; f *= ++n)
        ;
      plan.split = Split::Lehmer;
      plan.numDecisions = n - 1;
      for (unsigned digit = 0; digit + 1 < n; ++digit)
        list.push_back({params[p].name + " #" + std::to_string(digit),
                        int64_t(n - digit), p});
    }
    plans.push_back(plan);
  }
  if (!levelSpreads || space.factorSpace() != FactorSpace::Perfect)
    return;
  // With the copies' own choice, at most radix^2 choices: two digits.
  spreads = std::make_unique<LevelSpreads>(space, radix * radix - 1);
  assert(spreads->plans().size() <= kMostSpreadPlans &&
         "an X and a Y plan per level at most");
  for (const SpreadPlan &spread : spreads->plans()) {
    const std::string name = spreadDecisionName(space, spread);
    const int64_t size = spread.copiesDecide() + 1;
    if (size <= radix) {
      spreadPlans.push_back({Split::Whole, unsigned(list.size()), 1});
      list.push_back({name, size, 0});
      continue;
    }
    spreadPlans.push_back({Split::Digits, unsigned(list.size()), 2});
    list.push_back({name + " #high", (size + radix - 1) / radix, 0});
    list.push_back({name + " #low", radix, 0});
  }
}

void DecisionSpace::chosenSpreads(const int64_t *decisionValues,
                                  int64_t *chosen) const {
  for (size_t i = 0; i < spreadPlans.size(); ++i) {
    const int64_t *d = decisionValues + spreadPlans[i].firstDecision;
    // Two digits past the last choice wrap around: taking the last would
    // give the copies' own choice a share of the uniform draws.
    const int64_t count = spreads->plans()[i].copiesDecide() + 1;
    chosen[i] = spreadPlans[i].split == Split::Whole
                    ? d[0]
                    : (d[0] * radix + d[1]) % count;
  }
}

void DecisionSpace::spreadsFrom(const int64_t *values,
                                int64_t *decisionValues) const {
  if (!spreads)
    return;
  int64_t chosen[kMostSpreadPlans];
  spreads->read(values, chosen);
  for (size_t i = 0; i < spreadPlans.size(); ++i) {
    int64_t *d = decisionValues + spreadPlans[i].firstDecision;
    if (spreadPlans[i].split == Split::Whole) {
      d[0] = chosen[i];
    } else {
      d[0] = chosen[i] / radix;
      d[1] = chosen[i] % radix;
    }
  }
}

void DecisionSpace::toParameters(const int64_t *decisionValues,
                                 int64_t *values) const {
  unsigned counts[3 * CostModel::kMaxLevels];
  // The spreads chosen, once for every factor parameter that follows them.
  int64_t chosen[kMostSpreadPlans];
  if (spreads)
    chosenSpreads(decisionValues, chosen);
  for (unsigned p = 0; p < plans.size(); ++p) {
    const ParameterPlan &plan = plans[p];
    const int64_t *d = decisionValues + plan.firstDecision;
    const bool follows = spreads && spreads->governs(p);
    switch (plan.split) {
    case Split::Whole:
      values[p] = d[0];
      if (follows) {
        space.unrankSplit(p, values[p], counts);
        spreads->claim(p, chosen, counts);
        values[p] = space.rankSplit(p, counts);
      }
      break;
    case Split::Copies: {
      unsigned slots = unsigned(list[plan.firstDecision].choices);
      std::fill(counts, counts + slots, 0u);
      for (unsigned c = 0; c < plan.numDecisions; ++c)
        ++counts[d[c]];
      if (follows)
        spreads->claim(p, chosen, counts);
      values[p] = space.rankSplit(p, counts);
      break;
    }
    case Split::Digits:
      values[p] =
          std::min(d[0] * radix + d[1], space.parameters()[p].choices - 1);
      break;
    case Split::Lehmer: {
      int64_t value = 0, weight = 1;
      // Digit k weighs (n-1-k)!; build from the last digit up.
      for (unsigned k = plan.numDecisions; k-- > 0;) {
        value += d[k] * weight;
        weight *= int64_t(plan.numDecisions - k + 1);
      }
      values[p] = value;
      break;
    }
    }
  }
}

bool DecisionSpace::fitSpread(int64_t *decisionValues, int64_t *values) const {
  if (!space.fitSpread(values))
    return false;
  unsigned had[3 * CostModel::kMaxLevels], wanted[3 * CostModel::kMaxLevels];
  for (unsigned p = 0; p < plans.size(); ++p) {
    const ParameterPlan &plan = plans[p];
    int64_t *d = decisionValues + plan.firstDecision;
    if (plan.split == Split::Whole) {
      d[0] = values[p];
      continue;
    }
    if (plan.split == Split::Digits) {
      d[0] = values[p] / radix;
      d[1] = values[p] % radix;
      continue;
    }
    if (plan.split != Split::Copies)
      continue;
    // A split's copies: those in a slot that lost some move, the last first,
    // to the slots that gained.
    const unsigned slots = unsigned(list[plan.firstDecision].choices);
    std::fill(had, had + slots, 0u);
    for (unsigned c = 0; c < plan.numDecisions; ++c)
      ++had[d[c]];
    space.unrankSplit(p, values[p], wanted);
    for (unsigned c = plan.numDecisions; c-- > 0;) {
      const unsigned from = unsigned(d[c]);
      if (had[from] <= wanted[from])
        continue;
      unsigned to = 0;
      while (had[to] >= wanted[to])
        ++to;
      d[c] = to;
      --had[from];
      ++had[to];
    }
  }
  spreadsFrom(values, decisionValues);
  return true;
}

void DecisionSpace::fromParameters(const int64_t *values,
                                   int64_t *decisionValues) const {
  unsigned counts[3 * CostModel::kMaxLevels];
  for (unsigned p = 0; p < plans.size(); ++p) {
    const ParameterPlan &plan = plans[p];
    int64_t *d = decisionValues + plan.firstDecision;
    switch (plan.split) {
    case Split::Whole:
      d[0] = values[p];
      break;
    case Split::Copies: {
      space.unrankSplit(p, values[p], counts);
      unsigned copy = 0;
      for (unsigned slot = 0; copy < plan.numDecisions; ++slot)
        for (unsigned c = 0; c < counts[slot]; ++c)
          d[copy++] = slot;
      break;
    }
    case Split::Digits:
      d[0] = values[p] / radix;
      d[1] = values[p] % radix;
      break;
    case Split::Lehmer: {
      // Digit k weighs (n-1-k)!, n - 1 = numDecisions.
      int64_t value = values[p];
      for (unsigned k = 0; k < plan.numDecisions; ++k) {
        int64_t weight = 1;
        for (unsigned f = 2; f <= plan.numDecisions - k; ++f)
          weight *= f;
        d[k] = value / weight;
        value %= weight;
      }
      break;
    }
    }
  }
  spreadsFrom(values, decisionValues);
}

} // namespace marlmap
