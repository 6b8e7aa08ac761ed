//===- ArchConversionTest.cpp - accel attributes <-> core Arch ------------===//

#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Registration.h"
#include "marlmap/Target/ResolveTarget.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace marlmap;

namespace {

class ArchConversion : public ::testing::Test {
protected:
  ArchConversion() {
    mlir::DialectRegistry registry;
    registerMarlmapDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  mlir::MLIRContext context;
};

TEST_F(ArchConversion, PresetsSurviveTheAttributeAndItsText) {
  for (const std::string &name : presetNames()) {
    Arch preset = *findPreset(name);
    accel::ArchAttr attr = accel::fromCore(&context, preset);
    EXPECT_TRUE(accel::toCore(attr) == preset) << name;

    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    mlir::Attribute parsed = mlir::parseAttribute(text, &context);
    EXPECT_EQ(parsed, attr) << name << ": " << text;
  }
}

TEST_F(ArchConversion, UpdateEnergyDefaultsToWriteEnergy) {
  Arch arch = *findPreset("edge");
  accel::ArchAttr attr = accel::fromCore(&context, arch);
  EXPECT_FALSE(attr.getLevels()[0].getUpdateEnergy().has_value());
  arch.levels[0].updateEnergy = 3.5;
  attr = accel::fromCore(&context, arch);
  EXPECT_EQ(accel::toCore(attr).levels[0].updateEnergy, 3.5);
}

TEST_F(ArchConversion, TargetAttributeNamesAPresetOrCarriesAnArch) {
  auto emitError = [&] {
    return mlir::emitError(mlir::UnknownLoc::get(&context));
  };
  std::string diagnostic;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostic = d.str();
    return mlir::success();
  });
  auto named = accel::archFromTargetAttr(
      mlir::StringAttr::get(&context, "simba"), emitError);
  ASSERT_TRUE(mlir::succeeded(named));
  EXPECT_EQ(named->name, "simba");

  Arch edge = *findPreset("edge");
  auto carried =
      accel::archFromTargetAttr(accel::fromCore(&context, edge), emitError);
  ASSERT_TRUE(mlir::succeeded(carried));
  EXPECT_TRUE(*carried == edge);

  EXPECT_TRUE(mlir::failed(accel::archFromTargetAttr(
      mlir::StringAttr::get(&context, "nope"), emitError)));
  EXPECT_NE(diagnostic.find("unknown accelerator preset 'nope'"),
            std::string::npos);
}

TEST_F(ArchConversion, ModuleWithoutTargetGetsTheDefaultPreset) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  auto target = accel::resolveTarget(*module, "");
  ASSERT_TRUE(mlir::succeeded(target));
  EXPECT_EQ(target->arch.name, kDefaultPreset);
  EXPECT_EQ(target->source, "default preset");
}

TEST_F(ArchConversion, MappingsSurviveTheAttribute) {
  Arch arch = *findPreset("eyeriss");
  Problem problem;
  problem.dims = {{"M", 28, LoopKind::Parallel}, {"N", 12, LoopKind::Parallel}};
  problem.operands = {{"Inputs", TensorRole::Inputs, Access::Read, {}},
                      {"Outputs", TensorRole::Outputs, Access::Write, {}}};
  Mapping mapping = Mapping::outermostOnly(problem, arch);
  unsigned glb = *arch.levelIndex("GlobalBuffer");
  mapping.levels[glb].spatialX = {14, 1};
  mapping.levels[glb].spatialY = {1, 12};
  mapping.levels[glb].order = {1, 0};
  mapping.levels.back().temporal = {1, 1};
  mapping.levels[0].temporal = {2, 1};
  ASSERT_TRUE(checkMappingShape(mapping, problem, arch).empty());

  accel::MappingAttr attr = accel::fromCore(&context, mapping, arch);
  EXPECT_TRUE(accel::toCore(attr, 2, 2) == mapping);
  // All-ones lists and identity orders are left out of the attribute.
  EXPECT_TRUE(attr.getLevels().back().getTemporal().empty());
  EXPECT_EQ(attr.getLevels()[glb].getOrder().size(), 2u);
  EXPECT_EQ(attr.getLevels()[glb].getName(), "GlobalBuffer");
}

} // namespace
