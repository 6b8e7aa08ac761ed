//===- Target.cpp - Finding the accelerator a module targets --------------===//

#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace marlmap::accel {

std::string listPresets() { return llvm::join(presetNames(), ", "); }

Attribute findTargetAttr(Operation *op) {
  for (; op; op = op->getParentOp())
    if (isa<ModuleOp>(op))
      if (Attribute attr = op->getAttr(AccelDialect::kTargetAttrName))
        return attr;
  return {};
}

FailureOr<Arch>
archFromTargetAttr(Attribute attr,
                   llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (auto arch = dyn_cast<ArchAttr>(attr))
    return toCore(arch);
  if (auto name = dyn_cast<StringAttr>(attr)) {
    if (std::optional<Arch> preset = findPreset(name.str()))
      return *preset;
    emitError() << "unknown accelerator preset '" << name.getValue()
                << "' (presets: " << listPresets() << ")";
    return failure();
  }
  emitError() << "'" << AccelDialect::kTargetAttrName
              << "' must be a preset name or an #accel.arch, got " << attr;
  return failure();
}

static FailureOr<ResolvedTarget> loadTargetFile(ModuleOp module,
                                                StringRef path) {
  MLIRContext *context = module.getContext();
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer) {
    // `error` names the file and says why.
    emitError(module.getLoc())
        << "cannot read the accelerator description: " << error;
    return failure();
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), SMLoc());
  // The description is parsed into the same context; its own diagnostics
  // point into the description file.
  OwningOpRef<ModuleOp> described =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
  if (!described) {
    emitError(module.getLoc())
        << "cannot parse accelerator description '" << path << "'";
    return failure();
  }
  Attribute attr = (*described)->getAttr(AccelDialect::kTargetAttrName);
  if (!attr) {
    emitError(module.getLoc())
        << "accelerator description '" << path << "' has no '"
        << AccelDialect::kTargetAttrName << "' attribute on its module";
    return failure();
  }
  FailureOr<Arch> arch =
      archFromTargetAttr(attr, [&] { return emitError(described->getLoc()); });
  if (failed(arch))
    return failure();
  return ResolvedTarget{std::move(*arch), ("file " + path).str()};
}

FailureOr<ResolvedTarget> resolveTarget(ModuleOp module, StringRef choice) {
  if (!choice.empty()) {
    if (std::optional<Arch> preset = findPreset(choice.str()))
      return ResolvedTarget{std::move(*preset), "preset"};
    if (choice.ends_with(".mlir"))
      return loadTargetFile(module, choice);
    emitError(module.getLoc())
        << "unknown accelerator '" << choice << "': not a preset ("
        << listPresets() << ") nor a .mlir description file";
    return failure();
  }
  if (Attribute attr = findTargetAttr(module)) {
    FailureOr<Arch> arch =
        archFromTargetAttr(attr, [&] { return emitError(module.getLoc()); });
    if (failed(arch))
      return failure();
    return ResolvedTarget{std::move(*arch),
                          isa<StringAttr>(attr) ? "preset" : "module"};
  }
  return ResolvedTarget{*findPreset(kDefaultPreset), "default preset"};
}

} // namespace marlmap::accel
