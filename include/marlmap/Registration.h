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

/// The accel dialect, plus everything marlmap's passes create or inspect:
/// linalg with its TilingInterface models (which --marl-apply tiles through),
/// and the dialects of the loops and slices the rewrite makes. A tool that
/// calls this and registerMarlmapPasses() can run every marlmap pass.
void registerMarlmapDialects(mlir::DialectRegistry &registry);

/// All marlmap passes, under their command-line names.
void registerMarlmapPasses();

/// Both of the above: what a downstream tool calls once.
void registerMarlmap(mlir::DialectRegistry &registry);

} // namespace marlmap

#endif // MARLMAP_REGISTRATION_H
