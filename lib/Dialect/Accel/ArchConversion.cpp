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

static void setMesh(int64_t instances, std::optional<int64_t> meshX,
                    std::optional<int64_t> meshY, int64_t &x, int64_t &y) {
  if (!deriveMesh(instances, meshX, meshY, x, y)) {
    x = instances;
    y = 1;
  }
}

StorageLevel toCore(StorageLevelAttr attr) {
  StorageLevel level;
  level.name = attr.getName().str();
  level.technology = toCore(attr.getTechnology());
  level.entries = attr.getEntries();
  level.wordBits = attr.getWordBits();
  level.blockSize = attr.getBlockSize();
  level.instances = attr.getInstances();
  setMesh(level.instances, attr.getMeshX(), attr.getMeshY(), level.meshX,
          level.meshY);
  level.readBandwidth = attr.getReadBandwidth();
  level.writeBandwidth = attr.getWriteBandwidth();
  level.readEnergy = attr.getReadEnergy();
  level.writeEnergy = attr.getWriteEnergy();
  level.updateEnergy = attr.getUpdateEnergy().value_or(attr.getWriteEnergy());
  level.multipleBuffering = attr.getMultipleBuffering();
  for (TensorRole role : attr.getHolds())
    level.holds.insert(toCore(role));
  return level;
}

ComputeArray toCore(ComputeAttr attr) {
  ComputeArray compute;
  compute.instances = attr.getInstances();
  setMesh(compute.instances, attr.getMeshX(), attr.getMeshY(), compute.meshX,
          compute.meshY);
  compute.wordBits = attr.getWordBits();
  compute.macsPerCycle = attr.getMacsPerCycle();
  compute.energyPerMac = attr.getEnergyPerMac();
  return compute;
}

Arch archFromParts(StringRef name, double clockMHz, ComputeAttr compute,
                   ArrayRef<StorageLevelAttr> levels) {
  Arch arch;
  arch.name = name.str();
  arch.clockMHz = clockMHz;
  arch.compute = toCore(compute);
  for (StorageLevelAttr level : levels)
    arch.levels.push_back(toCore(level));
  return arch;
}

Arch toCore(ArchAttr attr) {
  return archFromParts(attr.getName(), attr.getClockMhz(), attr.getCompute(),
                       attr.getLevels());
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
  return ArchAttr::get(context, arch.name, arch.clockMHz, compute, levels);
}

} // namespace marlmap::accel
