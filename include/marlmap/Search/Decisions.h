//===- Decisions.h - The map space as small categorical choices -*- C++ -*-===//
//
// Learning searchers choose among few options at a time: a factor split
// with many compositions becomes one decision per copy of its prime ("which
// slot does this 2 go to"), a loop order with many permutations one decision
// per Lehmer digit, a loop factor with many candidates (the imperfect
// spaces) two digits of its candidate's index, coarse then fine. Small
// parameters stay single decisions. In the perfect space each level's spread
// along each axis is one decision more (LevelSpreads.h): a whole spread
// changes in one choice, and the copies follow it.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_DECISIONS_H
#define MARLMAP_SEARCH_DECISIONS_H

#include "marlmap/Core/MapSpace.h"

#include <memory>
#include <string>
#include <vector>

namespace marlmap {

class LevelSpreads;

struct Decision {
  std::string name;
  int64_t choices;
  /// The map-space parameter it sets (part of); 0 for a level's spread,
  /// which sets part of several.
  unsigned parameter;
};

class DecisionSpace {
public:
  /// Parameters with more than `maxChoices` choices are split up. With
  /// `levelSpreads` (perfect spaces), each level's spread along each axis is
  /// one more decision (LevelSpreads), which the copies of the primes follow
  /// unless it leaves them to decide.
  explicit DecisionSpace(const MapSpace &space, int64_t maxChoices = 64,
                         bool levelSpreads = true);
  DecisionSpace(DecisionSpace &&);
  ~DecisionSpace();

  const std::vector<Decision> &decisions() const { return list; }
  /// The map space's parameter values for decision values.
  void toParameters(const int64_t *decisionValues, int64_t *values) const;
  /// Decision values for the map space's parameter values (a split's copies
  /// in slot order): toParameters of them gives `values` back.
  void fromParameters(const int64_t *values, int64_t *decisionValues) const;

  /// Fits `values`, the map space's parameters for `decisionValues`, into
  /// every fanout (MapSpace::fitSpread) and moves the decisions to match:
  /// the copies of a prime that stay keep theirs. True when any moved.
  bool fitSpread(int64_t *decisionValues, int64_t *values) const;

private:
  enum class Split { Whole, Copies, Lehmer, Digits };
  struct ParameterPlan {
    Split split;
    unsigned firstDecision, numDecisions;
  };
  /// At most an X and a Y spread per level.
  static constexpr unsigned kMostSpreadPlans = 2 * CostModel::kMaxLevels;
  /// Each spread plan's index in `decisionValues` into `chosen`.
  void chosenSpreads(const int64_t *decisionValues, int64_t *chosen) const;
  /// The spread decisions for the parameter values `values`.
  void spreadsFrom(const int64_t *values, int64_t *decisionValues) const;

  const MapSpace &space;
  /// A Digits parameter's value is high * radix + low.
  int64_t radix;
  std::vector<Decision> list;
  std::vector<ParameterPlan> plans;
  /// The spreads, and each plan's decisions (one, or two digits), after
  /// the parameters'.
  std::unique_ptr<LevelSpreads> spreads;
  std::vector<ParameterPlan> spreadPlans;
};

} // namespace marlmap

#endif // MARLMAP_SEARCH_DECISIONS_H
