// Three small products (two of them equal): small enough for the exact
// searcher to prove each optimum in a moment.
module {
  func.func @tiny(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>,
                  %d: tensor<8x4xf32>, %e: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = linalg.matmul ins(%0, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = linalg.matmul ins(%d, %b : tensor<8x4xf32>, tensor<4x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0, %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<8x4xf32>
  }
}
