func.func @pool(%a: tensor<1x128x56x56xf32>, %w: tensor<2x2xf32>, %o: tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32> {
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a, %w : tensor<1x128x56x56xf32>, tensor<2x2xf32>) outs(%o : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %r : tensor<1x128x28x28xf32>
}
