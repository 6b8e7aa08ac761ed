//===- AccelDialect.h - The accel dialect -----------------------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_ACCELDIALECT_H
#define MARLMAP_DIALECT_ACCEL_ACCELDIALECT_H

#include "mlir/IR/Dialect.h"

#include "marlmap/Dialect/Accel/AccelDialect.h.inc"

#endif // MARLMAP_DIALECT_ACCEL_ACCELDIALECT_H
