//===- Registration.cpp - Registering marlmap with MLIR -------------------===//

#include "marlmap/Registration.h"
#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace marlmap {

void registerMarlmapDialects(mlir::DialectRegistry &registry) {
  registry.insert<accel::AccelDialect, mlir::linalg::LinalgDialect,
                  mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  // --marl-apply tiles linalg ops through TilingInterface, which linalg
  // attaches as external models: without them no op could be rewritten.
  mlir::linalg::registerTilingInterfaceExternalModels(registry);
}

void registerMarlmapPasses() { registerMarlmapTransformsPasses(); }

void registerMarlmap(mlir::DialectRegistry &registry) {
  registerMarlmapDialects(registry);
  registerMarlmapPasses();
}

} // namespace marlmap
