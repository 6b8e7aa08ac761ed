// RUN: marlmap-opt %s -split-input-file -verify-diagnostics

// A level that holds tensors needs room for them.
module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'RF': 'entries' must be positive for a level that holds inputs, weights, outputs, got 0}}
    #accel.storage<"RF", entries = 0, read_energy = 1, write_energy = 1, holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'RF': 'entries' must be positive for a level that holds outputs, got -16}}
    #accel.storage<"RF", entries = -16, read_energy = 1, write_energy = 1, holds = [outputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'word_bits' must be positive, got 0}}
    #accel.storage<"DRAM", word_bits = 0, read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'block_size' must be positive, got -4}}
    #accel.storage<"DRAM", block_size = -4, read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 16, mesh_x = 4, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'RF': mesh_x = 4 and mesh_y = 3 cannot lay out 16 instances}}
    #accel.storage<"RF", entries = 8, instances = 16, mesh_x = 4, mesh_y = 3, read_energy = 1, write_energy = 1, holds = [inputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 168, mesh_x = 14, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'RF': mesh_x = 5 cannot lay out 168 instances}}
    #accel.storage<"RF", entries = 8, instances = 168, mesh_x = 5, read_energy = 1, write_energy = 1, holds = [inputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'read_bandwidth' must be positive and finite, got 0}}
    #accel.storage<"DRAM", read_bandwidth = 0, read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'write_energy' must be finite and not negative, got -2.5}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = -2.5, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'read_energy' must be finite and not negative, got inf}}
    #accel.storage<"DRAM", read_energy = 1.0e400, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 16, mesh_x = 4, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'RF': 'mesh_x' must be positive, got 0}}
    #accel.storage<"RF", entries = 8, instances = 16, mesh_x = 0, read_energy = 1, write_energy = 1, holds = [inputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

// Mesh sides whose product wraps around to the instance count are no mesh.
module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': mesh_x = 9223372036854775807 and mesh_y = 9223372036854775807 cannot lay out 1 instances}}
    #accel.storage<"DRAM", mesh_x = 9223372036854775807, mesh_y = 9223372036854775807, read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'multiple_buffering' must be at least 1, got 0.5}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, multiple_buffering = 0.5, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'holds' lists weights twice}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Buffer", entries = 64, read_energy = 1, write_energy = 1, holds = [inputs]>,
    // expected-error @+1 {{storage level 'Buffer': the name is used by another level}}
    #accel.storage<"Buffer", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

// 14 columns of register files cannot hang evenly under 4 buffer columns.
module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 14, energy_per_mac = 1>,
  levels = [
    #accel.storage<"RF", entries = 8, instances = 14, read_energy = 1, write_energy = 1, holds = [weights]>,
    // expected-error @+1 {{storage level 'Row': mesh_x 4 does not divide the mesh_x 14 of 'RF' below it, so the fanout is not whole}}
    #accel.storage<"Row", entries = 512, instances = 4, read_energy = 3, write_energy = 3, holds = [inputs]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"GLB", entries = 64, read_energy = 1, write_energy = 1, holds = [inputs, weights, outputs]>,
    // expected-error @+1 {{storage level 'DRAM': the outermost level must hold inputs, weights and outputs (it holds inputs, outputs)}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  // expected-error @+1 {{compute array: 8 MACs cannot be fed by 16 instances of the innermost level 'RF'}}
  compute = #accel.compute<instances = 8, energy_per_mac = 1>,
  levels = [
    #accel.storage<"RF", entries = 8, instances = 16, read_energy = 1, write_energy = 1, holds = [weights]>,
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  // expected-error @+1 {{compute array: MAC operands of 32 bits do not fit the 16-bit words of the innermost level 'DRAM'}}
  compute = #accel.compute<instances = 1, word_bits = 32, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a",
  // expected-error @+1 {{accelerator 'a': 'clock_mhz' must be positive and finite, got 0}}
  clock_mhz = 0,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  // expected-error @+1 {{accelerator 'a': needs at least one storage level}}
  levels = []>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  // expected-error @+1 {{compute array: 'macs_per_cycle' must be positive, got 0}}
  compute = #accel.compute<instances = 1, macs_per_cycle = 0, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{struct is missing required parameter: write_energy}}
    #accel.storage<"DRAM", read_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+2 {{expected one of [inputs, weights, outputs] for the role a tensor plays in a DNN op, got: filters}}
    // expected-error @+1 {{failed to parse Accel_StorageLevelAttr parameter 'holds'}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, filters]>
  ]>} {}

// -----

// expected-error @+1 {{unknown accelerator preset 'tpu' (presets: eyeriss, eyeriss-rs, simba, systolic-ws, systolic-os, edge)}}
module attributes {accel.target = "tpu"} {}

// -----

// expected-error @+1 {{'accel.target' must be a preset name or an #accel.arch, got 42 : i64}}
module attributes {accel.target = 42} {}

// -----

module {
  // expected-error @+1 {{'accel.target' belongs on a builtin.module}}
  func.func @f() attributes {accel.target = "eyeriss"} {
    return
  }
}

// -----

// expected-error @+1 {{unknown attribute 'accel.tagret' of the accel dialect}}
module attributes {accel.tagret = "eyeriss"} {}

// -----

// Figures so large that the model's totals would overflow are refused where
// they enter.
module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  // expected-error @+1 {{compute array: 'energy_per_mac' must be at most 1e+06, got 1e+308}}
  compute = #accel.compute<instances = 1, energy_per_mac = 1.0e308>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'read_bandwidth' must be at least 1e-06, got 1e-09}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, read_bandwidth = 1.0e-9, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

// A hexadecimal literal is read as the integer it spells: far too fast a
// clock.
// expected-error @+1 {{accelerator 'a': 'clock_mhz' must be at most 1e+07, got 9.22112e+18}}
module attributes {accel.target = #accel.arch<"a", clock_mhz = 0x7FF8000000000000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {}

// -----

// A literal beyond a double reads as infinity, and is refused by name.
module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    // expected-error @+1 {{storage level 'DRAM': 'write_energy' must be finite and not negative, got inf}}
    #accel.storage<"DRAM", read_energy = 200, write_energy = 1.0e400, holds = [inputs, weights, outputs]>
  ]>} {}


// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  // expected-error @+1 {{fills must be exact or timeloop, not 'walk'}}
  fills = walk>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  // expected-error @+1 {{expected 'constraints' or 'fills'}}
  fill = exact>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  fills = exact,
  // expected-error @+1 {{'fills' is given twice}}
  fills = timeloop>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  constraints = [],
  // expected-error @+1 {{'constraints' is given twice}}
  constraints = []>} {}

// -----

module attributes {accel.target = #accel.arch<"a", clock_mhz = 1000,
  compute = #accel.compute<instances = 1, energy_per_mac = 1>,
  levels = [
    #accel.storage<"DRAM", read_energy = 200, write_energy = 200, holds = [inputs, weights, outputs]>
  ],
  fills = exact,
  // expected-error @+1 {{expected 'constraints'}}
  >} {}
