//===- MarlmapPlugin.cpp - marlmap as an mlir-opt plugin ------------------===//

#include "marlmap/Registration.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Marlmap", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            marlmap::registerMarlmapDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MarlmapPasses", LLVM_VERSION_STRING,
          []() { marlmap::registerMarlmapPasses(); }};
}
