//===- RegistrationTest.cpp - What a downstream tool must register --------===//
//
// A tool that registers marlmap's dialects runs every pass; one that builds
// its own registry without linalg's tiling models gets a diagnostic from
// --marl-apply, not a crash.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Registration.h"
#include "marlmap/Dialect/Accel/AccelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

namespace {

constexpr const char *kModule = R"mlir(
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>,
               %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>)
                       outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
)mlir";

/// Maps and rewrites kModule in `context`; the diagnostics it emitted, and
/// the module after the passes in `ir`.
std::string mapAndApply(mlir::MLIRContext &context, bool &succeeded,
                        std::string &ir) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  EXPECT_TRUE(module);
  mlir::PassManager pm(&context);
  EXPECT_TRUE(mlir::succeeded(mlir::parsePassPipeline(
      "marl-map{progress=none budget=50},marl-apply", pm)));
  succeeded = mlir::succeeded(pm.run(*module));
  llvm::raw_string_ostream os(ir);
  module->print(os);
  return diagnostics;
}

class Registration : public ::testing::Test {
protected:
  static void SetUpTestSuite() { marlmap::registerMarlmapPasses(); }
};

TEST_F(Registration, OneCallRegistersEverythingThePassesNeed) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  marlmap::registerMarlmapDialects(registry);
  mlir::MLIRContext context(registry);
  bool succeeded = false;
  std::string ir;
  std::string diagnostics = mapAndApply(context, succeeded, ir);
  EXPECT_TRUE(succeeded) << diagnostics;
  // Tiled: loops around the op, and no mapping left on it.
  EXPECT_NE(ir.find("scf.for"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("accel.mapping"), std::string::npos) << ir;
}

TEST_F(Registration, MissingTilingModelsAreADiagnosticNotACrash) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::tensor::TensorDialect, marlmap::accel::AccelDialect>();
  mlir::MLIRContext context(registry);
  bool succeeded = true;
  std::string ir;
  std::string diagnostics = mapAndApply(context, succeeded, ir);
  EXPECT_FALSE(succeeded);
  EXPECT_NE(diagnostics.find("'linalg.matmul' does not implement "
                             "TilingInterface"),
            std::string::npos)
      << diagnostics;
}

} // namespace
