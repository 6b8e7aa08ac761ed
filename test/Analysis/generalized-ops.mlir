// A named op and its linalg.generic form are the same problem: same loops,
// same iterator kinds, same operand projections and accesses. (Only the
// loops' names differ: linalg's for a named op, d0, d1, ... for a generic.)
// RUN: marlmap-opt %s --marl-describe="format=json output=%t.named.json" -o /dev/null
// RUN: marlmap-opt %s --linalg-generalize-named-ops --marl-describe="format=json output=%t.generic.json" -o /dev/null
// RUN: %python %S/Inputs/same-problems.py %t.named.json %t.generic.json | FileCheck %s --check-prefix=SAME
// SAME: 5 ops, the same problems
// RUN: marlmap-opt %s --linalg-generalize-named-ops --marl-describe -o /dev/null | FileCheck %s

// CHECK: linalg ops: 5, mappable: 5
// CHECK-COUNT-5: linalg.generic at

func.func @ops(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>,
               %nhwc: tensor<1x20x20x16xf32>, %hwcf: tensor<3x3x16x32xf32>, %o2: tensor<1x8x8x32xf32>,
               %dwin: tensor<1x32x16x16xf32>, %dww: tensor<32x3x3xf32>, %dwo: tensor<1x32x14x14xf32>,
               %q: tensor<12x64x32xf32>, %k: tensor<12x32x64xf32>, %s: tensor<12x64x64xf32>)
    -> (tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<1x8x8x32xf32>, tensor<1x32x14x14xf32>, tensor<12x64x64xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
    ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  // Dilated and strided: the input window is (8-1)*2 + (3-1)*2 + 1 = 19.
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%nhwc, %hwcf : tensor<1x20x20x16xf32>, tensor<3x3x16x32xf32>) outs(%o2 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %3 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%dwin, %dww : tensor<1x32x16x16xf32>, tensor<32x3x3xf32>) outs(%dwo : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  %4 = linalg.batch_matmul ins(%q, %k : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%s : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
  return %0, %1, %2, %3, %4 : tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<1x8x8x32xf32>, tensor<1x32x14x14xf32>, tensor<12x64x64xf32>
}
