// A matmul small enough for the exhaustive searcher.
func.func @small(%a: tensor<4x2xf32>, %b: tensor<2x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x2xf32>, tensor<2x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
