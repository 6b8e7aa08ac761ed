//===- OptimalDominance.h - Partial mappings another one beats -*- C++ -*-===//
//
// The exact searcher's walk (OptimalTree.cpp) decides levels from the
// outermost inwards. Two partial mappings decided down to the same level
// leave the same problem to the levels under it when they keep the same
// operands, spread the same factors at the same levels, and give each
// (simple) operand kept under it the same product of the decided loops it
// refetches for: the model's figures under that level, and the words
// the decided levels exchange with them, are then the same for every
// completion, and only the decided figures differ. One whose decided
// figures are no lower anywhere than another's has no better completion
// (docs/Search.md, "Why each cut is safe").
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_SEARCH_OPTIMALDOMINANCE_H
#define MARLMAP_LIB_SEARCH_OPTIMALDOMINANCE_H

#include "OptimalBound.h"

#include <unordered_map>

namespace marlmap {

/// One searcher's: it remembers the partial mappings it has seen; do not
/// share one between threads.
class Dominance {
public:
  /// `bounds` tells which operands are simple and what they depend on;
  /// past `remember` remembered figures, nothing more is remembered (and
  /// less is pruned): about 450 bytes each with their states.
  Dominance(const MapSpace &space, const PartialBound &bounds,
            Objective objective, size_t remember);

  /// Whether a partial mapping seen before leaves the same problem below
  /// and has decided figures no higher than `partial`'s (levels `decided`
  /// and up decided, the others at their fixed factors, `remaining` of each
  /// dim's free factor left for them). If not, remembers `partial`.
  /// `simplest`: the model's evaluation of simplestCompletion, when the
  /// caller has it.
  bool dominated(const Mapping &partial, const int64_t *remaining,
                 unsigned decided, const Evaluation *simplest = nullptr);

  /// Forgets every partial mapping seen.
  void forget() {
    seen.clear();
    remembered = 0;
  }

  /// What the levels under `decided` see of `partial`'s levels `decided`
  /// and up: two mappings with the same state get the same counts under
  /// them, and the same reads and updates from decided levels into them.
  /// Null when a window operand is kept under the cut (its counts may read
  /// the decided loops' whole walk): such nodes are never merged.
  const std::vector<int64_t> *
  stateOf(const Mapping &partial, const int64_t *remaining, unsigned decided);

private:
  struct KeyHash {
    size_t operator()(const std::vector<int64_t> &key) const;
  };

  /// The figures the objective reads that decided levels fix, on `partial`'s
  /// simplest completion; false when the model does not take it.
  bool decidedFigures(const Mapping &partial, const int64_t *remaining,
                      unsigned decided, const Evaluation *simplest);

  const MapSpace &space;
  const PartialBound &bounds;
  Objective objective;
  const size_t remember;
  size_t remembered = 0;
  std::unordered_map<std::vector<int64_t>, std::vector<std::vector<double>>,
                     KeyHash>
      seen;
  /// Scratch reused by every call.
  std::vector<int64_t> key;
  std::vector<unsigned> simpleBelow;
  std::vector<double> figures;
  Mapping completion;
  Evaluation evaluation;
};

} // namespace marlmap

#endif // MARLMAP_LIB_SEARCH_OPTIMALDOMINANCE_H
