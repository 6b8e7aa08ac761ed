// RUN: marlmap-opt %s -split-input-file -verify-diagnostics

// Each case is reported at the constraint (or the field) it concerns.

// expected-error @+2 {{expected a dim name (N, K, C, P, Q, R, S or G), got 'M'}}
// expected-error @+1 {{failed to parse Accel_ConstraintAttr parameter 'x_dims'}}
#bad_dim = #accel.constraint<"Buffer", x_dims = [M]>

// -----

// expected-error @+2 {{expected an op kind (conv, depthwise, gemm or other), got 'pooling'}}
// expected-error @+1 {{failed to parse Accel_ConstraintAttr parameter 'ops'}}
#bad_kind = #accel.constraint<"Buffer", ops = [pooling], x_dims = [K]>

// -----

// expected-error @+1 {{constraint on 'Buffer': 'temporal' names K twice}}
#twice = #accel.constraint<"Buffer", temporal = [K = 1, K = 2]>

// -----

// expected-error @+1 {{constraint on 'Buffer': 'K = 0' must be at least 1}}
#zero = #accel.constraint<"Buffer", temporal = [K = 0]>

// -----

// expected-error @+1 {{constraint on 'Buffer': both keeps and bypasses weights}}
#both = #accel.constraint<"Buffer", keep = [weights], bypass = [weights]>

// -----

// expected-error @+1 {{constraint on 'Buffer': 'P = 2' spreads P, which the level's dims for that axis leave out}}
#left_out = #accel.constraint<"Buffer", x_dims = [K], spatial_x = [P = 2]>

// -----

module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
  compute = #accel.compute<instances = 256, mesh_x = 16, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Reg", technology = regfile, entries = 1, instances = 256,
                   mesh_x = 16, read_energy = 1, write_energy = 1, holds = [weights]>,
    #accel.storage<"Buffer", entries = 65536, read_energy = 7, write_energy = 7,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  constraints = [
    // expected-error @+1 {{constraint on 'Scratch': the accelerator has no storage level 'Scratch'}}
    #accel.constraint<"Scratch", x_dims = [K]>,
    // expected-error @+1 {{constraint on 'Reg': keeps inputs, but the level holds only weights}}
    #accel.constraint<"Reg", keep = [inputs]>,
    // expected-error @+1 {{constraint on 'Buffer': 'K = 32' spreads wider than the level's 16 children along X}}
    #accel.constraint<"Buffer", spatial_x = [K = 32]>,
    // expected-error @+1 {{constraint on 'DRAM': the outermost level keeps every tensor; it cannot bypass weights}}
    #accel.constraint<"DRAM", bypass = [weights]>
  ]>} {
}

// -----

module attributes {accel.target = #accel.arch<"ws", clock_mhz = 1000,
  compute = #accel.compute<instances = 256, mesh_x = 16, energy_per_mac = 1>,
  levels = [
    #accel.storage<"Reg", technology = regfile, entries = 1, instances = 256,
                   mesh_x = 16, read_energy = 1, write_energy = 1, holds = [weights]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>],
  constraints = [
    #accel.constraint<"DRAM", ops = [conv, gemm], order = [K, C]>,
    // expected-error @+1 {{constraint on 'DRAM' for gemm: another constraint on this level applies to the same ops; give each its own 'ops'}}
    #accel.constraint<"DRAM", ops = [gemm], order = [C, K]>
  ]>} {
}
