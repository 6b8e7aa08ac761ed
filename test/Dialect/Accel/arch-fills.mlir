// RUN: marlmap-opt %s -split-input-file | FileCheck %s
// RUN: marlmap-opt %s -split-input-file | marlmap-opt -split-input-file | FileCheck %s

// An accelerator that counts fills with Timeloop's walk says so, printed
// last, after its constraints; the exact rule, the default, is left out.
// CHECK-LABEL: #accel.arch<"walker"
// CHECK-SAME: constraints = [#accel.constraint<"RF", order = [C]>], fills = timeloop>
module attributes {accel.target = #accel.arch<"walker", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"RF", entries = 64, read_energy = 1, write_energy = 1,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  constraints = [#accel.constraint<"RF", order = [C]>],
  fills = timeloop>} {}

// -----

// CHECK-LABEL: #accel.arch<"walker-alone"
// CHECK-SAME: holds = [inputs, weights, outputs]>], fills = timeloop>
module attributes {accel.target = #accel.arch<"walker-alone", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  fills = timeloop>} {}

// -----

// CHECK-LABEL: #accel.arch<"exact"
// CHECK-SAME: holds = [inputs, weights, outputs]>]>
module attributes {accel.target = #accel.arch<"exact", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  fills = exact>} {}

// -----

// fills may come before the constraints; it is printed after them.
// CHECK-LABEL: #accel.arch<"fills-first"
// CHECK-SAME: constraints = [#accel.constraint<"RF", order = [C]>], fills = timeloop>
module attributes {accel.target = #accel.arch<"fills-first", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"RF", entries = 64, read_energy = 1, write_energy = 1,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  fills = timeloop,
  constraints = [#accel.constraint<"RF", order = [C]>]>} {}
