// A 16x8x32 matmul mapped onto the `edge` preset: M and N over the 8x8
// array, K split between each PE's register file and the buffer.
module attributes {accel.target = "edge"} {
  func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 4], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [2, 1, 8], spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
