//===- Presets.cpp - Named accelerator descriptions -----------------------===//
//
// Energies are per word in pJ. For eyeriss, simba, systolic-ws and
// systolic-os they are the values Timeloop v3.0.3's built-in PAT model gives
// for the same levels (see ../shared/reference/timeloop), so these presets and
// the reference cases describe the same machines.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Presets.h"

namespace marlmap {
namespace {

constexpr double kDramEnergy = 200.0;
constexpr double kMacEnergy = 1.0;

RoleSet roles(std::initializer_list<TensorRole> list) {
  RoleSet set;
  for (TensorRole role : list)
    set.insert(role);
  return set;
}

StorageLevel level(std::string name, Technology tech,
                   std::optional<int64_t> entries, int64_t meshX, int64_t meshY,
                   double energy, RoleSet holds) {
  StorageLevel l;
  l.name = std::move(name);
  l.technology = tech;
  l.entries = entries;
  l.meshX = meshX;
  l.meshY = meshY;
  l.instances = meshX * meshY;
  l.readEnergy = l.writeEnergy = l.updateEnergy = energy;
  l.holds = holds;
  return l;
}

StorageLevel withBandwidth(StorageLevel l, double read, double write) {
  l.readBandwidth = read;
  l.writeBandwidth = write;
  return l;
}

StorageLevel withBlock(StorageLevel l, int64_t blockSize) {
  l.blockSize = blockSize;
  return l;
}

StorageLevel dram(double readBw = 0, double writeBw = 0,
                  int64_t blockSize = 1) {
  StorageLevel l = level("DRAM", Technology::DRAM, std::nullopt, 1, 1,
                         kDramEnergy, RoleSet::all());
  if (readBw > 0)
    l = withBandwidth(l, readBw, writeBw);
  return withBlock(l, blockSize);
}

ComputeArray macs(int64_t meshX, int64_t meshY) {
  ComputeArray c;
  c.meshX = meshX;
  c.meshY = meshY;
  c.instances = meshX * meshY;
  c.energyPerMac = kMacEnergy;
  return c;
}

constexpr auto In = TensorRole::Inputs;
constexpr auto W = TensorRole::Weights;
constexpr auto Out = TensorRole::Outputs;

constexpr auto N = DimName::N, K = DimName::K, C = DimName::C, P = DimName::P,
               Q = DimName::Q, R = DimName::R, S = DimName::S;

/// Exact factor 1 for each of `dims`: they do not iterate there.
std::vector<FactorRule> ones(std::initializer_list<DimName> dims) {
  std::vector<FactorRule> rules;
  for (DimName dim : dims)
    rules.push_back({dim, FactorRule::Bound::Exact, 1});
  return rules;
}

FactorRule full(DimName dim) { return {dim, FactorRule::Bound::Full, 0}; }

Constraint at(std::string level) {
  Constraint c;
  c.level = std::move(level);
  return c;
}

/// Eyeriss (Chen et al., ISCA 2016) as in Timeloop's eyeriss-256 example:
/// 14x12 PEs, each with separate psum / weight / input register files, a
/// 128 KB global buffer that bypasses weights, and DRAM.
Arch eyeriss() {
  Arch a;
  a.name = "eyeriss";
  a.clockMHz = 200.0;
  a.compute = macs(14, 12);
  a.levels = {
      withBandwidth(level("PsumRegFile", Technology::RegFile, 16, 14, 12,
                          0.9764447236180903, roles({Out})),
                    2, 2),
      withBandwidth(level("WeightRegFile", Technology::RegFile, 192, 14, 12,
                          0.9937185929648241, roles({W})),
                    2, 2),
      withBandwidth(level("InputRegFile", Technology::RegFile, 12, 14, 12,
                          0.976052135678392, roles({In})),
                    2, 2),
      withBlock(withBandwidth(level("GlobalBuffer", Technology::SRAM, 65536, 1,
                                    1, 7.407035175879397, roles({In, Out})),
                              16, 16),
                4),
      dram(),
  };
  return a;
}

/// Eyeriss with its row-stationary dataflow, as Timeloop's eyeriss-256
/// example constrains it: each PE keeps one filter row (R whole in the
/// weight register file) and accumulates over C and K; filter rows S, input
/// channels C and output channels K go along the PE columns (Y), output rows
/// Q and output channels K along the rows (X); the global buffer walks whole
/// output columns P. Timeloop's separate Y-fanout level is folded into the
/// global buffer's fanout, which is the same since that level keeps nothing.
Arch eyerissRowStationary() {
  Arch a = eyeriss();
  a.name = "eyeriss-rs";
  Constraint psum = at("PsumRegFile");
  psum.temporal = ones({N, P, Q, R, S});
  psum.keep = {Out};
  Constraint weights = at("WeightRegFile");
  weights.temporal = ones({N, K, P, Q, S});
  weights.temporal.push_back(full(R));
  weights.order = {R, C, S, Q, P, K, N};
  weights.keep = {W};
  Constraint inputs = at("InputRegFile");
  inputs.temporal = ones({N, K, C, P, Q, R, S});
  inputs.keep = {In};
  Constraint buffer = at("GlobalBuffer");
  buffer.temporal = ones({Q, R, S, C});
  buffer.temporal.push_back(full(P));
  buffer.order = {K, N, P, C, S, R, Q};
  buffer.keep = {In, Out};
  buffer.spatialXDims = {Q, K};
  buffer.spatialYDims = {S, C, K};
  buffer.spatialY = {full(S)};
  Constraint dram = at("DRAM");
  dram.temporal = ones({R, S, P});
  dram.order = {Q, N, K, C, P, S, R};
  a.constraints = {psum, weights, inputs, buffer, dram};
  return a;
}

/// Simba (Shao et al., MICRO 2019), one chiplet shrunk to 16 PEs of 4 vector
/// MACs x 4 lanes (256 MACs), as in the reference cases.
Arch simba() {
  Arch a;
  a.name = "simba";
  a.clockMHz = 1000.0;
  a.compute = macs(64, 4);
  a.levels = {
      level("PEWeightRegs", Technology::RegFile, 1, 64, 4, 0.974972518844221,
            roles({W})),
      withBandwidth(level("PEAccuBuffer", Technology::RegFile, 128, 16, 4,
                          0.9874371859296482, roles({Out})),
                    2, 2),
      withBlock(withBandwidth(level("PEWeightBuffer", Technology::SRAM, 16384,
                                    16, 1, 2.5829145728643224, roles({W})),
                              8, 8),
                8),
      withBlock(withBandwidth(level("PEInputBuffer", Technology::SRAM, 4096, 16,
                                    1, 1.3768844221105527, roles({In})),
                              8, 8),
                8),
      withBlock(withBandwidth(level("GlobalBuffer", Technology::SRAM, 32768, 1,
                                    1, 4.190954773869347, roles({In, Out})),
                              32, 32),
                16),
      dram(16, 16, 4),
  };
  return a;
}

/// A 16x16 weight-stationary systolic array (TPU-like): one weight register
/// per PE under a shared 128 KB buffer. Output channels K go along X and
/// input channels C along Y (partial sums flow down the columns); each PE
/// holds one weight while the outputs stream past. A depthwise conv has no
/// K: its channels take K's place along X.
Arch systolicWS() {
  Arch a;
  a.name = "systolic-ws";
  a.clockMHz = 1000.0;
  a.compute = macs(16, 16);
  a.levels = {
      level("WeightReg", Technology::RegFile, 1, 16, 16, 0.9749725188442211,
            roles({W})),
      withBlock(withBandwidth(level("GlobalBuffer", Technology::SRAM, 65536, 1,
                                    1, 7.407035175879397, RoleSet::all()),
                              32, 16),
                4),
      dram(),
  };
  Constraint reg = at("WeightReg");
  reg.temporal = ones({C, K, R, S});
  reg.keep = {W};
  Constraint array = at("GlobalBuffer");
  array.keep = {In, W, Out};
  array.spatialXDims = {K};
  array.spatialYDims = {C};
  Constraint depthwise = array;
  depthwise.ops = {OpKind::Depthwise};
  depthwise.spatialXDims = {C};
  depthwise.spatialYDims = std::vector<DimName>();
  a.constraints = {reg, array, depthwise};
  return a;
}

/// A 16x16 output-stationary systolic array (ShiDianNao-like): one
/// accumulator per PE under a shared 128 KB buffer. Output columns and rows
/// go along X and output channels along Y, with no spatial reduction; each
/// PE holds one output while C, R and S iterate. A depthwise conv's
/// channels are output channels: they take K's place.
Arch systolicOS() {
  Arch a;
  a.name = "systolic-os";
  a.clockMHz = 1000.0;
  a.compute = macs(16, 16);
  a.levels = {
      level("AccumReg", Technology::RegFile, 1, 16, 16, 0.974972518844221,
            roles({Out})),
      withBlock(withBandwidth(level("GlobalBuffer", Technology::SRAM, 65536, 1,
                                    1, 7.407035175879397, RoleSet::all()),
                              32, 32),
                4),
      dram(),
  };
  Constraint reg = at("AccumReg");
  reg.temporal = ones({K, P, Q, N});
  reg.keep = {Out};
  Constraint regDepthwise = at("AccumReg");
  regDepthwise.ops = {OpKind::Depthwise};
  regDepthwise.temporal = ones({C, P, Q, N});
  regDepthwise.keep = {Out};
  Constraint array = at("GlobalBuffer");
  array.keep = {In, W, Out};
  array.spatialXDims = {Q, P};
  array.spatialYDims = {K};
  Constraint arrayDepthwise = array;
  arrayDepthwise.ops = {OpKind::Depthwise};
  arrayDepthwise.spatialYDims = {C};
  a.constraints = {reg, regDepthwise, array, arrayDepthwise};
  return a;
}

/// A small edge accelerator: 8x8 PEs with a 64-word register file each, a
/// 64 KB global buffer and a narrow LPDDR interface.
Arch edge() {
  Arch a;
  a.name = "edge";
  a.clockMHz = 500.0;
  a.compute = macs(8, 8);
  a.levels = {
      withBandwidth(
          level("RegFile", Technology::RegFile, 64, 8, 8, 1.1, RoleSet::all()),
          3, 1),
      withBlock(withBandwidth(level("GlobalBuffer", Technology::SRAM, 32768, 1,
                                    1, 6.0, RoleSet::all()),
                              8, 8),
                4),
      dram(4, 4, 4),
  };
  return a;
}

struct PresetEntry {
  const char *name;
  Arch (*make)();
};

const PresetEntry kPresets[] = {
    {"eyeriss", eyeriss},
    {"eyeriss-rs", eyerissRowStationary},
    {"simba", simba},
    {"systolic-ws", systolicWS},
    {"systolic-os", systolicOS},
    {"edge", edge},
};

} // namespace

const std::vector<std::string> &presetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PresetEntry &entry : kPresets)
      out.push_back(entry.name);
    return out;
  }();
  return names;
}

std::optional<Arch> findPreset(const std::string &name) {
  for (const PresetEntry &entry : kPresets)
    if (name == entry.name)
      return entry.make();
  return std::nullopt;
}

} // namespace marlmap
