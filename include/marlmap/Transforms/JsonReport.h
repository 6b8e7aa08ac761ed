//===- JsonReport.h - marlmap's figures as JSON -----------------*- C++ -*-===//
//
// The JSON shapes marlmap's reports share, so that scripts read one schema.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_TRANSFORMS_JSONREPORT_H
#define MARLMAP_TRANSFORMS_JSONREPORT_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Problem.h"

#include "llvm/Support/JSON.h"

namespace marlmap {

/// The description with every field resolved (meshes derived, defaults
/// filled in); unbounded capacities and bandwidths are null. Levels are
/// listed innermost first, as in the description.
llvm::json::Value archToJson(const Arch &arch);

/// `loops`, `iterators` and `operands` (name, role, access, projection in
/// loop names, words) of a problem.
llvm::json::Object problemToJson(const Problem &problem);

} // namespace marlmap

#endif // MARLMAP_TRANSFORMS_JSONREPORT_H
