//===- Registration.h - Registering marlmap with MLIR -----------*- C++ -*-===//
//
// What an MLIR tool calls to know marlmap's dialect and passes: used by
// marlmap-opt, by the mlir-opt plugin and by compilers that embed marlmap.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REGISTRATION_H
#define MARLMAP_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace marlmap {

/// The accel dialect, plus what marlmap's passes create or inspect.
void registerMarlmapDialects(mlir::DialectRegistry &registry);

/// All marlmap passes, under their command-line names.
void registerMarlmapPasses();

} // namespace marlmap

#endif // MARLMAP_REGISTRATION_H
