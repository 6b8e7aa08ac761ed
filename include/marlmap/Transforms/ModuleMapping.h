//===- ModuleMapping.h - Map a module's ops and save the outcome -*- C++
//-*-===//
//
// Load, solve, save for a whole module: the front end's options (FrontEnd.h)
// and an accelerator choice become a Mapper, the module's linalg ops its
// problems, and the outcome attributes on the ops and diagnostics at them.
// `--marl-map` and Python's `map_module` are this call and their reports.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_TRANSFORMS_MODULEMAPPING_H
#define MARLMAP_TRANSFORMS_MODULEMAPPING_H

#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Transforms/ModuleProblems.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>

namespace marlmap {

struct ModuleMapOptions {
  /// A preset, a .mlir description or a Timeloop .yaml; "" for the
  /// module's target, else the default (accel::resolveTarget).
  std::string arch;
  /// A Timeloop constraints file whose targets constrain the accelerator.
  std::string constraints;
  MapperOptions mapper;
};

/// A module mapped: what its report is made of.
struct MappedModule {
  std::unique_ptr<Mapper> mapper;
  ModuleProblems loaded;
  MapperResult result;
  /// An op could not be mapped as asked (an error is at it) or the
  /// network's search failed underneath: the compile should fail, though
  /// every other op's outcome is saved.
  bool failed = false;
};

/// Maps the linalg ops of `module` and saves each outcome on its ops: the
/// mapping and the cost as attributes, a remark or a warning where an op
/// is left unmapped, an error where it cannot be mapped as asked. The
/// module's target becomes the accelerator used. Searches run on the
/// context's thread pool (at most `options.mapper.threads` at once) or, with
/// threading off, on the calling thread. failure() when nothing could be
/// mapped (options refused, an unknown accelerator, an op mapped for
/// another one), with the reason emitted at the module.
mlir::FailureOr<MappedModule> mapModule(mlir::ModuleOp module,
                                        const ModuleMapOptions &options,
                                        const ProgressCallback &progress);

} // namespace marlmap

#endif // MARLMAP_TRANSFORMS_MODULEMAPPING_H
