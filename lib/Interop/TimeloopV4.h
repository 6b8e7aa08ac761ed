//===- TimeloopV4.h - Timeloop's v0.4 architecture specs --------*- C++ -*-===//

#ifndef MARLMAP_LIB_INTEROP_TIMELOOPV4_H
#define MARLMAP_LIB_INTEROP_TIMELOOPV4_H

#include "YamlTree.h"
#include "marlmap/Core/Arch.h"

namespace marlmap::timeloop {

/// Whether `root` is `architecture: {version: 0.4, nodes: [...]}`.
bool isV4Spec(const yaml::Value &root);

/// The accelerator a v0.4 spec describes, with the constraints its nodes
/// carry.
llvm::Expected<Arch> readArchV4(const yaml::Reader &reader,
                                const yaml::Value &root,
                                llvm::StringRef fileName);

} // namespace marlmap::timeloop

#endif // MARLMAP_LIB_INTEROP_TIMELOOPV4_H
