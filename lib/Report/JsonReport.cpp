//===- JsonReport.cpp - marlmap's figures as JSON -------------------------===//

#include "marlmap/Report/JsonReport.h"

#include "marlmap/Core/Breakdown.h"

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
  // The dataflow, in the #accel.constraint spelling.
  llvm::json::Array constraints;
  for (const Constraint &constraint : arch.constraints)
    constraints.push_back("#accel.constraint<" + constraint.str() + ">");
  return llvm::json::Object{
      {"name", arch.name},
      {"constraints", std::move(constraints)},
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
  llvm::json::Array loops, names, iterators, operands;
  for (const LoopDim &dim : problem.dims) {
    loops.push_back(dim.bound);
    names.push_back(dim.name);
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
                            {"loop_names", std::move(names)},
                            {"iterators", std::move(iterators)},
                            {"operands", std::move(operands)}};
}

llvm::json::Object evaluationToJson(const Evaluation &evaluation,
                                    const Problem &problem, const Arch &arch) {
  // The bound only sets cycles_over_bound, which the report adds itself.
  Breakdown breakdown = breakdownOf(evaluation, arch, LowerBound());
  llvm::json::Object levels, levelFigures;
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    levels[arch.levels[l].name] = llvm::json::Object();
  for (const AccessEnergy &access : breakdown.energy) {
    const OperandStats &stats = evaluation.at(access.level, access.operand);
    levels[arch.levels[access.level].name].getAsObject()->insert(
        {problem.operands[access.operand].name,
         llvm::json::Object{{"reads", stats.totalReads()},
                            {"fills", stats.totalFills()},
                            {"updates", stats.totalUpdates()},
                            {"utilized_capacity", stats.utilizedCapacity},
                            {"instances", stats.instances},
                            {"multicast", stats.multicast},
                            {"spatial_reduction", stats.spatialReduction},
                            {"energy_pJ", stats.energy},
                            {"read_energy_pJ", access.reads},
                            {"fill_energy_pJ", access.fills},
                            {"update_energy_pJ", access.updates}}});
  }
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    levelFigures[arch.levels[l].name] = llvm::json::Object{
        {"cycles", evaluation.levels[l].cycles},
        {"bandwidth_cycles", evaluation.levels[l].bandwidthCycles},
        {"bandwidth_slowdown", evaluation.levels[l].slowdown},
        {"energy_pJ", evaluation.levels[l].energy},
        {"utilized_capacity", evaluation.levels[l].utilizedCapacity}};
  return llvm::json::Object{
      {"cycles", evaluation.cycles},
      {"compute_cycles", evaluation.computeCycles},
      {"cycles_bound_by",
       breakdown.binding ? arch.levels[*breakdown.binding].name : "compute"},
      {"macs", evaluation.macs},
      {"energy_pJ", evaluation.energy},
      {"mac_energy_pJ", evaluation.macEnergy},
      {"edp", evaluation.edp},
      {"utilization", evaluation.utilization},
      {"levels", std::move(levels)},
      {"level_figures", std::move(levelFigures)}};
}

llvm::json::Object lowerBoundToJson(const LowerBound &bound) {
  return llvm::json::Object{{"cycles", bound.cycles},
                            {"energy_pJ", bound.energy},
                            {"edp", double(bound.cycles) * bound.energy}};
}

llvm::json::Object mappingToJson(const Mapping &mapping, const Problem &problem,
                                 const Arch &arch) {
  auto factors = [&](const std::vector<int64_t> &values) {
    llvm::json::Object out;
    for (unsigned d = 0; d < values.size(); ++d)
      if (values[d] != 1)
        out[problem.dims[d].name] = values[d];
    return out;
  };
  llvm::json::Object levels;
  for (unsigned l = 0; l < mapping.levels.size(); ++l) {
    const LevelMapping &level = mapping.levels[l];
    llvm::json::Array order, keep;
    for (unsigned d : level.order)
      order.push_back(problem.dims[d].name);
    for (unsigned o = 0; o < level.keep.size(); ++o)
      if (level.keep[o])
        keep.push_back(problem.operands[o].name);
    levels[arch.levels[l].name] =
        llvm::json::Object{{"temporal", factors(level.temporal)},
                           {"order", std::move(order)},
                           {"spatial_x", factors(level.spatialX)},
                           {"spatial_y", factors(level.spatialY)},
                           {"keep", std::move(keep)}};
  }
  return levels;
}

} // namespace marlmap
