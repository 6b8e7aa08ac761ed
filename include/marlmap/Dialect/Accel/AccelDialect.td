//===- AccelDialect.td - The accel dialect -----------------*- tablegen -*-===//

#ifndef MARLMAP_ACCEL_DIALECT_TD
#define MARLMAP_ACCEL_DIALECT_TD

include "mlir/IR/OpBase.td"

def Accel_Dialect : Dialect {
  let name = "accel";
  let summary = "Spatial accelerators and the mappings of tensor ops onto them";
  let description = [{
    The `accel` dialect describes a spatial DNN accelerator (a storage
    hierarchy above an array of MAC units, with the semantics of Timeloop's
    architecture model) and records how a `linalg` op is mapped onto it.

    A module names its target with the discardable attribute `accel.target`,
    either a preset name (`"eyeriss"`) or a full `#accel.arch` description.
    A mapped op carries its mapping in `accel.mapping`; the verifier checks it
    against the op's loops and the module's target. `accel.cost` records the
    figures the cost model predicts for it (a dictionary).
  }];
  let cppNamespace = "::marlmap::accel";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Discardable attribute names.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "accel.target";
    static constexpr ::llvm::StringLiteral kMappingAttrName = "accel.mapping";
    static constexpr ::llvm::StringLiteral kCostAttrName = "accel.cost";
    /// Names a mapped op for the transform script marl-apply can write.
    static constexpr ::llvm::StringLiteral kOpIdAttrName = "accel.op_id";

  private:
    void registerAttributes();
  }];
}

#endif // MARLMAP_ACCEL_DIALECT_TD
