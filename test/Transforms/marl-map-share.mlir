// Alike problems sharing agents (policy-share): the same mappings on any
// thread count, and not those of problems that learn alone.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-share=4 threads=1" 2>/dev/null > %t.one
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-share=4 threads=2" 2>/dev/null > %t.two
// RUN: diff %t.one %t.two
// RUN: marlmap-opt %s --mlir-disable-threading --marl-map="budget=300 seed=3 searcher=marl policy-share=4" 2>/dev/null > %t.zero
// RUN: diff %t.one %t.zero
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-share=0" 2>/dev/null > %t.alone
// RUN: not diff %t.one %t.alone
// RUN: FileCheck %s < %t.one
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-share=65" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE

// Three matmuls of different shapes, searched as one group.
// CHECK-COUNT-3: linalg.matmul {accel.cost = {{.*}}samples = 300 : i64{{.*}}, accel.mapping = #accel.mapping<

// RANGE: policy-share must be an integer from 0 to 64, not '65'

module attributes {accel.target = "edge"} {
func.func @ops(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %d: tensor<32x64xf32>, %e: tensor<64x16xf32>, %f: tensor<32x16xf32>,
               %g: tensor<16x64xf32>, %h: tensor<64x8xf32>)
    -> (tensor<16x8xf32>, tensor<32x16xf32>, tensor<16x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<32x64xf32>, tensor<64x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<16x64xf32>, tensor<64x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1, %2 : tensor<16x8xf32>, tensor<32x16xf32>, tensor<16x8xf32>
}
}
