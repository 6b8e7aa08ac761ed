// RUN: marlmap-opt %s --marl-map="budget=50" -split-input-file -verify-diagnostics

// Constraints that leave an op no mapping that fits are a warning at the
// op, naming the level; the op stays unmapped and the rest of the module is
// mapped. Here each PE would have to hold every output channel's weight.
module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
  compute = #accel.compute<instances = 16, mesh_x = 4, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Reg", technology = regfile, entries = 1, instances = 16,
                   mesh_x = 4, read_energy = 1, write_energy = 1,
                   holds = [weights]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200,
                   write_energy = 200, holds = [inputs, weights, outputs]>],
  constraints = [
    #accel.constraint<"Reg", ops = [gemm], temporal = [K = full],
                      keep = [weights]>]>} {
  func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>,
               %x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8x8xf32>, tensor<8xf32>) {
    // expected-warning @+1 {{not mapped: no mapping of this op on 'ws': no mapping under the constraints fits: with every factor left free placed outermost, level 'Reg' holds 8 words per instance but has 1, under #accel.constraint<"Reg", ops = [gemm], temporal = [K = full], keep = [weights]>}}
    %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = linalg.add ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
    return %0, %1 : tensor<8x8xf32>, tensor<8xf32>
  }
}

// -----

// A rule that names two loops of an op cannot say which it means.
module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
  compute = #accel.compute<instances = 16, mesh_x = 4, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Reg", technology = regfile, entries = 64, instances = 16,
                   mesh_x = 4, read_energy = 1, write_energy = 1,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200,
                   write_energy = 200, holds = [inputs, weights, outputs]>],
  constraints = [#accel.constraint<"DRAM", temporal = [N = 2]>]>} {
  func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
    // expected-warning @+1 {{not mapped: no mapping of this op on 'ws': constraint on 'DRAM': temporal 'N = 2' is ambiguous: loop d0 (N) and loop d1 (N) both answer to N}}
    %0 = linalg.abs ins(%a : tensor<2x4x8xf32>) outs(%b : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    return %0 : tensor<2x4x8xf32>
  }
}
