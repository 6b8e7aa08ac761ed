//===- AccelAttrs.h - accel attributes --------------------------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_ACCELATTRS_H
#define MARLMAP_DIALECT_ACCEL_ACCELATTRS_H

#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Dialect/Accel/AsmHelpers.h"
#include "marlmap/Dialect/Accel/ConstraintParams.h"

#include "mlir/Dialect/SCF/IR/DeviceMappingInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

#include "marlmap/Dialect/Accel/AccelEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "marlmap/Dialect/Accel/AccelAttrs.h.inc"

#endif // MARLMAP_DIALECT_ACCEL_ACCELATTRS_H
