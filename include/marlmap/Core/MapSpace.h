//===- MapSpace.h - Mappings as discrete decision parameters ----*- C++ -*-===//
//
// Turns (problem, arch, constraints) into an ordered list of discrete
// parameters that a searcher chooses, and back into mappings:
//  - per loop dim and prime of its bound, how the prime's power is split over
//    the slots (each level's temporal loop, and its X and Y fanout): one
//    choice per composition of the exponent;
//  - per level, its loop order (a permutation, by its Lehmer code);
//  - per level and operand the level may hold (except the outermost), keep
//    or bypass.
// Only perfect factorizations are in the space (docs/MapSpace.md). Every
// parameter vector decodes to a mapping; the ones that overflow a fanout or
// a capacity are invalid, and a search pays for them like any other sample.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_MAPSPACE_H
#define MARLMAP_CORE_MAPSPACE_H

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Random.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// What a user fixes at one level. Dims and operands are indices into the
/// problem.
struct LevelConstraints {
  /// Fixed factors per dim.
  std::map<unsigned, int64_t> temporal, spatialX, spatialY;
  /// A fixed loop order, outermost first.
  std::optional<std::vector<unsigned>> order;
  /// Dims allowed along X / Y (e.g. a weight-stationary array puts K on X
  /// and C on Y); absent means any dim.
  std::optional<std::vector<unsigned>> spatialXDims, spatialYDims;
  /// Operands fixed as kept (true) or bypassed (false).
  std::map<unsigned, bool> keep;
};

struct Constraints {
  /// One entry per storage level (missing entries constrain nothing).
  std::vector<LevelConstraints> levels;
};

struct Parameter {
  enum class Kind { Factor, Order, Keep };
  Kind kind;
  /// "P^2 split", "order@GlobalBuffer", "keep Inputs@GlobalBuffer".
  std::string name;
  int64_t choices = 1;
};

class MapSpace {
public:
  /// The space, or nullptr with the reason in `error` (constraints that
  /// contradict the problem or the arch, a space too large to index).
  static std::unique_ptr<MapSpace> create(Problem problem, Arch arch,
                                          const Constraints &constraints,
                                          std::string &error);

  MapSpace(const MapSpace &) = delete;
  MapSpace &operator=(const MapSpace &) = delete;

  const std::vector<Parameter> &parameters() const { return params; }
  /// log10 of the number of parameter vectors.
  double log10Size() const;

  /// The mapping for `values` (one per parameter, each in [0, choices)).
  /// Reuses `mapping`'s storage.
  void decode(const int64_t *values, Mapping &mapping) const;
  Mapping decode(const std::vector<int64_t> &values) const;
  /// The parameter values of `mapping`, or nullopt when the space cannot
  /// express it (a factor it does not offer, a constraint it breaks).
  std::optional<std::vector<int64_t>> encode(const Mapping &mapping) const;

  /// For a factor parameter: how many copies of its prime it places and
  /// over how many slots; nullopt for other parameters.
  struct SplitShape {
    unsigned copies;
    unsigned slots;
  };
  std::optional<SplitShape> splitShape(unsigned parameter) const;
  /// The value of factor parameter `parameter` that puts `counts[k]` copies
  /// in its slot k (the counts add up to its copies).
  int64_t rankSplit(unsigned parameter, const unsigned *counts) const;

  /// Uniform over parameter vectors.
  void sample(Rng &rng, int64_t *values) const;
  /// Visits every parameter vector in order while `visit` returns true.
  /// Refuses (returns false, visits nothing) above `limit` points.
  bool enumerate(
      int64_t limit,
      const std::function<bool(const std::vector<int64_t> &)> &visit) const;

  /// Why `mapping` is invalid (shape, fanout, capacity), or nullopt.
  std::optional<std::string> whyInvalid(const Mapping &mapping) const;

  const Problem &problem() const { return problemValue; }
  const Arch &arch() const { return archValue; }
  const CostModel &model() const { return costModel; }

private:
  MapSpace(Problem problem, Arch arch);

  /// Where a prime's power can go: level `level`, temporal (0), X (1), Y (2).
  struct Slot {
    unsigned level;
    unsigned kind;
  };
  /// The prime `prime` of dim `dim`: `free` copies spread over `slots`;
  /// fixed factors already placed their share.
  struct Split {
    unsigned dim;
    int64_t prime;
    unsigned free;
    std::vector<Slot> slots;
  };

  std::string build(const Constraints &constraints);
  void decodeSplit(const Split &split, int64_t index, unsigned *counts) const;
  int64_t compositions(unsigned items, unsigned bins) const;

  Problem problemValue;
  Arch archValue;
  CostModel costModel;
  std::vector<Parameter> params;
  /// Parallel to params: the data each kind of parameter needs.
  std::vector<Split> splits;
  std::vector<int> paramSplit, paramLevel, paramOperand;
  /// The mapping every decode starts from: fixed factors, fixed orders and
  /// fixed keeps in place, all free factors 1.
  Mapping base;
};

} // namespace marlmap

#endif // MARLMAP_CORE_MAPSPACE_H
