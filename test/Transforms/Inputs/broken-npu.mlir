// An accelerator whose register files do not fit its MAC array.
module attributes {accel.target = #accel.arch<"broken-npu", clock_mhz = 100,
  compute = #accel.compute<instances = 4, mesh_x = 2, energy_per_mac = 0.5>,
  levels = [
    // 3 register files cannot share 4 MACs evenly.
    #accel.storage<"Regs", technology = regfile, entries = 8, instances = 3,
                   mesh_x = 3, read_energy = 0.2, write_energy = 0.2,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 100,
                   write_energy = 100, holds = [inputs, weights, outputs]>
  ]>} {}
