// RUN: marlmap-opt %s --marl-describe -o /dev/null | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: marlmap-opt %s --marl-describe="arch=systolic-ws" -o /dev/null | FileCheck %s --check-prefixes=CHECK,WS
// RUN: marlmap-opt %s --marl-describe="arch=%S/Inputs/tiny-npu.mlir" -o /dev/null | FileCheck %s --check-prefixes=CHECK,FILE
// RUN: marlmap-opt %s --marl-describe="output=%t.txt" | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefixes=CHECK,DEFAULT < %t.txt
// RUN: marlmap-opt %s --marl-describe="format=json arch=%S/Inputs/tiny-npu.mlir" -o /dev/null | FileCheck %s --check-prefix=JSON

// Every field resolved: derived meshes, defaults, null for unbounded. Each
// mappable op with its operands' projections from loop space: the strided
// conv reads a 27x27 window of its 29x29 input.
// JSON: "linalg_ops": 13,
// JSON-NEXT: "mappable": 8,
// JSON: "op": "linalg.conv_2d_nchw_fchw",
// JSON-NEXT: "operands": [
// JSON-NEXT: {
// JSON-NEXT: "access": "read",
// JSON-NEXT: "name": "Inputs",
// JSON-NEXT: "projection": [
// JSON-NEXT: "n",
// JSON-NEXT: "c",
// JSON-NEXT: "4*oh + kh",
// JSON-NEXT: "4*ow + kw"
// JSON-NEXT: ],
// JSON-NEXT: "role": "inputs",
// JSON-NEXT: "words": 5832
// JSON: "name": "Weights",
// JSON: "words": 1152
// JSON: "access": "read-modify-write",
// JSON-NEXT: "name": "Outputs",
// The pooling window only gives the window's shape: no data moves for it.
// JSON: "op": "linalg.pooling_nchw_max",
// JSON-NEXT: "operands": [
// JSON: "name": "Inputs",
// JSON: "access": "none",
// JSON-NEXT: "name": "Weights",
// JSON: "op": "linalg.generic",
// JSON-NEXT: "operands": [
// JSON: "access": "read",
// JSON: "name": "Weights",
// JSON-NEXT: "projection": [
// JSON-NEXT: "0",
// JSON-NEXT: "d1"
// JSON: "access": "write",
// JSON-NEXT: "name": "Outputs",
// JSON: "index": 8,
// JSON-NEXT: "location": "describe.mlir:{{[0-9]+}}:{{[0-9]+}}",
// JSON-NEXT: "mappable": false,
// JSON-NEXT: "op": "linalg.fill",
// JSON-NEXT: "reason": "it reads no tensor (it only fills its output)"
// JSON: "target": {
// JSON-NEXT: "clock_mhz": 100,
// JSON-NEXT: "compute": {
// JSON-NEXT: "energy_per_mac": 0.5,
// JSON-NEXT: "instances": 4,
// JSON-NEXT: "macs_per_cycle": 1,
// JSON-NEXT: "mesh_x": 2,
// JSON-NEXT: "mesh_y": 2,
// JSON-NEXT: "word_bits": 16
// JSON: "name": "Regs",
// JSON: "entries": null,
// JSON: "name": "DRAM",
// JSON-NEXT: "read_bandwidth": 1,
// JSON: "target_source": "file {{.*}}tiny-npu.mlir"

// DEFAULT: target (default preset) accelerator 'eyeriss': 200 MHz, 168 MACs (14x12)
// DEFAULT-NEXT: level
// DEFAULT-NEXT: DRAM             dram              -
// DEFAULT-NEXT: GlobalBuffer sram 65536 16 4 1 1x1 14x12 16 16 7.40704 7.40704 inputs, outputs
// DEFAULT-NEXT: InputRegFile
// DEFAULT-NEXT: WeightRegFile
// DEFAULT-NEXT: PsumRegFile regfile 16 16 1 168 14x12 1x1 2 2 0.976445 0.976445 outputs
// WS: target (preset) accelerator 'systolic-ws': 1000 MHz, 256 MACs (16x16)
// FILE: target (file {{.*}}tiny-npu.mlir) accelerator 'tiny-npu': 100 MHz, 4 MACs (2x2)

// CHECK: linalg ops: 13, mappable: 8
// CHECK-NEXT: #0 linalg.matmul at describe.mlir:{{[0-9]+}}:{{[0-9]+}}: loops [16, 8, 32] (2 parallel, 1 reduction)
// CHECK-NEXT: #1 linalg.batch_matmul at {{.*}}: loops [12, 64, 64, 32] (3 parallel, 1 reduction)
// CHECK-NEXT: #2 linalg.conv_2d_nchw_fchw at {{.*}}: loops [1, 16, 7, 7, 8, 3, 3] (4 parallel, 3 reduction)
// CHECK-NEXT: #3 linalg.conv_2d_nhwc_hwcf at {{.*}}: loops [1, 14, 14, 32, 3, 3, 16] (4 parallel, 3 reduction)
// CHECK-NEXT: #4 linalg.depthwise_conv_2d_nchw_chw at {{.*}}: loops [1, 14, 14, 32, 3, 3] (4 parallel, 2 reduction)
// CHECK-NEXT: #5 linalg.pooling_nchw_max at {{.*}}: loops [1, 32, 7, 7, 2, 2] (4 parallel, 2 reduction)
// CHECK-NEXT: #6 linalg.generic at {{.*}}: loops [4, 16] (2 parallel, 0 reduction)
// CHECK-NEXT: #7 linalg.reduce at {{.*}}: loops [4, 16] (1 parallel, 1 reduction)
// CHECK-NEXT: #8 linalg.fill at {{.*}}: not mappable: it reads no tensor (it only fills its output)
// CHECK-NEXT: #9 linalg.matmul at {{.*}}: not mappable: operand #0 has a dynamic shape
// CHECK-NEXT: #10 linalg.generic at {{.*}}: not mappable: the indexing map of operand #0 has the result 'd0 floordiv 2', which is not a sum of loop dimensions
// CHECK-NEXT: #11 linalg.generic at {{.*}}: not mappable: it has no loops
// CHECK-NEXT: #12 linalg.matmul at {{.*}}: not mappable: loop 'm' has bound 0; bounds must be positive

// The IR itself goes through unchanged.
// IR: func.func @ops
// IR: linalg.matmul

#floordiv = affine_map<(d0) -> (d0 floordiv 2)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (0, d1)>
#scalar = affine_map<() -> ()>
func.func @ops(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %q: tensor<12x64x32xf32>, %k: tensor<12x32x64xf32>, %s: tensor<12x64x64xf32>,
               %in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>,
               %nhwc: tensor<1x16x16x16xf32>, %hwcf: tensor<3x3x16x32xf32>, %o2: tensor<1x14x14x32xf32>,
               %dwin: tensor<1x32x16x16xf32>, %dww: tensor<32x3x3xf32>, %dwo: tensor<1x32x14x14xf32>,
               %pwin: tensor<2x2xf32>, %po: tensor<1x32x7x7xf32>,
               %x: tensor<4x16xf32>, %y: tensor<1x16xf32>, %r: tensor<4xf32>,
               %dyn: tensor<?x32xf32>, %v: tensor<8xf32>, %h: tensor<4xf32>, %e: tensor<f32>,
               %empty: tensor<0x32xf32>, %emptyOut: tensor<0x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.batch_matmul ins(%q, %k : tensor<12x64x32xf32>, tensor<12x32x64xf32>) outs(%s : tensor<12x64x64xf32>) -> tensor<12x64x64xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
    ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%nhwc, %hwcf : tensor<1x16x16x16xf32>, tensor<3x3x16x32xf32>) outs(%o2 : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  %4 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%dwin, %dww : tensor<1x32x16x16xf32>, tensor<32x3x3xf32>) outs(%dwo : tensor<1x32x14x14xf32>) -> tensor<1x32x14x14xf32>
  %5 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%dwo, %pwin : tensor<1x32x14x14xf32>, tensor<2x2xf32>) outs(%po : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %6 = linalg.generic {indexing_maps = [#id2, #bcast, #id2], iterator_types = ["parallel", "parallel"]}
    ins(%x, %y : tensor<4x16xf32>, tensor<1x16xf32>) outs(%x : tensor<4x16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %sum = arith.addf %i, %j : f32
    linalg.yield %sum : f32
  } -> tensor<4x16xf32>
  %7 = linalg.reduce ins(%x : tensor<4x16xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
    (%i: f32, %acc: f32) {
      %sum = arith.addf %i, %acc : f32
      linalg.yield %sum : f32
    }
  %zero = arith.constant 0.0 : f32
  %8 = linalg.fill ins(%zero : f32) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %9 = linalg.matmul ins(%dyn, %b : tensor<?x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %10 = linalg.generic {indexing_maps = [#floordiv, #id1], iterator_types = ["parallel"]}
    ins(%v : tensor<8xf32>) outs(%v : tensor<8xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<8xf32>
  %11 = linalg.generic {indexing_maps = [#scalar, #scalar], iterator_types = []}
    ins(%e : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<f32>
  %12 = linalg.matmul ins(%empty, %b : tensor<0x32xf32>, tensor<32x8xf32>) outs(%emptyOut : tensor<0x8xf32>) -> tensor<0x8xf32>
  return
}
