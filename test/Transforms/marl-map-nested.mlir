// A nested module is mapped onto its own target, and the result verifies.
// RUN: marlmap-opt %s --marl-map="budget=100 progress=none" 2>&1 | marlmap-opt | FileCheck %s

// CHECK: module attributes {accel.target = "eyeriss"}
// CHECK: func.func @outer
// CHECK: linalg.matmul {{.*}}accel.mapping = #accel.mapping<[#accel.level<"PsumRegFile"
// CHECK: module @inner attributes {accel.target = "edge"}
// The inner module's ops are its own unit: marl-map on the outer module
// leaves them, and a pipeline nested on builtin.module maps them.
// CHECK: linalg.matmul ins
module {
  func.func @outer(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  module @inner attributes {accel.target = "edge"} {
    func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
  }
}
