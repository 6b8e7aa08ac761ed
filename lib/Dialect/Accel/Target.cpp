//===- Target.cpp - Finding the accelerator a module targets --------------===//

#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"

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

} // namespace marlmap::accel
