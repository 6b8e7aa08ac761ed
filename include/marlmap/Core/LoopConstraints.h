//===- LoopConstraints.h - Constraints on one problem's loops ---*- C++ -*-===//
//
// An accelerator's constraints (Constraint.h) name dims; the map space needs
// them on a problem's loops and operands. Resolving does that translation
// once per problem; checking tells what a mapping breaks, by name.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_LOOPCONSTRAINTS_H
#define MARLMAP_CORE_LOOPCONSTRAINTS_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// What is fixed at one level. Dims and operands are indices into the
/// problem.
struct LevelConstraints {
  /// Exact factors per dim.
  std::map<unsigned, int64_t> temporal, spatialX, spatialY;
  /// Largest factors per dim.
  std::map<unsigned, int64_t> maxTemporal, maxSpatialX, maxSpatialY;
  /// A fixed loop order, outermost first.
  std::optional<std::vector<unsigned>> order;
  /// Loops that must be innermost, outermost first (the others go outside
  /// them in any order).
  std::vector<unsigned> innermost;
  /// Dims allowed along X / Y (e.g. a weight-stationary array puts K on X
  /// and C on Y); absent means any dim.
  std::optional<std::vector<unsigned>> spatialXDims, spatialYDims;
  /// Operands fixed as kept (true) or bypassed (false).
  std::map<unsigned, bool> keep;
  /// A dim is spread along X or along Y, not both.
  bool exclusiveAxes = false;
};

struct Constraints {
  /// One entry per storage level (missing entries constrain nothing).
  std::vector<LevelConstraints> levels;
};

/// The constraint of `arch` that applies at `level` to ops of `kind`: the
/// one naming the kind, else the one naming no kind, else none.
const Constraint *constraintAt(const Arch &arch, unsigned level, OpKind kind);

/// `arch`'s constraints on `problem`'s loops, or the reason they cannot
/// apply (an exact factor above 1 naming several loops). As in Timeloop, a
/// full factor is the loop's whole bound, and an exact factor larger than
/// the bound constrains nothing.
llvm::Error resolveConstraints(const Problem &problem, const Arch &arch,
                               Constraints &out);

/// Adds `extra` to `into` (level by level); the reason when both fix the
/// same thing differently.
llvm::Error mergeConstraints(Constraints &into, const Constraints &extra);

/// The constraints of `arch` that `mapping` breaks, one message each naming
/// the constraint and the loop. Assumes the mapping's shape fits
/// (checkMappingShape).
std::vector<std::string> checkMappingConstraints(const Mapping &mapping,
                                                 const Problem &problem,
                                                 const Arch &arch);

} // namespace marlmap

#endif // MARLMAP_CORE_LOOPCONSTRAINTS_H
