//===- DimNames.h - Which loop of a problem a constraint names --*- C++ -*-===//
//
// Constraints name loop dims N, K, C, P, Q, R, S, G (Constraint.h); a
// problem's loops answer to those names by the operands that read them, so
// that one description applies to convolutions, matmuls and generic ops
// alike. docs/Constraints.md gives the rules and examples.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_DIMNAMES_H
#define MARLMAP_CORE_DIMNAMES_H

#include "marlmap/Core/Constraint.h"
#include "marlmap/Core/Problem.h"

#include <optional>
#include <vector>

namespace marlmap {

/// The name of every loop of `problem` (nullopt for loops no name fits,
/// which constraints cannot name). Several loops may share a name.
std::vector<std::optional<DimName>> nameDims(const Problem &problem);

/// The op kind, from the names: a convolution has a window and output
/// channels K; a depthwise convolution has a window and a channel dim C that
/// the output keeps; a GEMM has no window, K and C; anything else is other.
OpKind opKindOf(const std::vector<std::optional<DimName>> &names,
                const Problem &problem);

} // namespace marlmap

#endif // MARLMAP_CORE_DIMNAMES_H
