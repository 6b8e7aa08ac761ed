// Stock mlir-opt with marlmap loaded as a plugin: the dialect parses, prints
// and verifies, and the passes run (named in --pass-pipeline: stock mlir-opt
// reads its flags before it loads a pass plugin).
// The stock mlir-opt-22 is not instrumented: a sanitized marlmap cannot load
// into it (utils/sanitize.sh).
// UNSUPPORTED: sanitized
// RUN: mlir-opt %s --load-dialect-plugin=%marlmap_plugin --load-pass-plugin=%marlmap_plugin | FileCheck %s --check-prefix=IR
// RUN: mlir-opt %s --load-dialect-plugin=%marlmap_plugin --load-pass-plugin=%marlmap_plugin --pass-pipeline="builtin.module(marl-describe)" -o /dev/null | FileCheck %s --check-prefix=DESCRIBE
// RUN: not mlir-opt %s --load-dialect-plugin=%marlmap_plugin --load-pass-plugin=%marlmap_plugin --pass-pipeline="builtin.module(marl-describe{arch=nope})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERROR

// IR: module attributes {accel.target = "systolic-os"}
// IR: linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"AccumReg", temporal = [1, 1, 32], keep = [2]>, #accel.level<"GlobalBuffer", spatial_x = [16, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>, #accel.level<"DRAM", keep = [0, 1, 2]>]>}

// DESCRIBE: target (preset) accelerator 'systolic-os': 1000 MHz, 256 MACs (16x16)
// DESCRIBE: linalg ops: 1, mappable: 1
// DESCRIBE-NEXT: #0 linalg.matmul at plugin.mlir:{{[0-9]+}}:{{[0-9]+}}: loops [16, 8, 32] (2 parallel, 1 reduction)

// The multi-agent searcher, whose LibTorch library the plugin loads on use.
// RUN: mlir-opt %S/../Transforms/marl-map-cache.mlir --load-dialect-plugin=%marlmap_plugin --load-pass-plugin=%marlmap_plugin --pass-pipeline="builtin.module(marl-map{searcher=marl budget=200 summary=true})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MARL
// MARL: marl-map: 2 ops mapped (1 distinct problems: 1 searched, 0 from the cache, 0 given), 0 not mapped; {{.*}} (marl, samples=200, edp)

// ERROR: error: unknown accelerator 'nope'

module attributes {accel.target = "systolic-os"} {
  func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"AccumReg", temporal = [1, 1, 32], keep = [2]>,
        #accel.level<"GlobalBuffer", spatial_x = [16, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
