// With transform-script, marl-apply leaves the loops to the transform
// interpreter: it tags each mapped op and writes the tilings as a script.
// RUN: marlmap-opt %S/../Tools/Inputs/mapped-matmul.mlir --marl-apply="transform-script=%t.transform.mlir" -o %t.tagged.mlir
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.transform.mlir
// RUN: FileCheck %s --check-prefix=TAGGED < %t.tagged.mlir
// RUN: marlmap-opt %t.tagged.mlir --transform-preload-library="transform-library-paths=%t.transform.mlir" --transform-interpreter | FileCheck %s --check-prefix=LOOPS

// The edge mapping of a 16x8x32 matmul: the global buffer's temporal band
// (M outside K), its 8x8 array, then the register file's walk over K.
// SCRIPT: module attributes {transform.with_named_sequence}
// SCRIPT: transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly})
// SCRIPT-NEXT: %op0 = transform.structured.match attributes {accel.op_id = 0 : i64} in %root
// SCRIPT-NEXT: %op0_0, %loops0_0:2 = transform.structured.tile_using_for %op0 tile_sizes [8, 0, 4] interchange = [0, 1, 2]
// SCRIPT-NEXT: %op0_1, %loops0_1 = transform.structured.tile_using_forall %op0_0 tile_sizes [1, 1, 0] (mapping = [#accel.array<x, 0>, #accel.array<y, 0>])
// SCRIPT-NEXT: %op0_2, %loops0_2 = transform.structured.tile_using_for %op0_1 tile_sizes [0, 0, 1] interchange = [0, 1, 2]
// SCRIPT-NEXT: transform.yield

// TAGGED-NOT: scf.for
// TAGGED: linalg.matmul {accel.op_id = 0 : i64}
// TAGGED-NOT: accel.mapping

// The interpreter builds the loops marl-apply itself would.
// LOOPS: scf.for %{{.+}} = %{{.+}} to %c16 step %c8
// LOOPS: scf.for %{{.+}} = %{{.+}} to %c32 step %c4
// LOOPS: scf.forall (%{{.+}}, %{{.+}}) in (8, 8)
// LOOPS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1
// LOOPS: linalg.matmul {{.*}}ins(%{{.+}}, %{{.+}} : tensor<1x1xf32>, tensor<1x1xf32>)
// LOOPS: } {mapping = [#accel.array<x, 0>, #accel.array<y, 0>]}

// Every mapped op of a module gets its own id and its own steps.
// RUN: marlmap-opt %s --marl-apply="transform-script=%t.two.mlir" | FileCheck %s --check-prefix=TWO
// RUN: FileCheck %s --check-prefix=TWO-SCRIPT < %t.two.mlir
// TWO: linalg.matmul {accel.op_id = 0 : i64}
// TWO: linalg.matmul ins
// TWO: linalg.matmul {accel.op_id = 1 : i64}
// TWO-SCRIPT: match attributes {accel.op_id = 0 : i64}
// TWO-SCRIPT: tile_using_for %op0 tile_sizes [0, 0, 4]
// TWO-SCRIPT: match attributes {accel.op_id = 1 : i64}
// TWO-SCRIPT: tile_using_forall %op1 tile_sizes [2, 0, 0] (mapping = [#accel.array<y, 0>])

// RUN: not marlmap-opt %s --marl-apply="transform-script=%t.missing/dir/script.mlir" 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: cannot write the transform script: {{.+}}
module attributes {accel.target = "edge"} {
  func.func @two(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [16, 8, 4], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [1, 1, 8], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%0 : tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [2, 8, 32], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", spatial_y = [8, 1, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%1 : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %2 : tensor<16x8xf32>
  }
}
