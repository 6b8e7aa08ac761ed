// A small convolutional network lowered to linalg (a 3x3 convolution, a
// ReLU, a 1x1 convolution, global sum pooling, a classifier): the model the
// README's and docs' commands map.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module {
  func.func @model(%x: tensor<1x3x32x32xf32>, %w1: tensor<16x3x3x3xf32>,
                   %w2: tensor<32x16x1x1xf32>, %fc: tensor<32x10xf32>)
      -> tensor<1x10xf32> {
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<1x16x30x30xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
    %conv1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>)
      outs(%f1 : tensor<1x16x30x30xf32>) -> tensor<1x16x30x30xf32>
    %relu = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv1 : tensor<1x16x30x30xf32>) outs(%e1 : tensor<1x16x30x30xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<1x16x30x30xf32>
    %e2 = tensor.empty() : tensor<1x32x30x30xf32>
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
    %conv2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%relu, %w2 : tensor<1x16x30x30xf32>, tensor<32x16x1x1xf32>)
      outs(%f2 : tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
    %window = tensor.empty() : tensor<30x30xf32>
    %e3 = tensor.empty() : tensor<1x32x1x1xf32>
    %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32>
    %pool = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%conv2, %window : tensor<1x32x30x30xf32>, tensor<30x30xf32>)
      outs(%f3 : tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32>
    %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x32x1x1xf32> into tensor<1x32xf32>
    %e4 = tensor.empty() : tensor<1x10xf32>
    %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %logits = linalg.matmul ins(%flat, %fc : tensor<1x32xf32>, tensor<32x10xf32>)
      outs(%f4 : tensor<1x10xf32>) -> tensor<1x10xf32>
    return %logits : tensor<1x10xf32>
  }
}
