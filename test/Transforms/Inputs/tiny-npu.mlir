// A user-written accelerator description: a module carrying accel.target.
module attributes {accel.target = #accel.arch<"tiny-npu", clock_mhz = 100,
  compute = #accel.compute<instances = 4, mesh_x = 2, energy_per_mac = 0.5>,
  levels = [
    #accel.storage<"Regs", technology = regfile, entries = 8, instances = 4,
                   mesh_x = 2, read_energy = 0.2, write_energy = 0.2,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_bandwidth = 1,
                   write_bandwidth = 1, read_energy = 100, write_energy = 100,
                   holds = [inputs, weights, outputs]>
  ]>} {}
