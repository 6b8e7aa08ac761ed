//===- map-network.cpp - Mapping a network from another program -----------===//
//
// What a compiler embedding marlmap does to map a network: load its linalg
// ops as problems, hand them to a Mapper, read the outcomes. The same call
// --marl-map and marlmap-explore make, with the same defaults.
//
//   marlmap-example-map-network model.mlir [preset]
//
//===----------------------------------------------------------------------===//

#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Registration.h"
#include "marlmap/Report/NetworkReport.h"
#include "marlmap/Target/ResolveTarget.h"
#include "marlmap/Transforms/ModuleProblems.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: " << argv[0] << " model.mlir [preset]\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  marlmap::registerMarlmapDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  // The accelerator: the one named, else the module's, else the default.
  mlir::FailureOr<marlmap::accel::ResolvedTarget> target =
      marlmap::accel::resolveTarget(*module, argc == 3 ? argv[2] : "");
  if (mlir::failed(target))
    return 1;

  // Load: one problem per mappable op.
  marlmap::ModuleProblems loaded =
      marlmap::loadModuleProblems(*module, target->arch, /*remarks=*/false);

  // Solve: the pass's defaults (marl, 2000 samples per problem, EDP).
  llvm::Expected<std::unique_ptr<marlmap::Mapper>> mapper =
      marlmap::makeMapper(marlmap::MapperOptions(), target->arch);
  if (!mapper) {
    llvm::errs() << marlmap::errorText(mapper.takeError()) << "\n";
    return 1;
  }
  std::unique_ptr<marlmap::Executor> executor = marlmap::makeThreadExecutor(0);
  marlmap::MapperResult result = (*mapper)->map(loaded.problems, *executor);

  // Use: here, print each op's figures and the network's.
  size_t skipped = 0;
  int status = loaded.failed ? 1 : 0;
  for (const marlmap::OpRow &row : loaded.rows) {
    if (!row.input) {
      llvm::outs() << row.location << ": not mapped: " << row.skipped << "\n";
      ++skipped;
      continue;
    }
    const marlmap::ProblemOutcome &outcome =
        result.problems[result.distinctOf[*row.input]];
    if (!outcome.error.empty()) {
      llvm::errs() << row.location << ": " << outcome.error << "\n";
      status = 1;
    } else if (!outcome.found) {
      llvm::outs() << row.location << ": not mapped: " << outcome.notFound
                   << "\n";
    } else {
      llvm::outs() << llvm::formatv("{0}: {1} cycles, {2:e15} pJ\n",
                                    row.location, outcome.evaluation.cycles,
                                    outcome.evaluation.energy);
    }
  }
  llvm::outs() << "total: "
               << marlmap::totalsLine((*mapper)->request(), result, skipped)
               << "\n";
  return status;
}
