//===- Mapping.h - How a problem is laid onto an accelerator ----*- C++ -*-===//
//
// The representation Timeloop, CoSA and ZigZag share: for every storage
// level, temporal tile factors with a loop order, spatial factors over the
// array's X and Y, and which operands the level keeps. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_MAPPING_H
#define MARLMAP_CORE_MAPPING_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// What one storage level does. All per-dim vectors have one entry per
/// problem dim.
struct LevelMapping {
  /// Factors iterated in time at this level.
  std::vector<int64_t> temporal;
  /// The temporal loops, outermost first: a permutation of the dims.
  std::vector<unsigned> order;
  /// Factors spread over this level's children along X and Y.
  std::vector<int64_t> spatialX;
  std::vector<int64_t> spatialY;
  /// Per problem operand: whether this level stores it.
  std::vector<bool> keep;

  /// All factors 1, identity order, keeps nothing.
  static LevelMapping identity(unsigned numDims, unsigned numOperands);
  int64_t spreadX() const;
  int64_t spreadY() const;
};

/// One LevelMapping per storage level, innermost first (as Arch::levels).
struct Mapping {
  std::vector<LevelMapping> levels;

  /// Everything temporal at the outermost level, every operand kept
  /// wherever the arch allows: always fits the fanout, rarely the capacity.
  static Mapping outermostOnly(const Problem &problem, const Arch &arch);
};

bool operator==(const LevelMapping &a, const LevelMapping &b);
bool operator==(const Mapping &a, const Mapping &b);

/// Whether `mapping` has `numLevels` levels, each with one entry per loop
/// and operand, a permutation of the loops as its order and positive
/// factors: what code that reads a mapping's entries by index needs.
/// Products, fanouts and constraints are checkMappingShape's.
bool isWellFormed(const Mapping &mapping, size_t numLevels, size_t numDims,
                  size_t numOperands);

/// The product of loop `dim`'s factors over every level, or kSaturated.
int64_t factorProduct(const Mapping &mapping, unsigned dim);

/// One loop of a dim in the nest: a level's temporal, or spatial factor.
struct DimLoop {
  enum Kind : uint8_t { Temporal, SpatialY, SpatialX };
  unsigned level;
  Kind kind;
  int64_t factor;
  /// Its iterations under the last tiles of the loops outside it (its
  /// residual): `factor` unless its tile is partial there.
  int64_t lastRun;
  /// "temporal", "spatial_y" or "spatial_x", as `#accel.level` spells it.
  const char *kindName() const;
};

/// Loop `dim`'s loops from the outermost in, as the nest runs them: each
/// level's temporal loop, then its spatial loops along Y and X (factors of
/// 1 included). The last runs are the factors when the factors do not
/// cover the bound.
std::vector<DimLoop> loopsOnDim(const Mapping &mapping, const Problem &problem,
                                unsigned dim);

/// Whether loop `dim`'s factors cover its bound: their product reaches it,
/// and no loop has more iterations than its first tile needs (the last
/// tile of a loop may be partial: a factor need not divide); what is wrong
/// if they do not. The mapping must be well formed.
llvm::Error checkFactorCover(const Mapping &mapping, const Problem &problem,
                             const Arch &arch, unsigned dim);

/// Whether some loop's factors do not multiply to its bound exactly: its
/// last tiles are partial.
bool hasImperfectFactors(const Mapping &mapping, const Problem &problem);

/// What makes `mapping` structurally unfit for `problem` on `arch`: level
/// count, vector sizes, factors that do not cover their loop
/// (checkFactorCover), permutations, fanout, keeps that a
/// level may not hold, an outermost level that drops an operand, and then
/// the arch's constraints it breaks (LoopConstraints.h). One message each;
/// empty when it fits. Capacity is the map space's concern.
std::vector<std::string> checkMappingShape(const Mapping &mapping,
                                           const Problem &problem,
                                           const Arch &arch);

} // namespace marlmap

#endif // MARLMAP_CORE_MAPPING_H
