//===- Registration.cpp - Registering marlmap with MLIR -------------------===//

#include "marlmap/Registration.h"
#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace marlmap {

void registerMarlmapDialects(mlir::DialectRegistry &registry) {
  registry.insert<accel::AccelDialect, mlir::linalg::LinalgDialect>();
}

void registerMarlmapPasses() { registerMarlmapTransformsPasses(); }

} // namespace marlmap
