// RUN: marlmap-opt %s -split-input-file | FileCheck %s
// RUN: marlmap-opt %s -split-input-file | marlmap-opt -split-input-file | FileCheck %s
// RUN: marlmap-opt %s -split-input-file -mlir-print-op-generic | marlmap-opt -split-input-file | FileCheck %s

// Constraints print every field they set, in a fixed order; an empty dim
// list is kept (nothing may spread along that axis), a left-out one is not.
// CHECK-LABEL: module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
// CHECK-SAME: constraints = [
// CHECK-SAME: #accel.constraint<"Reg", temporal = [C = 1, K = 1, R = 1, S = 1], keep = [weights]>,
// CHECK-SAME: #accel.constraint<"Buffer", x_dims = [K], y_dims = [C], keep = [inputs, weights, outputs]>,
// CHECK-SAME: #accel.constraint<"Buffer", ops = [depthwise, other], order = [K, C], x_dims = [C, R], y_dims = [], spatial_x = [C max 8, R = full], exclusive_axes = true>]>}
module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
  compute = #accel.compute<instances = 256, mesh_x = 16, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Reg", technology = regfile, entries = 1, instances = 256,
                   mesh_x = 16, read_energy = 1, write_energy = 1,
                   holds = [weights]>,
    #accel.storage<"Buffer", entries = 65536, read_energy = 7,
                   write_energy = 7, holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200,
                   write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  constraints = [
    #accel.constraint<"Reg", keep = [weights],
                      temporal = [C = 1, K = 1, R = 1, S = 1]>,
    #accel.constraint<"Buffer", x_dims = [K], y_dims = [C],
                      keep = [inputs, weights, outputs]>,
    #accel.constraint<"Buffer", ops = [depthwise, other], x_dims = [C, R],
                      y_dims = [], spatial_x = [C max 8, R = full],
                      order = [K, C], exclusive_axes = true>
  ]>} {
}

