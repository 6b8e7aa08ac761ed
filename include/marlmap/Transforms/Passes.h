//===- Passes.h - marlmap passes --------------------------------*- C++ -*-===//

#ifndef MARLMAP_TRANSFORMS_PASSES_H
#define MARLMAP_TRANSFORMS_PASSES_H

#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Mapper/Defaults.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace marlmap {

#define GEN_PASS_DECL
#include "marlmap/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "marlmap/Transforms/Passes.h.inc"

} // namespace marlmap

#endif // MARLMAP_TRANSFORMS_PASSES_H
