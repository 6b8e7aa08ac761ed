//===- JsonReport.cpp - marlmap's figures as JSON -------------------------===//

#include "marlmap/Transforms/JsonReport.h"

namespace marlmap {

template <typename T>
static llvm::json::Value orNull(const std::optional<T> &value) {
  if (!value)
    return nullptr;
  return *value;
}

static llvm::json::Value rolesToJson(RoleSet roles) {
  llvm::json::Array out;
  for (unsigned r = 0; r < kNumTensorRoles; ++r)
    if (roles.contains(TensorRole(r)))
      out.push_back(tensorRoleName(TensorRole(r)));
  return out;
}

llvm::json::Value archToJson(const Arch &arch) {
  llvm::json::Array levels;
  for (const StorageLevel &l : arch.levels)
    levels.push_back(llvm::json::Object{
        {"name", l.name},
        {"technology", technologyName(l.technology)},
        {"entries", orNull(l.entries)},
        {"word_bits", l.wordBits},
        {"block_size", l.blockSize},
        {"instances", l.instances},
        {"mesh_x", l.meshX},
        {"mesh_y", l.meshY},
        {"read_bandwidth", orNull(l.readBandwidth)},
        {"write_bandwidth", orNull(l.writeBandwidth)},
        {"read_energy", l.readEnergy},
        {"write_energy", l.writeEnergy},
        {"update_energy", l.updateEnergy},
        {"multiple_buffering", l.multipleBuffering},
        {"holds", rolesToJson(l.holds)},
    });
  const ComputeArray &c = arch.compute;
  return llvm::json::Object{
      {"name", arch.name},
      {"clock_mhz", arch.clockMHz},
      {"compute", llvm::json::Object{{"instances", c.instances},
                                     {"mesh_x", c.meshX},
                                     {"mesh_y", c.meshY},
                                     {"word_bits", c.wordBits},
                                     {"macs_per_cycle", c.macsPerCycle},
                                     {"energy_per_mac", c.energyPerMac}}},
      {"levels", std::move(levels)},
  };
}

llvm::json::Object problemToJson(const Problem &problem) {
  llvm::json::Array loops, iterators, operands;
  for (const LoopDim &dim : problem.dims) {
    loops.push_back(dim.bound);
    iterators.push_back(dim.kind == LoopKind::Reduction ? "reduction"
                                                        : "parallel");
  }
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    const Operand &operand = problem.operands[o];
    llvm::json::Array projection;
    for (const Coordinate &coordinate : operand.projection)
      projection.push_back(problem.format(coordinate));
    operands.push_back(
        llvm::json::Object{{"name", operand.name},
                           {"role", tensorRoleName(operand.role)},
                           {"access", accessName(operand.access)},
                           {"projection", std::move(projection)},
                           {"words", problem.footprint(o)}});
  }
  return llvm::json::Object{{"loops", std::move(loops)},
                            {"iterators", std::move(iterators)},
                            {"operands", std::move(operands)}};
}

} // namespace marlmap
