// my-npu.mlir: 8x8 PEs with a register file each, a shared buffer, DRAM.
module attributes {accel.target = #accel.arch<"my-npu", clock_mhz = 800,
  compute = #accel.compute<instances = 64, mesh_x = 8, energy_per_mac = 0.56>,
  levels = [
    #accel.storage<"RegFile", technology = regfile, entries = 64,
                   instances = 64, mesh_x = 8, read_bandwidth = 3,
                   write_bandwidth = 1, read_energy = 1.1, write_energy = 1.1,
                   holds = [inputs, weights, outputs]>,
    #accel.storage<"GlobalBuffer", entries = 32768, block_size = 4,
                   read_bandwidth = 8, write_bandwidth = 8,
                   read_energy = 6, write_energy = 6,
                   holds = [inputs, outputs]>,
    #accel.storage<"DRAM", technology = dram, block_size = 4,
                   read_bandwidth = 4, write_bandwidth = 4,
                   read_energy = 200, write_energy = 200,
                   holds = [inputs, weights, outputs]>
  ]>} {}
