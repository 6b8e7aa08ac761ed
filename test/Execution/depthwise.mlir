// A depthwise convolution, mapped, rewritten and run against a plain loop nest.
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
  func.func @reference(%x0: tensor<1x4x10x10xf32>, %x1: tensor<4x3x3xf32>, %out: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = []>, #accel.level<"GlobalBuffer", keep = []>, #accel.level<"DRAM", temporal = [1, 8, 8, 4, 3, 3], keep = [0, 1, 2]>]>}
      ins(%x0, %x1 : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%out : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    return %0 : tensor<1x4x8x8xf32>
  }
  func.func @mapped(%x0: tensor<1x4x10x10xf32>, %x1: tensor<4x3x3xf32>, %out: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x0, %x1 : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%out : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    return %0 : tensor<1x4x8x8xf32>
  }
  func.func @pattern3(%t: tensor<?x?x?xf32>, %mul: index) -> tensor<?x?x?xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?xf32>) {
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
      %i2 = linalg.index 2 : index
      %k2 = arith.constant 5 : index
      %p2 = arith.muli %i2, %k2 : index
      %q2 = arith.muli %p2, %mul : index
      %s3 = arith.addi %s2, %q2 : index
      %m = arith.remui %s3, %c7 : index
      %v = arith.index_cast %m : index to i32
      %f = arith.sitofp %v : i32 to f32
      linalg.yield %f : f32
    } -> tensor<?x?x?xf32>
    return %r : tensor<?x?x?xf32>
  }
  func.func @pattern4(%t: tensor<?x?x?x?xf32>, %mul: index) -> tensor<?x?x?x?xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?x?xf32>) {
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
      %i2 = linalg.index 2 : index
      %k2 = arith.constant 5 : index
      %p2 = arith.muli %i2, %k2 : index
      %q2 = arith.muli %p2, %mul : index
      %s3 = arith.addi %s2, %q2 : index
      %i3 = linalg.index 3 : index
      %k3 = arith.constant 7 : index
      %p3 = arith.muli %i3, %k3 : index
      %q3 = arith.muli %p3, %mul : index
      %s4 = arith.addi %s3, %q3 : index
      %m = arith.remui %s4, %c7 : index
      %v = arith.index_cast %m : index to i32
      %f = arith.sitofp %v : i32 to f32
      linalg.yield %f : f32
    } -> tensor<?x?x?x?xf32>
    return %r : tensor<?x?x?x?xf32>
  }
  func.func @main() {
    %zero = arith.constant 0.0 : f32
    %m0 = arith.constant 2 : index
    %e0 = tensor.empty() : tensor<1x4x10x10xf32>
    %d0 = tensor.cast %e0 : tensor<1x4x10x10xf32> to tensor<?x?x?x?xf32>
    %p0 = call @pattern4(%d0, %m0) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
    %a0 = tensor.cast %p0 : tensor<?x?x?x?xf32> to tensor<1x4x10x10xf32>
    %m1 = arith.constant 3 : index
    %e1 = tensor.empty() : tensor<4x3x3xf32>
    %d1 = tensor.cast %e1 : tensor<4x3x3xf32> to tensor<?x?x?xf32>
    %p1 = call @pattern3(%d1, %m1) : (tensor<?x?x?xf32>, index) -> tensor<?x?x?xf32>
    %a1 = tensor.cast %p1 : tensor<?x?x?xf32> to tensor<4x3x3xf32>
    %eo = tensor.empty() : tensor<1x4x8x8xf32>
    %o = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %ref = call @reference(%a0, %a1, %o) : (tensor<1x4x10x10xf32>, tensor<4x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %got = call @mapped(%a0, %a1, %o) : (tensor<1x4x10x10xf32>, tensor<4x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %init = tensor.empty() : tensor<f32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%got : tensor<1x4x8x8xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1, 2, 3]
      (%x: f32, %s: f32) {
        %n = arith.addf %x, %s : f32
        linalg.yield %n : f32
      }
    %worst = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
        ins(%ref, %got : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%acc : tensor<f32>) {
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
