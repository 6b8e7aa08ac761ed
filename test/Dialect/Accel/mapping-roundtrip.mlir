// RUN: marlmap-opt %s | FileCheck %s
// RUN: marlmap-opt %s | marlmap-opt | FileCheck %s

// A 16x8x32 matmul (loops d0 = M, d1 = N, d2 = K) on a 2-level 8x8 array:
// M and N spread over the array at DRAM, K iterates in the register file.
module attributes {accel.target = #accel.arch<"npu", clock_mhz = 800,
  compute = #accel.compute<instances = 64, mesh_x = 8, energy_per_mac = 1.0>,
  levels = [
    #accel.storage<"RegFile", entries = 64, instances = 64, mesh_x = 8,
                   read_energy = 1, write_energy = 1, holds = [inputs, weights, outputs]>,
    #accel.storage<"DRAM", technology = dram, read_energy = 200,
                   write_energy = 200, holds = [inputs, weights, outputs]>
  ]>} {
  // CHECK-LABEL: func.func @matmul
  // CHECK: linalg.matmul {accel.mapping = #accel.mapping<[
  // CHECK-SAME: #accel.level<"RegFile", temporal = [2, 1, 32], order = [2, 1, 0], keep = [0, 1, 2]>,
  // CHECK-SAME: #accel.level<"DRAM", spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>]>}
  func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [2, 1, 32], order = [2, 1, 0], keep = [0, 1, 2]>,
        #accel.level<"DRAM", spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }

  // The register file bypasses the weights; a 3x3 strided conv's loops are
  // (n, f, oh, ow, c, kh, kw).
  // CHECK-LABEL: func.func @conv
  // CHECK: linalg.conv_2d_nchw_fchw {accel.mapping = #accel.mapping<[
  // CHECK-SAME: #accel.level<"RegFile", temporal = [1, 1, 1, 7, 4, 3, 3], order = [4, 5, 6, 3, 0, 1, 2], keep = [0, 2]>,
  // CHECK-SAME: #accel.level<"DRAM", temporal = [1, 2, 7, 1, 1, 1, 1], spatial_x = [1, 8, 1, 1, 1, 1, 1], spatial_y = [1, 1, 1, 1, 2, 1, 1], keep = [0, 1, 2]>]>,
  // CHECK-SAME: dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
  func.func @conv(%in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32> {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>,
        accel.mapping = #accel.mapping<[
          #accel.level<"RegFile", temporal = [1, 1, 1, 7, 4, 3, 3], order = [4, 5, 6, 3, 0, 1, 2], keep = [0, 2]>,
          #accel.level<"DRAM", temporal = [1, 2, 7, 1, 1, 1, 1], spatial_x = [1, 8, 1, 1, 1, 1, 1], spatial_y = [1, 1, 1, 1, 2, 1, 1], keep = [0, 1, 2]>]>}
      ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
    return %0 : tensor<1x16x7x7xf32>
  }
}

// A nested module without a target of its own uses its parent's.
// CHECK-LABEL: module @inner
// CHECK: linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
module attributes {accel.target = "edge"} {
  module @inner {
    func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
      %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
        ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
  }
}
