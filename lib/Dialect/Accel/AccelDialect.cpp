//===- AccelDialect.cpp - The accel dialect -------------------------------===//

#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingVerification.h"
#include "marlmap/Dialect/Accel/Target.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace marlmap;
using namespace marlmap::accel;

#include "marlmap/Dialect/Accel/AccelDialect.cpp.inc"

void AccelDialect::initialize() { registerAttributes(); }

/// The target of the module around `op`, as the mapping verifier sees it.
static FailureOr<Arch> enclosingTarget(Operation *op) {
  Attribute attr = findTargetAttr(op);
  if (!attr)
    return *findPreset(kDefaultPreset);
  // A bad target is reported on its module; stay quiet here.
  return archFromTargetAttr(attr, [&] {
    InFlightDiagnostic diag = emitError(op->getLoc());
    diag.abandon();
    return diag;
  });
}

LogicalResult AccelDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  if (attr.getName() == kTargetAttrName) {
    if (!isa<ModuleOp>(op))
      return op->emitError()
             << "'" << kTargetAttrName << "' belongs on a builtin.module";
    return archFromTargetAttr(attr.getValue(), [&] { return op->emitError(); });
  }
  if (attr.getName() == kMappingAttrName) {
    auto mapping = dyn_cast<MappingAttr>(attr.getValue());
    if (!mapping)
      return op->emitError()
             << "'" << kMappingAttrName << "' must be an #accel.mapping";
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      return op->emitError()
             << "'" << kMappingAttrName << "' belongs on a linalg op";
    // A malformed op is for its own verifier to report.
    if (!indexingMapsFitOperands(linalgOp))
      return success();
    FailureOr<Arch> arch = enclosingTarget(op);
    if (failed(arch))
      return failure();
    return verifyMappingFits(mapping, linalgOp, *arch,
                             [&] { return op->emitError(); });
  }
  if (attr.getName() == kOpIdAttrName) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "'" << kOpIdAttrName << "' must be an integer";
    return success();
  }
  if (attr.getName() == kCostAttrName) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kCostAttrName << "' must be a dictionary of figures";
    return success();
  }
  return op->emitError() << "unknown attribute '" << attr.getName().getValue()
                         << "' of the accel dialect";
}
