// RUN: marlmap-opt %S/../Tools/Inputs/mapped-matmul.mlir --marl-apply | FileCheck %s

// The edge mapping of a 16x8x32 matmul: DRAM holds it all; the global
// buffer walks M by 2 and K by 8 (M outside), spreading M over X and N
// over Y; each register file walks K by 4.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %[[M:.+]] = %{{.+}} to %c16 step %c8
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %c32 step %c4
// CHECK: scf.forall (%{{.+}}, %{{.+}}) in (8, 8)
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<1x1xf32>, tensor<1x1xf32>) outs(%{{.+}} : tensor<1x1xf32>)
// CHECK-NOT: accel.mapping
// CHECK: } {mapping = [#accel.array<x, 0>, #accel.array<y, 0>]}

// RUN: marlmap-opt %s --marl-apply 2>&1 | FileCheck %s --check-prefix=REDUCTION
// Spatial factors on a reduction loop become a sequential loop: partial
// sums cannot be written in parallel.
// REDUCTION-LABEL: func.func @split_k
// REDUCTION: scf.for %{{.+}} = %{{.+}} to %c32 step %c4
// REDUCTION-NOT: scf.forall
// REDUCTION: linalg.matmul
module attributes {accel.target = "edge"} {
  func.func @split_k(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [16, 8, 4], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", spatial_x = [1, 1, 8], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
