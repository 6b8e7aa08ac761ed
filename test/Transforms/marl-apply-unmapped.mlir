// A pass run between --marl-map and --marl-apply that rebuilds the ops
// (here generalisation) drops their mappings: --marl-apply says so.
// RUN: marlmap-opt %s --marl-map="budget=50" --linalg-generalize-named-ops --marl-apply -o /dev/null 2>&1 | FileCheck %s
// RUN: marlmap-opt %s --marl-map="budget=50" --marl-apply -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// CHECK: marl-apply-unmapped.mlir:[[@LINE+3]]:1: warning: marl-apply: 2 mappable linalg ops of this module carry no mapping, and keep their loops (did a pass between --marl-map and --marl-apply drop the accel.mapping attributes?)
// QUIET-NOT: warning

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%0 : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
