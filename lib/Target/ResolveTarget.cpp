//===- ResolveTarget.cpp - The accelerator a module is mapped onto --------===//
//
// The target of a compile, from a preset, a .mlir description file, a
// Timeloop spec or the module's own `accel.target`: the file reading that
// the dialect library leaves to this one.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Target/ResolveTarget.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace marlmap::accel {

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

static bool isYaml(StringRef path) {
  return path.ends_with(".yaml") || path.ends_with(".yml");
}

static FailureOr<std::string> readText(ModuleOp module, StringRef path,
                                       StringRef what) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &error);
  if (!buffer) {
    emitError(module.getLoc()) << "cannot read the " << what << ": " << error;
    return failure();
  }
  return buffer->getBuffer().str();
}

/// A Timeloop architecture spec, with the constraints it carries.
static FailureOr<ResolvedTarget> loadTimeloopArch(ModuleOp module,
                                                  StringRef path) {
  FailureOr<std::string> text = readText(module, path, "Timeloop architecture");
  if (failed(text))
    return failure();
  llvm::Expected<Arch> arch = timeloop::readArch(*text, path);
  if (!arch) {
    emitError(module.getLoc()) << llvm::toString(arch.takeError());
    return failure();
  }
  return ResolvedTarget{std::move(*arch), ("Timeloop file " + path).str()};
}

static FailureOr<ResolvedTarget> resolveChoice(ModuleOp module,
                                               StringRef choice) {
  if (!choice.empty()) {
    if (std::optional<Arch> preset = findPreset(choice.str()))
      return ResolvedTarget{std::move(*preset), "preset"};
    if (choice.ends_with(".mlir"))
      return loadTargetFile(module, choice);
    if (isYaml(choice))
      return loadTimeloopArch(module, choice);
    emitError(module.getLoc())
        << "unknown accelerator '" << choice << "': not a preset ("
        << listPresets()
        << "), a .mlir description file nor a Timeloop .yaml spec";
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

FailureOr<ResolvedTarget> resolveTarget(ModuleOp module, StringRef choice,
                                        StringRef constraintsFile) {
  FailureOr<ResolvedTarget> target = resolveChoice(module, choice);
  if (failed(target) || constraintsFile.empty())
    return target;
  FailureOr<std::string> text =
      readText(module, constraintsFile, "Timeloop constraints");
  if (failed(text))
    return failure();
  if (llvm::Error error =
          timeloop::readConstraints(*text, constraintsFile, target->arch)) {
    emitError(module.getLoc()) << llvm::toString(std::move(error));
    return failure();
  }
  // They must suit this accelerator as its own constraints would.
  std::vector<ArchIssue> issues = checkConstraints(target->arch);
  for (const ArchIssue &issue : issues)
    emitError(module.getLoc()) << constraintsFile << ": " << issue.message;
  if (!issues.empty())
    return failure();
  target->source += " with the constraints of " + constraintsFile.str();
  return target;
}

} // namespace marlmap::accel
