// Three ops, two distinct problems, one op that cannot be mapped.
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>,
               %dyn: tensor<?x32xf32>, %dc: tensor<?x8xf32>)
      -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<?x8xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
      ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
    %3 = linalg.matmul ins(%dyn, %b : tensor<?x32xf32>, tensor<32x8xf32>) outs(%dc : tensor<?x8xf32>) -> tensor<?x8xf32>
    return %0, %1, %2, %3 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<?x8xf32>
  }
}
