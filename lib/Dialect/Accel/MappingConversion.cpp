//===- MappingConversion.cpp - #accel.mapping <-> core Mapping ------------===//

#include "marlmap/Dialect/Accel/MappingConversion.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace marlmap::accel {

Mapping toCore(MappingAttr attr, unsigned numLoops, unsigned numOperands) {
  Mapping mapping;
  for (LevelMappingAttr levelAttr : attr.getLevels()) {
    LevelMapping level = LevelMapping::identity(numLoops, numOperands);
    for (unsigned loop = 0; loop < numLoops; ++loop) {
      level.temporal[loop] = levelAttr.getTemporalFactor(loop);
      level.spatialX[loop] = levelAttr.getSpatialXFactor(loop);
      level.spatialY[loop] = levelAttr.getSpatialYFactor(loop);
    }
    if (!levelAttr.getOrder().empty())
      level.order.assign(levelAttr.getOrder().begin(),
                         levelAttr.getOrder().end());
    // A verified mapping names only the op's operands; one that is not yet
    // verified (checkMappingShape's to refuse) must not write past them.
    for (int64_t operand : levelAttr.getKeep())
      if (operand >= 0 && uint64_t(operand) < numOperands)
        level.keep[operand] = true;
    mapping.levels.push_back(std::move(level));
  }
  return mapping;
}

static ArrayRef<int64_t> unlessAllOnes(const std::vector<int64_t> &factors) {
  if (llvm::all_of(factors, [](int64_t f) { return f == 1; }))
    return {};
  return factors;
}

MappingAttr fromCore(MLIRContext *context, const Mapping &mapping,
                     const Arch &arch) {
  SmallVector<LevelMappingAttr> levels;
  for (auto [index, level] : llvm::enumerate(mapping.levels)) {
    SmallVector<int64_t> order(level.order.begin(), level.order.end());
    bool identity = llvm::all_of(llvm::enumerate(order), [](auto entry) {
      return entry.value() == int64_t(entry.index());
    });
    if (identity)
      order.clear();
    SmallVector<int64_t> keep;
    for (auto [operand, kept] : llvm::enumerate(level.keep))
      if (kept)
        keep.push_back(operand);
    levels.push_back(LevelMappingAttr::get(
        context, arch.levels[index].name, unlessAllOnes(level.temporal), order,
        unlessAllOnes(level.spatialX), unlessAllOnes(level.spatialY), keep));
  }
  return MappingAttr::get(context, levels);
}

} // namespace marlmap::accel
