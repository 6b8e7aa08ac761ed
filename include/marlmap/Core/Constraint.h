//===- Constraint.h - What an accelerator's dataflow allows -----*- C++ -*-===//
//
// A hardware description states, per storage level, the part of the map
// space its hardware can run: fixed or largest factors, loop orders, the
// dims allowed along the array's X and Y, and the tensors kept or bypassed.
// Constraints name loop dims problem-independently (N, K, C, P, Q, R, S, G:
// the convolution names Timeloop uses), so that one description serves every
// op of a network; DimNames.h says which loop of a problem answers to which
// name. docs/Constraints.md is the user's view. Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_CONSTRAINT_H
#define MARLMAP_CORE_CONSTRAINT_H

#include "marlmap/Core/Roles.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace marlmap {

/// The name a loop dim answers to, by the operands that read it: batch N,
/// output channels K, input channels (or any other reduction) C, output
/// columns P and rows Q, filter columns R and rows S, groups G.
enum class DimName : uint8_t { N, K, C, P, Q, R, S, G };
constexpr unsigned kNumDimNames = 8;
const char *dimNameSpelling(DimName name);
std::optional<DimName> parseDimName(std::string_view text);

/// What kind of op a problem is, for constraints that differ by kind.
enum class OpKind : uint8_t { Conv, Depthwise, Gemm, Other };
constexpr unsigned kNumOpKinds = 4;
const char *opKindSpelling(OpKind kind);
std::optional<OpKind> parseOpKind(std::string_view text);

/// One dim's factor at one place (a level's temporal loop, or its X or Y).
struct FactorRule {
  enum class Bound : uint8_t {
    /// Exactly `value`.
    Exact,
    /// At most `value`.
    AtMost,
    /// The dim's whole bound, so that it iterates nowhere else (Timeloop's
    /// factor 0).
    Full,
  };
  DimName dim = DimName::N;
  Bound bound = Bound::Exact;
  int64_t value = 1;
  /// "K = 4", "K max 4", "K = full" (MLIR's attribute syntax keeps `<` for
  /// brackets).
  std::string str() const;
};

/// What one storage level's hardware allows. Every field left empty allows
/// anything.
struct Constraint {
  /// The storage level it constrains.
  std::string level;
  /// The op kinds it is for; empty means every kind that has no constraint
  /// of its own at this level.
  std::vector<OpKind> ops;
  std::vector<FactorRule> temporal, spatialX, spatialY;
  /// The level's loop order, outermost first. When it names only some dims,
  /// those are the innermost loops, in this order, and the others go
  /// outside them in any order.
  std::optional<std::vector<DimName>> order;
  /// The dims that may be spread along X / Y; nullopt means any.
  std::optional<std::vector<DimName>> spatialXDims, spatialYDims;
  /// Tensors the level must keep, and tensors that must bypass it.
  std::vector<TensorRole> keep, bypass;
  /// A dim is spread along X or along Y here, never both (as a Timeloop
  /// spatial directive says it).
  bool exclusiveAxes = false;

  bool appliesTo(OpKind kind) const;
  /// The constraint in the `#accel.constraint` spelling, for reports and
  /// cache keys: every field, in a fixed order.
  std::string str() const;
};

bool operator==(const FactorRule &a, const FactorRule &b);
bool operator==(const Constraint &a, const Constraint &b);

} // namespace marlmap

#endif // MARLMAP_CORE_CONSTRAINT_H
