//===- ArchConversion.h - accel attributes <-> core Arch --------*- C++ -*-===//

#ifndef MARLMAP_DIALECT_ACCEL_ARCHCONVERSION_H
#define MARLMAP_DIALECT_ACCEL_ARCHCONVERSION_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"

namespace marlmap::accel {

marlmap::TensorRole toCore(TensorRole role);
TensorRole fromCore(marlmap::TensorRole role);

/// A level whose mesh cannot be derived keeps meshX = instances, meshY = 1;
/// the attribute verifiers reject such a level before anyone converts it.
StorageLevel toCore(StorageLevelAttr level);
ComputeArray toCore(ComputeAttr compute);
/// The same from an attribute's parameters, for its verifier.
StorageLevel storageLevelFromParams(
    llvm::StringRef name, Technology technology, std::optional<int64_t> entries,
    int64_t wordBits, int64_t blockSize, int64_t instances,
    std::optional<int64_t> meshX, std::optional<int64_t> meshY,
    std::optional<Real> readBandwidth, std::optional<Real> writeBandwidth,
    Real readEnergy, Real writeEnergy, std::optional<Real> updateEnergy,
    Real multipleBuffering, llvm::ArrayRef<TensorRole> holds);
ComputeArray computeFromParams(int64_t instances, std::optional<int64_t> meshX,
                               std::optional<int64_t> meshY, int64_t wordBits,
                               int64_t macsPerCycle, Real energyPerMac);
Constraint toCore(ConstraintAttr constraint);
/// The same from an attribute's parameters, for its verifier.
Constraint
constraintFromParams(llvm::StringRef level, llvm::ArrayRef<OpKind> ops,
                     llvm::ArrayRef<FactorRule> temporal, const DimList &order,
                     const DimList &xDims, const DimList &yDims,
                     llvm::ArrayRef<FactorRule> spatialX,
                     llvm::ArrayRef<FactorRule> spatialY, bool exclusiveAxes,
                     llvm::ArrayRef<TensorRole> keep,
                     llvm::ArrayRef<TensorRole> bypass);
ConstraintAttr fromCore(mlir::MLIRContext *context,
                        const Constraint &constraint);
Arch toCore(ArchAttr arch);
/// The same from the parts of an ArchAttr, for its verifier and parser.
Arch archFromParts(llvm::StringRef name, double clockMHz, ComputeAttr compute,
                   llvm::ArrayRef<StorageLevelAttr> levels,
                   llvm::ArrayRef<ConstraintAttr> constraints, FillRule fills);

ArchAttr fromCore(mlir::MLIRContext *context, const Arch &arch);

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_ARCHCONVERSION_H
