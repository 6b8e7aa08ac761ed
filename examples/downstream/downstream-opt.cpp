//===- downstream-opt.cpp - A downstream compiler's driver ----------------===//
//
// What a compiler that embeds marlmap registers: the dialects its input
// uses, then marlmap with one call. Run it as an mlir-opt:
//
//   downstream-opt model.mlir --marl-map --marl-apply
//
//===----------------------------------------------------------------------===//

#include "marlmap/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::tensor::TensorDialect>();
  marlmap::registerMarlmap(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "a downstream compiler with marlmap\n", registry));
}
