// RUN: marlmap-opt %s | FileCheck %s
// RUN: marlmap-opt %s | marlmap-opt | FileCheck %s
// RUN: marlmap-opt %s -mlir-print-op-generic | marlmap-opt | FileCheck %s
// RUN: marlmap-opt %s --emit-bytecode | marlmap-opt | FileCheck %s

// Every field, printed back in its canonical order; defaults are left out,
// whole numbers print without a fraction, others keep every digit, and tiny
// or huge reals print in a form MLIR reads back.
// CHECK-LABEL: module attributes {accel.target = #accel.arch<"my-npu", clock_mhz = 812.5,
// CHECK-SAME: compute = #accel.compute<instances = 64, mesh_x = 8, mesh_y = 8, word_bits = 8, macs_per_cycle = 2, energy_per_mac = 1.0e-05>,
// CHECK-SAME: levels = [
// CHECK-SAME: #accel.storage<"RegFile", technology = regfile, entries = 64, word_bits = 8, instances = 64, mesh_x = 8, read_bandwidth = 3, write_bandwidth = 1, read_energy = 0.9764447236180903, write_energy = 1.1, update_energy = 1.25, holds = [inputs, weights, outputs]>,
// CHECK-SAME: #accel.storage<"Column", entries = 0, instances = 8, read_energy = 0, write_energy = 0, holds = []>,
// CHECK-SAME: #accel.storage<"GlobalBuffer", entries = 32768, block_size = 4, read_bandwidth = 8, write_bandwidth = 8, read_energy = 6, write_energy = 6, multiple_buffering = 2, holds = [inputs, outputs]>,
// CHECK-SAME: #accel.storage<"DRAM", technology = dram, block_size = 4, read_bandwidth = 1.0e+23, write_bandwidth = 4, read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>]>}
module attributes {accel.target = #accel.arch<"my-npu", clock_mhz = 812.5,
  compute = #accel.compute<energy_per_mac = 0.00001, macs_per_cycle = 2,
                           word_bits = 8, instances = 64, mesh_y = 8, mesh_x = 8>,
  levels = [
    #accel.storage<"RegFile", technology = regfile, entries = 64, word_bits = 8,
                   instances = 64, mesh_x = 8, read_bandwidth = 3,
                   write_bandwidth = 1, read_energy = 0.9764447236180903,
                   write_energy = 1.1, update_energy = 1.25,
                   holds = [inputs, weights, outputs]>,
    // A fanout-only level, as Timeloop's Eyeriss DummyBuffer.
    #accel.storage<"Column", entries = 0, instances = 8, read_energy = 0,
                   write_energy = 0, holds = []>,
    #accel.storage<"GlobalBuffer", technology = sram, entries = 32768,
                   block_size = 4, read_bandwidth = 8.0, write_bandwidth = 8,
                   read_energy = 6, write_energy = 6.0, multiple_buffering = 2,
                   holds = [inputs, outputs]>,
    #accel.storage<"DRAM", technology = dram, block_size = 4,
                   read_bandwidth = 100000000000000000000000.0, write_bandwidth = 4,
                   read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>
  ]>} {}
