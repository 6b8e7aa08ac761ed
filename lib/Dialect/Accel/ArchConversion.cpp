//===- ArchConversion.cpp - accel attributes <-> core Arch ----------------===//

#include "marlmap/Dialect/Accel/ArchConversion.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace marlmap::accel {

marlmap::TensorRole toCore(TensorRole role) {
  switch (role) {
  case TensorRole::inputs:
    return marlmap::TensorRole::Inputs;
  case TensorRole::weights:
    return marlmap::TensorRole::Weights;
  case TensorRole::outputs:
    return marlmap::TensorRole::Outputs;
  }
  llvm_unreachable("unknown tensor role");
}

TensorRole fromCore(marlmap::TensorRole role) {
  switch (role) {
  case marlmap::TensorRole::Inputs:
    return TensorRole::inputs;
  case marlmap::TensorRole::Weights:
    return TensorRole::weights;
  case marlmap::TensorRole::Outputs:
    return TensorRole::outputs;
  }
  llvm_unreachable("unknown tensor role");
}

static marlmap::Technology toCore(Technology tech) {
  switch (tech) {
  case Technology::regfile:
    return marlmap::Technology::RegFile;
  case Technology::sram:
    return marlmap::Technology::SRAM;
  case Technology::dram:
    return marlmap::Technology::DRAM;
  }
  llvm_unreachable("unknown technology");
}

static Technology fromCore(marlmap::Technology tech) {
  switch (tech) {
  case marlmap::Technology::RegFile:
    return Technology::regfile;
  case marlmap::Technology::SRAM:
    return Technology::sram;
  case marlmap::Technology::DRAM:
    return Technology::dram;
  }
  llvm_unreachable("unknown technology");
}

static marlmap::FillRule toCore(FillRule rule) {
  return rule == FillRule::timeloop ? marlmap::FillRule::Timeloop
                                    : marlmap::FillRule::Exact;
}

static FillRule fromCore(marlmap::FillRule rule) {
  return rule == marlmap::FillRule::Timeloop ? FillRule::timeloop
                                             : FillRule::exact;
}

static void setMesh(int64_t instances, std::optional<int64_t> meshX,
                    std::optional<int64_t> meshY, int64_t &x, int64_t &y) {
  if (!deriveMesh(instances, meshX, meshY, x, y)) {
    x = instances;
    y = 1;
  }
}

StorageLevel storageLevelFromParams(
    StringRef name, Technology technology, std::optional<int64_t> entries,
    int64_t wordBits, int64_t blockSize, int64_t instances,
    std::optional<int64_t> meshX, std::optional<int64_t> meshY,
    std::optional<Real> readBandwidth, std::optional<Real> writeBandwidth,
    Real readEnergy, Real writeEnergy, std::optional<Real> updateEnergy,
    Real multipleBuffering, ArrayRef<TensorRole> holds) {
  StorageLevel level;
  level.name = name.str();
  level.technology = toCore(technology);
  level.entries = entries;
  level.wordBits = wordBits;
  level.blockSize = blockSize;
  level.instances = instances;
  setMesh(instances, meshX, meshY, level.meshX, level.meshY);
  level.readBandwidth = readBandwidth;
  level.writeBandwidth = writeBandwidth;
  level.readEnergy = readEnergy;
  level.writeEnergy = writeEnergy;
  level.updateEnergy = updateEnergy.value_or(writeEnergy);
  level.multipleBuffering = multipleBuffering;
  for (TensorRole role : holds)
    level.holds.insert(toCore(role));
  return level;
}

StorageLevel toCore(StorageLevelAttr attr) {
  return storageLevelFromParams(
      attr.getName(), attr.getTechnology(), attr.getEntries(),
      attr.getWordBits(), attr.getBlockSize(), attr.getInstances(),
      attr.getMeshX(), attr.getMeshY(), attr.getReadBandwidth(),
      attr.getWriteBandwidth(), attr.getReadEnergy(), attr.getWriteEnergy(),
      attr.getUpdateEnergy(), attr.getMultipleBuffering(), attr.getHolds());
}

ComputeArray computeFromParams(int64_t instances, std::optional<int64_t> meshX,
                               std::optional<int64_t> meshY, int64_t wordBits,
                               int64_t macsPerCycle, Real energyPerMac) {
  ComputeArray compute;
  compute.instances = instances;
  setMesh(instances, meshX, meshY, compute.meshX, compute.meshY);
  compute.wordBits = wordBits;
  compute.macsPerCycle = macsPerCycle;
  compute.energyPerMac = energyPerMac;
  return compute;
}

ComputeArray toCore(ComputeAttr attr) {
  return computeFromParams(attr.getInstances(), attr.getMeshX(),
                           attr.getMeshY(), attr.getWordBits(),
                           attr.getMacsPerCycle(), attr.getEnergyPerMac());
}

static std::optional<std::vector<DimName>> toCore(const DimList &list) {
  if (!list.given())
    return std::nullopt;
  return std::vector<DimName>(list.names().begin(), list.names().end());
}

static DimList fromCore(const std::optional<std::vector<DimName>> &names) {
  return names ? DimList(*names) : DimList();
}

Constraint constraintFromParams(StringRef level, ArrayRef<OpKind> ops,
                                ArrayRef<FactorRule> temporal,
                                const DimList &order, const DimList &xDims,
                                const DimList &yDims,
                                ArrayRef<FactorRule> spatialX,
                                ArrayRef<FactorRule> spatialY,
                                bool exclusiveAxes, ArrayRef<TensorRole> keep,
                                ArrayRef<TensorRole> bypass) {
  Constraint c;
  c.level = level.str();
  c.ops.assign(ops.begin(), ops.end());
  c.temporal.assign(temporal.begin(), temporal.end());
  c.spatialX.assign(spatialX.begin(), spatialX.end());
  c.spatialY.assign(spatialY.begin(), spatialY.end());
  c.order = toCore(order);
  c.spatialXDims = toCore(xDims);
  c.spatialYDims = toCore(yDims);
  c.exclusiveAxes = exclusiveAxes;
  for (TensorRole role : keep)
    c.keep.push_back(toCore(role));
  for (TensorRole role : bypass)
    c.bypass.push_back(toCore(role));
  return c;
}

Constraint toCore(ConstraintAttr attr) {
  return constraintFromParams(
      attr.getLevel(), attr.getOps(), attr.getTemporal(), attr.getOrder(),
      attr.getXDims(), attr.getYDims(), attr.getSpatialX(), attr.getSpatialY(),
      attr.getExclusiveAxes(), attr.getKeep(), attr.getBypass());
}

ConstraintAttr fromCore(MLIRContext *context, const Constraint &c) {
  SmallVector<TensorRole> keep, bypass;
  for (marlmap::TensorRole role : c.keep)
    keep.push_back(fromCore(role));
  for (marlmap::TensorRole role : c.bypass)
    bypass.push_back(fromCore(role));
  return ConstraintAttr::get(context, c.level, c.ops, c.temporal,
                             fromCore(c.order), fromCore(c.spatialXDims),
                             fromCore(c.spatialYDims), c.spatialX, c.spatialY,
                             c.exclusiveAxes, keep, bypass);
}

Arch archFromParts(StringRef name, double clockMHz, ComputeAttr compute,
                   ArrayRef<StorageLevelAttr> levels,
                   ArrayRef<ConstraintAttr> constraints, FillRule fills) {
  Arch arch;
  arch.name = name.str();
  arch.clockMHz = clockMHz;
  arch.fillRule = toCore(fills);
  arch.compute = toCore(compute);
  for (StorageLevelAttr level : levels)
    arch.levels.push_back(toCore(level));
  for (ConstraintAttr constraint : constraints)
    arch.constraints.push_back(toCore(constraint));
  return arch;
}

Arch toCore(ArchAttr attr) {
  return archFromParts(attr.getName(), attr.getClockMhz(), attr.getCompute(),
                       attr.getLevels(), attr.getConstraints(),
                       attr.getFills());
}

/// A mesh is spelled out only where there is more than one instance.
static std::pair<std::optional<int64_t>, std::optional<int64_t>>
meshFields(int64_t instances, int64_t x, int64_t y) {
  if (instances == 1)
    return {std::nullopt, std::nullopt};
  return {x, y};
}

ArchAttr fromCore(MLIRContext *context, const Arch &arch) {
  SmallVector<StorageLevelAttr> levels;
  for (const StorageLevel &level : arch.levels) {
    SmallVector<TensorRole> holds;
    for (unsigned r = 0; r < kNumTensorRoles; ++r)
      if (level.holds.contains(marlmap::TensorRole(r)))
        holds.push_back(fromCore(marlmap::TensorRole(r)));
    auto [meshX, meshY] = meshFields(level.instances, level.meshX, level.meshY);
    std::optional<double> update;
    if (level.updateEnergy != level.writeEnergy)
      update = level.updateEnergy;
    levels.push_back(StorageLevelAttr::get(
        context, level.name, fromCore(level.technology), level.entries,
        level.wordBits, level.blockSize, level.instances, meshX, meshY,
        level.readBandwidth, level.writeBandwidth, level.readEnergy,
        level.writeEnergy, update, level.multipleBuffering, holds));
  }
  const ComputeArray &c = arch.compute;
  auto [meshX, meshY] = meshFields(c.instances, c.meshX, c.meshY);
  auto compute = ComputeAttr::get(context, c.instances, meshX, meshY,
                                  c.wordBits, c.macsPerCycle, c.energyPerMac);
  SmallVector<ConstraintAttr> constraints;
  for (const Constraint &constraint : arch.constraints)
    constraints.push_back(fromCore(context, constraint));
  return ArchAttr::get(context, arch.name, arch.clockMHz, compute, levels,
                       constraints, fromCore(arch.fillRule));
}

} // namespace marlmap::accel
