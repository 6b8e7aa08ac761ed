// A convolution (stride 1) mapped by marl-map and rewritten by marl-apply
// computes what a plain loop nest (every factor at DRAM) computes.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=2" --marl-apply --one-shot-bufferize="bufferize-function-boundaries" --scf-forall-to-for --convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-vector-to-llvm --convert-math-to-llvm --finalize-memref-to-llvm --convert-arith-to-llvm --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts 2>/dev/null \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
// RUN: marlmap-opt %s --marl-map="budget=300 seed=2" --marl-apply 2>/dev/null | FileCheck %s --check-prefix=LOOPS

// CHECK: checksum
// CHECK-NEXT: {{^[1-9][0-9]*$}}
// CHECK-NEXT: largest difference
// CHECK-NEXT: {{^}}0{{$}}

// LOOPS-LABEL: func.func @mapped
// LOOPS: scf.for
// LOOPS: linalg.conv_2d_nchw_fchw

#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
module attributes {accel.target = "edge"} {
  // The reference: every loop at DRAM, in the op's order.
  func.func @reference(%in: tensor<1x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>,
        accel.mapping = #accel.mapping<[
          #accel.level<"RegFile", keep = []>,
          #accel.level<"GlobalBuffer", keep = []>,
          #accel.level<"DRAM", temporal = [1, 8, 8, 8, 4, 3, 3], keep = [0, 1, 2]>]>}
      ins(%in, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    return %0 : tensor<1x8x8x8xf32>
  }
  func.func @mapped(%in: tensor<1x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %out: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
    %0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%out : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    return %0 : tensor<1x8x8x8xf32>
  }

  // (n + c * 3 + h * 5 + w * mul) mod 7, as floats.
  func.func @pattern(%t: tensor<?x?x?x?xf32>, %mul: index) -> tensor<?x?x?x?xf32> {
    %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?x?xf32>) {
    ^bb0(%o: f32):
      %n = linalg.index 0 : index
      %c = linalg.index 1 : index
      %h = linalg.index 2 : index
      %w = linalg.index 3 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c7 = arith.constant 7 : index
      %a = arith.muli %c, %c3 : index
      %b = arith.muli %h, %c5 : index
      %d = arith.muli %w, %mul : index
      %s0 = arith.addi %n, %a : index
      %s1 = arith.addi %s0, %b : index
      %s2 = arith.addi %s1, %d : index
      %m = arith.remui %s2, %c7 : index
      %v = arith.index_cast %m : index to i32
      %f = arith.sitofp %v : i32 to f32
      linalg.yield %f : f32
    } -> tensor<?x?x?x?xf32>
    return %r : tensor<?x?x?x?xf32>
  }

  func.func @main() {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %ei = tensor.empty() : tensor<1x4x10x10xf32>
    %ew = tensor.empty() : tensor<8x4x3x3xf32>
    %di = tensor.cast %ei : tensor<1x4x10x10xf32> to tensor<?x?x?x?xf32>
    %dw = tensor.cast %ew : tensor<8x4x3x3xf32> to tensor<?x?x?x?xf32>
    %pi = call @pattern(%di, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
    %pw = call @pattern(%dw, %c4) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
    %in = tensor.cast %pi : tensor<?x?x?x?xf32> to tensor<1x4x10x10xf32>
    %w = tensor.cast %pw : tensor<?x?x?x?xf32> to tensor<8x4x3x3xf32>
    %eo = tensor.empty() : tensor<1x8x8x8xf32>
    %out = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %ref = call @reference(%in, %w, %out) : (tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %got = call @mapped(%in, %w, %out) : (tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>

    %init = tensor.empty() : tensor<f32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%got : tensor<1x8x8x8xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1, 2, 3]
      (%x: f32, %s: f32) {
        %n = arith.addf %x, %s : f32
        linalg.yield %n : f32
      }
    %worst = linalg.generic {indexing_maps = [#id4, #id4, affine_map<(n, c, h, w) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
        ins(%ref, %got : tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%r: f32, %g: f32, %m: f32):
      %d = arith.subf %r, %g : f32
      %ad = math.absf %d : f32
      %mx = arith.maximumf %ad, %m : f32
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
