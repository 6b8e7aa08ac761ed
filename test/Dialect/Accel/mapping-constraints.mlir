// RUN: marlmap-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: marlmap-opt %s -split-input-file -verify-diagnostics --marl-apply -o /dev/null

// A hand-written mapping must obey the target's dataflow; the verifier
// names the constraint and the loop it breaks, at the op. The target is
// `systolic-ws`: K along X and C along Y at the GlobalBuffer, one weight per
// WeightReg. The matmul's loops m, n, k answer to P, K, C.

// CHECK-LABEL: func.func @obeys
// CHECK: linalg.matmul {accel.mapping
module attributes {accel.target = "systolic-ws"} {
  func.func @obeys(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"WeightReg", temporal = [4, 1, 1], keep = [1]>, #accel.level<"GlobalBuffer", spatial_x = [1, 8, 1], spatial_y = [1, 1, 16], keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [4, 1, 2], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "systolic-ws"} {
  func.func @rows_along_x(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{breaks the constraint on 'GlobalBuffer' 'x_dims': loop m (P) is spread 2 ways along X}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"WeightReg", keep = [1]>, #accel.level<"GlobalBuffer", spatial_x = [2, 1, 1], keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [8, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "systolic-ws"} {
  func.func @two_weights_per_pe(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{breaks the constraint on 'WeightReg' 'temporal K = 1': loop n (K) has factor 2, not 1}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"WeightReg", temporal = [1, 2, 1], keep = [1]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 4, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "systolic-ws"} {
  func.func @weights_bypass_the_pe(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{breaks the constraint on 'WeightReg' 'keep': operand 'Weights' (weights) bypasses it}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"WeightReg", keep = []>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// Eyeriss's row-stationary dataflow fixes the weight register file's order:
// R outside C. Loops of factor 1 may stand anywhere.
module attributes {accel.target = "eyeriss-rs"} {
  func.func @order(%i: tensor<1x8x10x10xf32>, %w: tensor<4x8x3x3xf32>, %o: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    // expected-error @+1 {{breaks the constraint on 'WeightRegFile' 'order': the loops that iterate are not in its order}}
    %0 = linalg.conv_2d_nchw_fchw {accel.mapping = #accel.mapping<[#accel.level<"PsumRegFile", temporal = [1, 4, 1, 1, 1, 1, 1], keep = [2]>, #accel.level<"WeightRegFile", temporal = [1, 1, 1, 1, 2, 1, 3], order = [4, 6, 0, 1, 2, 3, 5], keep = [1]>, #accel.level<"InputRegFile", keep = [0]>, #accel.level<"GlobalBuffer", temporal = [1, 1, 1, 8, 1, 1, 1], spatial_x = [1, 1, 8, 1, 1, 1, 1], spatial_y = [1, 1, 1, 1, 4, 3, 1], keep = [0, 2]>, #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%i, %w : tensor<1x8x10x10xf32>, tensor<4x8x3x3xf32>) outs(%o : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    return %0 : tensor<1x4x8x8xf32>
  }
}

// -----

// CHECK-LABEL: func.func @order_of_the_loops_that_iterate
// CHECK: linalg.conv_2d_nchw_fchw {accel.mapping
module attributes {accel.target = "eyeriss-rs"} {
  func.func @order_of_the_loops_that_iterate(%i: tensor<1x8x10x10xf32>, %w: tensor<4x8x3x3xf32>, %o: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    %0 = linalg.conv_2d_nchw_fchw {accel.mapping = #accel.mapping<[#accel.level<"PsumRegFile", temporal = [1, 4, 1, 1, 1, 1, 1], keep = [2]>, #accel.level<"WeightRegFile", temporal = [1, 1, 1, 1, 2, 1, 3], order = [0, 6, 1, 4, 2, 3, 5], keep = [1]>, #accel.level<"InputRegFile", keep = [0]>, #accel.level<"GlobalBuffer", temporal = [1, 1, 1, 8, 1, 1, 1], spatial_x = [1, 1, 8, 1, 1, 1, 1], spatial_y = [1, 1, 1, 1, 4, 3, 1], keep = [0, 2]>, #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%i, %w : tensor<1x8x10x10xf32>, tensor<4x8x3x3xf32>) outs(%o : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    return %0 : tensor<1x4x8x8xf32>
  }
}
