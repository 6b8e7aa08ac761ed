// --marl-describe shows the mapping an op carries as a loop nest, the
// loops named as linalg names them, with where its energy and time go.
// RUN: marlmap-opt %s --marl-describe -o /dev/null | FileCheck %s

// A matmul: the GlobalBuffer spreads m over X and n over Y; the RegFile
// keeps only the weights (inputs and outputs bypass it).
// CHECK-LABEL: #0 linalg.matmul
// CHECK-NEXT: mapped: 608 cycles, {{.*}} utilization 10.5%, 9.50x the cycles of every MAC busy
// CHECK-EMPTY:
// CHECK-NEXT: DRAM [ Inputs:512 Weights:256 Outputs:128 ]
// CHECK-NEXT: -------------------------------------------
// CHECK-EMPTY:
// CHECK-NEXT: GlobalBuffer [ Inputs:512 Weights:256 Outputs:128 ] 896 of 32768 words (3%)
// CHECK-NEXT: ---
// CHECK-NEXT: | for k in [0:8)
// CHECK-NEXT: |   for m in [0:2)
// CHECK-NEXT: |     for m in [0:8) (spatial X)
// CHECK-NEXT: |       for n in [0:8) (spatial Y)
// CHECK-EMPTY:
// CHECK-NEXT: RegFile [ Weights:4 ] 4 of 64 words (6%)
// CHECK-NEXT: ---
// CHECK-NEXT: |         for k in [0:4)
// CHECK-NEXT: |           << compute >>
// CHECK-EMPTY:
// CHECK-NEXT: energy pJ reads fills updates total
// CHECK-NEXT: DRAM Inputs 1.02e+05 - - 1.02e+05
// CHECK: RegFile Weights 4.51e+03 2.25e+03 - 6.76e+03
// CHECK-NEXT: MACs 4.10e+03
// CHECK-NEXT: total 2.48e+05
// CHECK-EMPTY:
// CHECK-NEXT: cycles needed by cycles
// CHECK-NEXT: compute 64
// CHECK-NEXT: DRAM bandwidth 192
// CHECK-NEXT: GlobalBuffer bandwidth 608 sets the cycles
// CHECK-NEXT: RegFile bandwidth 32
// CHECK-NEXT: lower bound 64 every MAC busy every cycle: the cycles are 9.50x this

// A depthwise convolution: the RegFile's own order (kw outside kh).
// CHECK-LABEL: #1 linalg.depthwise_conv_2d_nchw_chw
// CHECK: | for ow in [0:2)
// CHECK: GlobalBuffer [ Inputs:1152 Weights:72 Outputs:784 ]
// CHECK: |   for oh in [0:14)
// CHECK-NEXT: |     for ow in [0:7) (spatial X)
// CHECK-NEXT: |       for c in [0:8) (spatial Y)
// CHECK: RegFile [ Weights:9 Outputs:1 ] 10 of 64 words (16%)
// CHECK: |         for kw in [0:3)
// CHECK-NEXT: |           for kh in [0:3)

// A convolution: output channels over X, output rows over Y.
// CHECK-LABEL: #2 linalg.conv_2d_nchw_fchw
// CHECK: |   for f in [0:8) (spatial X)
// CHECK-NEXT: |     for oh in [0:8) (spatial Y)
// CHECK: RegFile [ Weights:36 ] 36 of 64 words (56%)
// CHECK: |       for c in [0:4)
// CHECK-NEXT: |         for kh in [0:3)
// CHECK-NEXT: |           for kw in [0:3)

// A linalg.generic: its loops keep their indexing maps' names; two
// bandwidths set the cycles at once.
// CHECK-LABEL: #3 linalg.generic
// CHECK: | for d1 in [0:2)
// CHECK-NEXT: |   for d1 in [0:8) (spatial X)
// CHECK-NEXT: |     for d2 in [0:8) (spatial Y)
// CHECK: RegFile [ Inputs:8 ] 8 of 64 words (12%)
// CHECK: |       for d3 in [0:8)
// CHECK: DRAM bandwidth 256 sets the cycles
// CHECK-NEXT: GlobalBuffer bandwidth 256 sets the cycles

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %di: tensor<1x8x16x16xf32>, %dw: tensor<8x3x3xf32>, %do: tensor<1x8x14x14xf32>,
               %ci: tensor<1x4x10x10xf32>, %cw: tensor<8x4x3x3xf32>, %co: tensor<1x8x8x8xf32>,
               %x: tensor<1x16x8x8xf32>)
      -> (tensor<16x8xf32>, tensor<1x8x14x14xf32>, tensor<1x8x8x8xf32>, tensor<1x16x8x8xf32>) {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 4], keep = [1]>,
        #accel.level<"GlobalBuffer", temporal = [2, 1, 8], order = [2, 0, 1], spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
        accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 1, 1, 3, 3], order = [0, 1, 2, 3, 5, 4], keep = [1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [1, 14, 1, 1, 1, 1], spatial_x = [1, 1, 7, 1, 1, 1], spatial_y = [1, 1, 1, 8, 1, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", temporal = [1, 1, 2, 1, 1, 1], keep = [0, 1, 2]>]>}
      ins(%di, %dw : tensor<1x8x16x16xf32>, tensor<8x3x3xf32>) outs(%do : tensor<1x8x14x14xf32>) -> tensor<1x8x14x14xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
        accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 1, 1, 4, 3, 3], keep = [1]>,
        #accel.level<"GlobalBuffer", temporal = [1, 1, 1, 8, 1, 1, 1], spatial_x = [1, 8, 1, 1, 1, 1, 1], spatial_y = [1, 1, 8, 1, 1, 1, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%ci, %cw : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%co : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"],
        accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 1, 8], keep = [0]>,
        #accel.level<"GlobalBuffer", temporal = [1, 2, 1, 1], spatial_x = [1, 8, 1, 1], spatial_y = [1, 1, 8, 1], keep = [0, 1]>,
        #accel.level<"DRAM", keep = [0, 1]>]>}
      ins(%x : tensor<1x16x8x8xf32>) outs(%x : tensor<1x16x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<1x16x8x8xf32>
    return %0, %1, %2, %3 : tensor<16x8xf32>, tensor<1x8x14x14xf32>, tensor<1x8x8x8xf32>, tensor<1x16x8x8xf32>
  }
}
