//===- Decisions.h - The map space as small categorical choices -*- C++ -*-===//
//
// Learning searchers choose among few options at a time: a factor split
// with many compositions becomes one decision per copy of its prime ("which
// slot does this 2 go to"), a loop order with many permutations one decision
// per Lehmer digit, a loop factor with many candidates (the imperfect
// spaces) two digits of its candidate's index, coarse then fine. Small
// parameters stay single decisions.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_DECISIONS_H
#define MARLMAP_SEARCH_DECISIONS_H

#include "marlmap/Core/MapSpace.h"

#include <string>
#include <vector>

namespace marlmap {

struct Decision {
  std::string name;
  int64_t choices;
  /// The map-space parameter it sets (part of).
  unsigned parameter;
};

class DecisionSpace {
public:
  /// Parameters with more than `maxChoices` choices are split up.
  explicit DecisionSpace(const MapSpace &space, int64_t maxChoices = 64);

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
  const MapSpace &space;
  /// A Digits parameter's value is high * radix + low.
  int64_t radix;
  std::vector<Decision> list;
  std::vector<ParameterPlan> plans;
};

} // namespace marlmap

#endif // MARLMAP_SEARCH_DECISIONS_H
