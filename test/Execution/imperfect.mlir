// Mappings whose tiles do not divide their loops (bounds 7, 13, 56 and 197)
// rewritten with partial tiles compute what the ops compute: both run, and
// the largest difference of their results is printed (inputs are small
// integers, so sums are exact whatever the order).
// RUN: marlmap-opt %s --marl-apply --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// The same through the transform interpreter, with the script marl-apply writes.
// RUN: marlmap-opt %s --marl-apply="transform-script=%t.transform.mlir" -o %t.tagged.mlir
// RUN: marlmap-opt %t.tagged.mlir --transform-preload-library="transform-library-paths=%t.transform.mlir" --transform-interpreter --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: marlmap-opt %s --marl-apply 2>/dev/null | FileCheck %s --check-prefix=TILES

// CHECK: matmul checksum
// CHECK-NEXT: {{^}}20418{{$}}
// CHECK-NEXT: largest difference
// CHECK-NEXT: {{^}}0{{$}}
// CHECK-NEXT: matvec checksum
// CHECK-NEXT: {{^}}9463{{$}}
// CHECK-NEXT: largest difference
// CHECK-NEXT: {{^}}0{{$}}

// The last tiles are bounded: 7 rows over four columns of two, 13 over
// seven rows of two, 197 over seven tiles of 32.
// TILES-LABEL: func.func @mapped_matmul
// TILES: scf.forall
// TILES: affine.min
// TILES-LABEL: func.func @mapped_matvec
// TILES: scf.for
// TILES: affine.min

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
module attributes {accel.target = "edge"} {
  func.func @reference_matmul(%a: tensor<7x56xf32>, %b: tensor<56x13xf32>, %c: tensor<7x13xf32>) -> tensor<7x13xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<7x56xf32>, tensor<56x13xf32>) outs(%c : tensor<7x13xf32>) -> tensor<7x13xf32>
    return %0 : tensor<7x13xf32>
  }
  // m = 7: four columns of 2; n = 13: seven rows of 2; k = 56: DRAM's two
  // tiles of 32, the second of 24.
  func.func @mapped_matmul(%a: tensor<7x56xf32>, %b: tensor<56x13xf32>, %c: tensor<7x13xf32>) -> tensor<7x13xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [2, 2, 8], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [1, 1, 4], order = [2, 0, 1], spatial_x = [4, 1, 1], spatial_y = [1, 7, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", temporal = [1, 1, 2], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<7x56xf32>, tensor<56x13xf32>) outs(%c : tensor<7x13xf32>) -> tensor<7x13xf32>
    return %0 : tensor<7x13xf32>
  }

  func.func @reference_matvec(%x: tensor<197x13xf32>, %w: tensor<13xf32>, %out: tensor<197xf32>) -> tensor<197xf32> {
    %0 = linalg.generic {indexing_maps = [#id, #col, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<197x13xf32>, tensor<13xf32>) outs(%out : tensor<197xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    } -> tensor<197xf32>
    return %0 : tensor<197xf32>
  }
  // i = 197: DRAM's seven tiles of 32 (the last of 5), each over eight
  // columns of 4; j = 13: DRAM's three tiles of 5 (the last of 3).
  func.func @mapped_matvec(%x: tensor<197x13xf32>, %w: tensor<13xf32>, %out: tensor<197xf32>) -> tensor<197xf32> {
    %0 = linalg.generic {indexing_maps = [#id, #col, #row], iterator_types = ["parallel", "reduction"], accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [4, 5], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", spatial_x = [8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", temporal = [7, 3], order = [1, 0], keep = [0, 1, 2]>]>}
      ins(%x, %w : tensor<197x13xf32>, tensor<13xf32>) outs(%out : tensor<197xf32>) {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %pq = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %pq : f32
      linalg.yield %s : f32
    } -> tensor<197xf32>
    return %0 : tensor<197xf32>
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

  // The sum of `got` and the largest |ref - got|, printed under `name`.
  func.func @report2(%ref: tensor<?x?xf32>, %got: tensor<?x?xf32>) {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<f32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%got : tensor<?x?xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
      (%x: f32, %s: f32) {
        %n = arith.addf %x, %s : f32
        linalg.yield %n : f32
      }
    %worst = linalg.generic {indexing_maps = [#id, #id, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
        ins(%ref, %got : tensor<?x?xf32>, tensor<?x?xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%r: f32, %g: f32, %w: f32):
      %d = arith.subf %r, %g : f32
      %ad = math.absf %d : f32
      %m = arith.maximumf %ad, %w : f32
      linalg.yield %m : f32
    } -> tensor<f32>
    %s0 = tensor.extract %sum[] : tensor<f32>
    %w0 = tensor.extract %worst[] : tensor<f32>
    vector.print %s0 : f32
    vector.print str "largest difference\n"
    vector.print %w0 : f32
    return
  }

  func.func @main() {
    %c7 = arith.constant 7 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32

    %ea = tensor.empty() : tensor<7x56xf32>
    %eb = tensor.empty() : tensor<56x13xf32>
    %da = tensor.cast %ea : tensor<7x56xf32> to tensor<?x?xf32>
    %db = tensor.cast %eb : tensor<56x13xf32> to tensor<?x?xf32>
    %pa = call @pattern(%da, %c7) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %pb = call @pattern(%db, %c2) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %a = tensor.cast %pa : tensor<?x?xf32> to tensor<7x56xf32>
    %b = tensor.cast %pb : tensor<?x?xf32> to tensor<56x13xf32>
    %ec = tensor.empty() : tensor<7x13xf32>
    %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<7x13xf32>) -> tensor<7x13xf32>
    %ref = call @reference_matmul(%a, %b, %c) : (tensor<7x56xf32>, tensor<56x13xf32>, tensor<7x13xf32>) -> tensor<7x13xf32>
    %got = call @mapped_matmul(%a, %b, %c) : (tensor<7x56xf32>, tensor<56x13xf32>, tensor<7x13xf32>) -> tensor<7x13xf32>
    vector.print str "matmul checksum\n"
    %dref = tensor.cast %ref : tensor<7x13xf32> to tensor<?x?xf32>
    %dgot = tensor.cast %got : tensor<7x13xf32> to tensor<?x?xf32>
    call @report2(%dref, %dgot) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

    %ex = tensor.empty() : tensor<197x13xf32>
    %dx = tensor.cast %ex : tensor<197x13xf32> to tensor<?x?xf32>
    %px = call @pattern(%dx, %c7) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %x = tensor.cast %px : tensor<?x?xf32> to tensor<197x13xf32>
    %ew = tensor.empty() : tensor<1x13xf32>
    %dw = tensor.cast %ew : tensor<1x13xf32> to tensor<?x?xf32>
    %pw = call @pattern(%dw, %c2) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %w2 = tensor.cast %pw : tensor<?x?xf32> to tensor<1x13xf32>
    %w = tensor.collapse_shape %w2 [[0, 1]] : tensor<1x13xf32> into tensor<13xf32>
    %eo = tensor.empty() : tensor<197xf32>
    %o = linalg.fill ins(%zero : f32) outs(%eo : tensor<197xf32>) -> tensor<197xf32>
    %vref = call @reference_matvec(%x, %w, %o) : (tensor<197x13xf32>, tensor<13xf32>, tensor<197xf32>) -> tensor<197xf32>
    %vgot = call @mapped_matvec(%x, %w, %o) : (tensor<197x13xf32>, tensor<13xf32>, tensor<197xf32>) -> tensor<197xf32>
    %vref2 = tensor.expand_shape %vref [[0, 1]] output_shape [197, 1] : tensor<197xf32> into tensor<197x1xf32>
    %vgot2 = tensor.expand_shape %vgot [[0, 1]] output_shape [197, 1] : tensor<197xf32> into tensor<197x1xf32>
    %dvref = tensor.cast %vref2 : tensor<197x1xf32> to tensor<?x?xf32>
    %dvgot = tensor.cast %vgot2 : tensor<197x1xf32> to tensor<?x?xf32>
    vector.print str "matvec checksum\n"
    call @report2(%dvref, %dvgot) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
    return
  }
}
