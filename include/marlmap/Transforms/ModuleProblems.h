//===- ModuleProblems.h - A module's linalg ops as Mapper input -*- C++ -*-===//
//
// What `--marl-map` and `marlmap-explore` load from a module: one problem
// per mappable linalg op (a mapping the op carries is the user's, given to
// the Mapper to cost), and a report row for every op.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_TRANSFORMS_MODULEPROBLEMS_H
#define MARLMAP_TRANSFORMS_MODULEPROBLEMS_H

#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Report/NetworkReport.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace marlmap {

struct ModuleProblems {
  std::vector<MapperProblem> problems;
  /// The op of each problem.
  std::vector<mlir::Operation *> ops;
  /// Every linalg op that computes something, in program order.
  std::vector<OpRow> rows;
  /// An op carries a mapping for another accelerator (an error was
  /// emitted at it).
  bool failed = false;
};

/// The linalg ops of `module` (not of nested modules) on `arch`. Ops that
/// cannot be mapped get a remark saying why when `remarks` is set; fills
/// are left out.
ModuleProblems loadModuleProblems(mlir::ModuleOp module, const Arch &arch,
                                  bool remarks);

} // namespace marlmap

#endif // MARLMAP_TRANSFORMS_MODULEPROBLEMS_H
