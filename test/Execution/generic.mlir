// A linalg.generic contraction (A times B transposed), mapped, rewritten and run against a plain loop nest.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=2" --marl-apply --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: marlmap-opt %s --marl-map="budget=300 seed=2" --marl-apply 2>/dev/null | FileCheck %s --check-prefix=LOOPS

// CHECK: checksum
// CHECK-NEXT: {{^[1-9][0-9]*$}}
// CHECK-NEXT: largest difference
// CHECK-NEXT: {{^}}0{{$}}

// LOOPS-LABEL: func.func @mapped
// LOOPS: scf.for

module attributes {accel.target = "edge"} {
  // The reference: every loop at DRAM, in the op's order.
  func.func @reference(%x0: tensor<12x20xf32>, %x1: tensor<8x20xf32>, %out: tensor<12x8xf32>) -> tensor<12x8xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = []>, #accel.level<"GlobalBuffer", keep = []>, #accel.level<"DRAM", temporal = [12, 8, 20], keep = [0, 1, 2]>]>}
      ins(%x0, %x1 : tensor<12x20xf32>, tensor<8x20xf32>) outs(%out : tensor<12x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    } -> tensor<12x8xf32>
    return %0 : tensor<12x8xf32>
  }
  func.func @mapped(%x0: tensor<12x20xf32>, %x1: tensor<8x20xf32>, %out: tensor<12x8xf32>) -> tensor<12x8xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x0, %x1 : tensor<12x20xf32>, tensor<8x20xf32>) outs(%out : tensor<12x8xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    } -> tensor<12x8xf32>
    return %0 : tensor<12x8xf32>
  }
  func.func @pattern2(%t: tensor<?x?xf32>, %mul: index) -> tensor<?x?xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<?x?xf32>) {
    ^bb0(%o: f32):
      %c7 = arith.constant 7 : index
      %s0 = arith.constant 0 : index
      %i0 = linalg.index 0 : index
      %k0 = arith.constant 1 : index
      %p0 = arith.muli %i0, %k0 : index
      %q0 = arith.muli %p0, %mul : index
      %s1 = arith.addi %s0, %q0 : index
      %i1 = linalg.index 1 : index
      %k1 = arith.constant 3 : index
      %p1 = arith.muli %i1, %k1 : index
      %q1 = arith.muli %p1, %mul : index
      %s2 = arith.addi %s1, %q1 : index
      %m = arith.remui %s2, %c7 : index
      %v = arith.index_cast %m : index to i32
      %f = arith.sitofp %v : i32 to f32
      linalg.yield %f : f32
    } -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  func.func @main() {
    %zero = arith.constant 0.0 : f32
    %m0 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<12x20xf32>
    %d0 = tensor.cast %e0 : tensor<12x20xf32> to tensor<?x?xf32>
    %p0 = call @pattern2(%d0, %m0) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %a0 = tensor.cast %p0 : tensor<?x?xf32> to tensor<12x20xf32>
    %m1 = arith.constant 3 : index
    %e1 = tensor.empty() : tensor<8x20xf32>
    %d1 = tensor.cast %e1 : tensor<8x20xf32> to tensor<?x?xf32>
    %p1 = call @pattern2(%d1, %m1) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %a1 = tensor.cast %p1 : tensor<?x?xf32> to tensor<8x20xf32>
    %eo = tensor.empty() : tensor<12x8xf32>
    %o = linalg.fill ins(%zero : f32) outs(%eo : tensor<12x8xf32>) -> tensor<12x8xf32>
    %ref = call @reference(%a0, %a1, %o) : (tensor<12x20xf32>, tensor<8x20xf32>, tensor<12x8xf32>) -> tensor<12x8xf32>
    %got = call @mapped(%a0, %a1, %o) : (tensor<12x20xf32>, tensor<8x20xf32>, tensor<12x8xf32>) -> tensor<12x8xf32>
    %init = tensor.empty() : tensor<f32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%got : tensor<12x8xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
      (%x: f32, %s: f32) {
        %n = arith.addf %x, %s : f32
        linalg.yield %n : f32
      }
    %worst = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
        ins(%ref, %got : tensor<12x8xf32>, tensor<12x8xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%r: f32, %g: f32, %w: f32):
      %df = arith.subf %r, %g : f32
      %ad = math.absf %df : f32
      %mx = arith.maximumf %ad, %w : f32
      linalg.yield %mx : f32
    } -> tensor<f32>
    %s0 = tensor.extract %sum[] : tensor<f32>
    %w0 = tensor.extract %worst[] : tensor<f32>
    vector.print str "checksum\n"
    vector.print %s0 : f32
    vector.print str "largest difference\n"
    vector.print %w0 : f32
    return
  }
}
