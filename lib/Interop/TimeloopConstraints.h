//===- TimeloopConstraints.h - Timeloop mapspace constraints ----*- C++ -*-===//

#ifndef MARLMAP_LIB_INTEROP_TIMELOOPCONSTRAINTS_H
#define MARLMAP_LIB_INTEROP_TIMELOOPCONSTRAINTS_H

#include "YamlTree.h"
#include "marlmap/Core/Arch.h"

namespace marlmap::timeloop {

/// Adds the constraint targets under `root`'s constraint sections to
/// `arch.constraints` (one constraint per level, merged with what it has);
/// an error names what marlmap cannot represent or what is given twice.
llvm::Error readConstraintSections(const yaml::Reader &reader,
                                   const yaml::Value &root, Arch &arch);

/// Adds constraint targets (flat `{target, type, ...}` or nested) to
/// `arch.constraints`.
llvm::Error readTargets(const yaml::Reader &reader,
                        const std::vector<yaml::Value> &targets, Arch &arch);

/// The level a v0.4 node's fanout becomes: `inter_<node>_spatial`.
std::string spatialLevelName(llvm::StringRef node);

/// Timeloop spreads a dim along X or Y at a level, never both: says so for
/// every level that fans out both ways.
void oneAxisPerDim(Arch &arch);

} // namespace marlmap::timeloop

#endif // MARLMAP_LIB_INTEROP_TIMELOOPCONSTRAINTS_H
