//===- MapSpace.h - Mappings as discrete decision parameters ----*- C++ -*-===//
//
// Turns (problem, arch, constraints) into an ordered list of discrete
// parameters that a searcher chooses, and back into mappings:
//  - per loop dim and prime of its bound, how the prime's power is split over
//    the slots (each level's temporal loop, and its X and Y fanout): one
//    choice per composition of the exponent;
//  - per level, its loop order (a permutation, by its Lehmer code);
//  - per level and operand the level may hold (except the outermost), keep
//    or bypass;
//  - per level whose dims go along X or Y but not both, and dim that may
//    go either way, the axis.
// The accelerator's constraints shape the space (LoopConstraints.h): what
// they fix is not a parameter, and a factor above its largest allowed gives
// the excess to another loop, so every point obeys them.
// By default only perfect factorizations are in the space; the imperfect
// spaces (FactorSpace) give each free loop a factor parameter instead of the
// prime splits (docs/MapSpace.md). Every parameter vector decodes to a
// mapping; the ones that overflow a fanout or a capacity are invalid, and a
// search pays for them like any other sample.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_MAPSPACE_H
#define MARLMAP_CORE_MAPSPACE_H

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/LoopConstraints.h"
#include "marlmap/Core/Random.h"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace marlmap {

/// Which factors a loop may take.
enum class FactorSpace : uint8_t {
  /// Each loop's factors divide its bound: every tile is whole.
  Perfect,
  /// A spatial factor need not divide: the last step of a loop spread over
  /// the array may leave PEs idle. Temporal factors divide what is left.
  SpatialImperfect,
  /// Any factor: the last tile of every loop may be partial.
  Imperfect,
};
/// Every factor space, the smallest first.
inline constexpr FactorSpace kFactorSpaces[] = {FactorSpace::Perfect,
                                                FactorSpace::SpatialImperfect,
                                                FactorSpace::Imperfect};
/// "perfect", "spatial-imperfect", "imperfect".
const char *factorSpaceName(FactorSpace space);
std::optional<FactorSpace> parseFactorSpace(std::string_view name);

struct Parameter {
  /// Factor: a prime's copies over a dim's slots (the perfect space);
  /// LoopFactor: one loop's factor (the imperfect spaces).
  enum class Kind { Factor, LoopFactor, Order, Keep, Axis };
  Kind kind;
  /// "P^2 split", "P x factor@GlobalBuffer", "order@GlobalBuffer",
  /// "keep Inputs@GlobalBuffer", "axis K@GlobalBuffer".
  std::string name;
  int64_t choices = 1;
};

class MapSpace {
public:
  /// The space under the arch's constraints and `constraints` on top, or
  /// why there is none (constraints that contradict the problem or the arch
  /// or leave no mapping that fits, a space too large to index).
  static llvm::Expected<std::unique_ptr<MapSpace>>
  create(Problem problem, Arch arch, const Constraints &constraints,
         FactorSpace factors = FactorSpace::Perfect);

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
  /// The point whose mapping is nearest `mapping` (which need not be in the
  /// space: another constraint's, another problem's recast with
  /// transferMapping): every prime's copies where `mapping` puts them when
  /// the space offers that slot (the rest on the outermost temporal slot it
  /// offers, any excess taken from the fullest), the free loops in
  /// `mapping`'s order, its keeps and axes. The same as encode when encode
  /// succeeds; nullopt when `mapping`'s shape is not this problem's on this
  /// arch.
  std::optional<std::vector<int64_t>>
  encodeNearest(const Mapping &mapping) const;

  /// For a factor parameter: how many copies of its prime it places and
  /// over how many slots (slot k is factorSlots(dim)[k]); nullopt for other
  /// parameters.
  struct SplitShape {
    unsigned copies;
    unsigned slots;
    unsigned dim;
    int64_t prime;
  };
  std::optional<SplitShape> splitShape(unsigned parameter) const;
  /// The value of factor parameter `parameter` that puts `counts[k]` copies
  /// in its slot k (the counts add up to its copies).
  int64_t rankSplit(unsigned parameter, const unsigned *counts) const;
  /// The copies in each slot of factor parameter `parameter` at `value`
  /// (rankSplit's inverse).
  void unrankSplit(unsigned parameter, int64_t value, unsigned *counts) const;

  /// Makes `values` spread within every fanout: while a level's spread
  /// along X or Y exceeds its fanout, the smallest prime placed there moves
  /// to that level's temporal loop (or the outermost temporal loop its
  /// split offers), the latest parameter's first. True when anything moved.
  /// A point that overflows a capacity stays invalid.
  bool fitSpread(int64_t *values) const;

  /// Uniform over parameter vectors.
  void sample(Rng &rng, int64_t *values) const;
  /// Visits every parameter vector in order while `visit` returns true.
  /// Refuses (returns false, visits nothing) above `limit` points.
  bool enumerate(
      int64_t limit,
      const std::function<bool(const std::vector<int64_t> &)> &visit) const;

  /// Why `mapping` is invalid (shape, fanout, capacity), if it is.
  llvm::Error checkMapping(const Mapping &mapping) const;

  FactorSpace factorSpace() const { return factors; }
  const Problem &problem() const { return problemValue; }
  const Arch &arch() const { return archValue; }
  const CostModel &model() const { return costModel; }

  /// The space's structure, for searchers that build mappings level by
  /// level instead of drawing parameters (the exact searcher), in the
  /// perfect space only: every point
  /// decodes to `fixedChoices()` with each dim's free factor (its bound over
  /// its fixed factors) shared among its factorSlots (no slot above its
  /// largestFactor), a permutation of each level's orderedLoops in front of
  /// its fixed innermost loops, and the free keeps chosen; and every such
  /// mapping is a point (encode finds it).
  struct FactorSlot {
    unsigned level;
    /// 0 temporal, 1 X, 2 Y, 3 X or Y (an axis parameter picks).
    unsigned kind;
  };
  const std::vector<FactorSlot> &factorSlots(unsigned dim) const {
    return dimSlots[dim];
  }
  /// The largest factor of `dim` at `level`'s temporal loop (kind 0), X (1)
  /// or Y (2), fixed factors included; 0 when any.
  int64_t largestFactor(unsigned level, unsigned kind, unsigned dim) const;
  /// Fixed factors, fixed orders and fixed keeps in place; the rest 1,
  /// identity and bypass.
  const Mapping &fixedChoices() const { return base; }
  /// The loops a level's order parameter permutes (outside its fixed
  /// innermost loops); empty when the order is fixed.
  const std::vector<unsigned> &orderedLoops(unsigned level) const {
    return orderFree[level];
  }
  /// Whether a keep parameter chooses whether `level` keeps `operand`.
  bool keepIsFree(unsigned level, unsigned operand) const;

private:
  MapSpace(Problem problem, Arch arch);

  /// Where a prime's power can go: level `level`, temporal (0), X (1), Y
  /// (2), or the axis an Axis parameter picks (3).
  struct Slot {
    unsigned level;
    unsigned kind;
  };
  /// A largest factor, and the loop that takes what exceeds it.
  struct Cap {
    unsigned dim;
    Slot slot;
    int64_t most;
    Slot spill;
  };
  /// The prime `prime` of dim `dim`: `free` copies spread over `slots`;
  /// fixed factors already placed their share.
  struct Split {
    unsigned dim;
    int64_t prime;
    unsigned free;
    std::vector<Slot> slots;
    /// Its parameter, and its slots that spread (kind 1 to 3).
    unsigned parameter;
    std::vector<unsigned> spatial;
    /// Decoding is every sample's first step: when the split has few
    /// enough values, each value's copies per slot (slots.size() per
    /// value), and prime^k for every k up to `free`.
    std::vector<uint8_t> slotCopies;
    std::vector<int64_t> powers;
  };

  /// Builds the space: the sizes checked, the base mapping, then the
  /// parameters (factors, orders, keeps, axes), or why it cannot be built.
  llvm::Error build(const Constraints &constraints);
  llvm::Error checkSizes(const Constraints &constraints) const;
  /// The base mapping (fixed choices in place, free factors at 1) and the
  /// loops each level leaves to order.
  llvm::Error buildBase(const Constraints &constraints);
  void addParam(Parameter param, int level, int operand);
  /// Per dim: the fixed factors checked, the slots its free factors may
  /// take, its caps' spills, then one Factor parameter per prime.
  llvm::Error addFactorParams(const Constraints &constraints);
  /// Whether dim `d`'s fixed factors divide its bound and respect its
  /// level's axes and caps; their product into `fixedProduct`.
  llvm::Error checkFixedFactors(const Constraints &constraints, unsigned d,
                                int64_t &fixedProduct) const;
  /// Where dim `d`'s free factors may go, outermost last; its largest
  /// factors into `dimCaps`, and the axis parameters it needs marked.
  std::vector<Slot> factorSlots(const Constraints &constraints, unsigned d,
                                std::vector<Cap> &dimCaps);
  /// Gives each of `dimCaps` the slot that takes what exceeds it.
  llvm::Error spillCaps(unsigned d, const std::vector<Slot> &slots,
                        std::vector<Cap> &dimCaps);
  /// One Factor parameter per prime of dim `d` with copies left to place.
  llvm::Error addSplits(unsigned d, const std::vector<Slot> &slots);
  llvm::Error addKeepParams(const Constraints &constraints);
  void addAxisParams();
  llvm::Error checkSomeMappingFits();
  void decodeSplit(const Split &split, int64_t index, unsigned *counts) const;
  /// decodeSplit, from the split's table when it has one.
  void splitCounts(const Split &split, int64_t index, unsigned *counts) const;
  /// Fills `split`'s decoding tables (slotCopies, powers).
  void tabulateSplit(Split &split) const;
  /// The slot's kind with a kind-3 slot's axis read from `values`: 0
  /// temporal, 1 X, 2 Y.
  unsigned kindOf(Slot slot, unsigned dim, const int64_t *values) const;
  /// The factor of `dim` at `slot` in `mapping`; `values` pick the axis of
  /// a kind-3 slot.
  int64_t &factorAt(Mapping &mapping, Slot slot, unsigned dim,
                    const int64_t *values) const;
  int64_t compositions(unsigned items, unsigned bins) const;

  /// One free loop of a dim in the imperfect spaces: its parameter picks
  /// a candidate factor, and the loop takes it, or what is left to cover
  /// when that is less.
  struct Rung {
    Slot slot;
    unsigned parameter;
    /// Ascending, 1 first; every divisor of the bound within the loop's
    /// limit is one.
    std::vector<int64_t> candidates;
    /// A temporal loop of the spatial-imperfect space: it takes the largest
    /// candidate up to the chosen one that divides what is left.
    bool divides;
    /// The factor for parameter value `value` when `left` tiles are left.
    int64_t factorFor(int64_t value, int64_t left) const;
  };
  /// A dim's free loops from the innermost out, and the one that covers
  /// what the others leave.
  struct Ladder {
    unsigned dim;
    std::vector<Rung> rungs;
    Slot absorber;
  };
  /// One LoopFactor parameter per slot of dim `d` but its absorber (the
  /// outermost uncapped temporal slot), each within its slot's fanout and
  /// cap.
  llvm::Error addLadder(unsigned d, const std::vector<Slot> &slots,
                        const std::vector<Cap> &dimCaps);
  /// The factor of each of `ladder`'s rungs at `values`, then its
  /// absorber's.
  void ladderFactors(const Ladder &ladder, const int64_t *values,
                     int64_t *factors) const;
  void decodeLadders(const int64_t *values, Mapping &mapping) const;
  /// The LoopFactor values nearest `mapping`'s factors (axes already set).
  void encodeLadders(const Mapping &mapping, int64_t *values) const;
  /// fitSpread in the imperfect spaces: the widest factor on an
  /// overflowing axis shrinks to what fits, and the loops outside take
  /// the rest.
  bool fitLadders(int64_t *values) const;

  FactorSpace factors = FactorSpace::Perfect;
  Problem problemValue;
  Arch archValue;
  CostModel costModel;
  std::vector<Parameter> params;
  /// What each Factor parameter shares out (paramSplit indexes it).
  std::vector<Split> splits;
  /// The imperfect spaces' dims (paramSplit indexes them for LoopFactor).
  std::vector<Ladder> ladders;
  /// Parallel to params: its split (Factor) or ladder (LoopFactor), level
  /// (LoopFactor, Order, Keep, Axis), and operand (Keep) or loop
  /// (LoopFactor, Axis); -1 where it has none.
  std::vector<int> paramSplit, paramLevel, paramOperand;
  /// Per level: the loops an Order parameter permutes (the others are its
  /// fixed innermost loops, already in `base`).
  std::vector<std::vector<unsigned>> orderFree;
  /// Axis parameters by level and dim (-1: none).
  std::vector<int> axisParam;
  std::vector<Cap> caps;
  /// Per dim, the slots its free factors may take.
  std::vector<std::vector<FactorSlot>> dimSlots;
  /// Per level, the spread along X and Y of the fixed factors.
  std::vector<std::array<int64_t, 2>> fixedSpreads;
  /// The mapping every decode starts from: fixed factors, fixed orders and
  /// fixed keeps in place, all free factors 1.
  Mapping base;
};

} // namespace marlmap

#endif // MARLMAP_CORE_MAPSPACE_H
