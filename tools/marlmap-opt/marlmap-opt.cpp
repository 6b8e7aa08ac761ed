//===- marlmap-opt.cpp - The marlmap optimizer driver ---------------------===//
//
// mlir-opt with marlmap's dialect and passes: every upstream dialect and pass
// is there too, so marlmap runs inside any pipeline a lowered DNN needs.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  marlmap::registerMarlmap(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "marlmap: DNN mapping for spatial accelerators\n", registry));
}
