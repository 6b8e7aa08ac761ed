//===- downstream-opt.cpp - A downstream compiler's driver ----------------===//
//
// What a compiler that embeds marlmap registers: a searcher of its own
// (before anything reads marlmap's registry), the dialects its input uses,
// then marlmap with one call. Run it as an mlir-opt:
//
//   downstream-opt model.mlir --marl-map --marl-apply
//   downstream-opt model.mlir --marl-map="searcher=coordinate"
//
//===----------------------------------------------------------------------===//

#include "CoordinateSearcher.h"

#include "marlmap/Mapper/Errors.h"
#include "marlmap/Registration.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  if (llvm::Error error =
          marlmap::registerSearcher(coordinateSearcherEntry())) {
    llvm::errs() << marlmap::errorText(std::move(error)) << "\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::tensor::TensorDialect>();
  marlmap::registerMarlmap(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "a downstream compiler with marlmap\n", registry));
}
