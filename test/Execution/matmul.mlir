// The rewritten matmul computes what the original does: both run, and the
// largest difference of their results is printed (inputs are small integers,
// so sums are exact whatever the order).
// RUN: marlmap-opt %s --marl-apply --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// The same through the transform interpreter, with the script marl-apply writes.
// RUN: marlmap-opt %s --marl-apply="transform-script=%t.transform.mlir" -o %t.tagged.mlir
// RUN: marlmap-opt %t.tagged.mlir --transform-preload-library="transform-library-paths=%t.transform.mlir" --transform-interpreter --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// CHECK: checksum
// CHECK-NEXT: {{^}}16305{{$}}
// CHECK-NEXT: largest difference
// CHECK-NEXT: {{^}}0{{$}}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
module attributes {accel.target = "edge"} {
  func.func @reference(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @mapped(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 4], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [2, 1, 8], order = [2, 0, 1], spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }

  // (i * mul + j * 3) mod 5, as floats.
  func.func @pattern(%t: tensor<?x?xf32>, %mul: index) -> tensor<?x?xf32> {
    %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<?x?xf32>) {
    ^bb0(%o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %x = arith.muli %i, %mul : index
      %y = arith.muli %j, %c3 : index
      %s = arith.addi %x, %y : index
      %m = arith.remui %s, %c5 : index
      %v = arith.index_cast %m : index to i32
      %f = arith.sitofp %v : i32 to f32
      linalg.yield %f : f32
    } -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }

  func.func @main() {
    %c7 = arith.constant 7 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %ea = tensor.empty() : tensor<16x32xf32>
    %eb = tensor.empty() : tensor<32x8xf32>
    %da = tensor.cast %ea : tensor<16x32xf32> to tensor<?x?xf32>
    %db = tensor.cast %eb : tensor<32x8xf32> to tensor<?x?xf32>
    %pa = call @pattern(%da, %c7) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %pb = call @pattern(%db, %c2) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %a = tensor.cast %pa : tensor<?x?xf32> to tensor<16x32xf32>
    %b = tensor.cast %pb : tensor<?x?xf32> to tensor<32x8xf32>
    %ec = tensor.empty() : tensor<16x8xf32>
    %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<16x8xf32>) -> tensor<16x8xf32>
    %ref = call @reference(%a, %b, %c) : (tensor<16x32xf32>, tensor<32x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %got = call @mapped(%a, %b, %c) : (tensor<16x32xf32>, tensor<32x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>

    %init = tensor.empty() : tensor<f32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%got : tensor<16x8xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
      (%x: f32, %s: f32) {
        %n = arith.addf %x, %s : f32
        linalg.yield %n : f32
      }
    %worst = linalg.generic {indexing_maps = [#id, #id, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
        ins(%ref, %got : tensor<16x8xf32>, tensor<16x8xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%r: f32, %g: f32, %w: f32):
      %d = arith.subf %r, %g : f32
      %ad = math.absf %d : f32
      %m = arith.maximumf %ad, %w : f32
      linalg.yield %m : f32
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
