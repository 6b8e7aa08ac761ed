//===- MappingConversion.h - #accel.mapping <-> core Mapping ----*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_MAPPINGCONVERSION_H
#define MARLMAP_DIALECT_ACCEL_MAPPINGCONVERSION_H

#include "marlmap/Core/Mapping.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"

namespace marlmap::accel {

/// The mapping `attr` describes for an op with `numLoops` loops and
/// `numOperands` operands. Left-out lists become ones / identity; the lists
/// given must have `numLoops` entries and keep only operands below
/// `numOperands` (verifyMappingFits checks both first).
Mapping toCore(MappingAttr attr, unsigned numLoops, unsigned numOperands);

/// The attribute for `mapping` on `arch`, leaving out all-ones factor lists
/// and identity orders.
MappingAttr fromCore(mlir::MLIRContext *context, const Mapping &mapping,
                     const Arch &arch);

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_MAPPINGCONVERSION_H
