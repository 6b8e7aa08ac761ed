// RUN: marlmap-opt %s --marl-map="budget=300 seed=3" 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 threads=1" 2>/dev/null > %t.one
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 threads=2" 2>/dev/null > %t.two
// RUN: diff %t.one %t.two
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl threads=1" 2>/dev/null > %t.marl1
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl threads=2" 2>/dev/null > %t.marl2
// RUN: diff %t.marl1 %t.marl2
// RUN: marlmap-opt %s --mlir-disable-threading --marl-map="budget=300 seed=3 searcher=marl" 2>/dev/null > %t.marl0
// RUN: diff %t.marl1 %t.marl0
// RUN: FileCheck %s --check-prefix=MARL < %t.marl1
// With refinement rounds between the updates, as alike on any thread count.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-refine=2 threads=1" 2>/dev/null > %t.refine1
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-refine=2 threads=2" 2>/dev/null > %t.refine2
// RUN: diff %t.refine1 %t.refine2
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3" 2>/dev/null | marlmap-opt | FileCheck %s
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 summary=true report=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: marlmap-explore --input %S/../Tools/Inputs/mapped-matmul.mlir --op-index 0 --json - | FileCheck %s --check-prefix=EXPLORE

// The module records the accelerator its mappings are for.
// CHECK: module attributes {accel.target = "edge"}

// Two matmuls of the same shape: one search, the same mapping.
// CHECK-LABEL: func.func @ops
// CHECK: %[[A:.+]] = linalg.matmul {accel.cost = {bound_ratio = {{.*}}, cycles = [[CYCLES:[0-9]+]] : i64, {{.*}}samples = 300 : i64, utilization = {{.*}}}, accel.mapping = #accel.mapping<[[MAPPING:.+]]>}
// CHECK: linalg.matmul {accel.cost = {bound_ratio = {{.*}}, cycles = [[CYCLES]] : i64, {{.*}}}, accel.mapping = #accel.mapping<[[MAPPING]]>}
// CHECK: linalg.conv_2d_nchw_fchw {accel.cost = {{.*}}, accel.mapping = #accel.mapping<[#accel.level<"RegFile"
// Fills are left alone.
// CHECK: linalg.fill ins
// A mapping the user gave is kept and costed: 64 compute cycles, 192 with
// the register files' bandwidth (as marlmap-explore reports for
// test/Tools/Inputs/mapped-matmul.mlir).
// CHECK: linalg.matmul {accel.cost = {bound_ratio = {{.*}}, cycles = 192 : i64, {{.*}}samples = 0 : i64, {{.*}}}, accel.mapping = #accel.mapping<[#accel.level<"RegFile", temporal = [1, 1, 4], keep = [0, 1, 2]>
// CHECK: linalg.matmul ins(%{{.*}} : tensor<?x32xf32>
// EXPLORE: {{^}}  "cycles": 192,

// MARL: linalg.conv_2d_nchw_fchw {accel.cost = {{.*}}samples = 300 : i64{{.*}}, accel.mapping = #accel.mapping<

// REMARK: marl-map.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: not mapped: operand #0 has a dynamic shape
// REMARK-NOT: remark

// SUMMARY: op loops cycles energy pJ EDP x bound samples seconds
// SUMMARY-NEXT: linalg.matmul 16x8x32
// SUMMARY-NEXT: linalg.matmul 16x8x32
// SUMMARY-NEXT: linalg.conv_2d_nchw_fchw 1x16x7x7x8x3x3
// SUMMARY-NEXT: linalg.matmul 16x8x32 192 {{.*}} given
// SUMMARY-NEXT: linalg.matmul not mapped: operand #0 has a dynamic shape
// SUMMARY-NEXT: marl-map: 4 ops mapped (3 distinct problems: 2 searched, 0 from the cache, 1 given), 1 not mapped; energy {{.*}} pJ, {{[0-9]+}} cycles ({{.*}} s at 500 MHz), EDP {{.*}}; 600 samples in {{.*}} s (marl, samples=300, edp)

// The report's keys come in alphabetical order.
// REPORT: "budget": {
// REPORT-NEXT: "samples_per_problem": 300,
// REPORT-NEXT: "seconds": null
// REPORT-NEXT: },
// REPORT-NEXT: "deterministic": true,
// REPORT-NEXT: "factors": "auto",
// REPORT-NEXT: "not_mapped": [
// REPORT-NEXT: {
// REPORT-NEXT: "location": "{{.*}}marl-map.mlir:{{[0-9]+}}:{{[0-9]+}}",
// REPORT-NEXT: "op": "linalg.matmul",
// REPORT-NEXT: "reason": "operand #0 has a dynamic shape"
// REPORT: "objective": "edp",
// REPORT-NEXT: "ops": [
// REPORT: "bound_ratio":
// REPORT: "multiplicity": 2,
// REPORT: "op": "linalg.matmul",
// REPORT: "source": "searched"
// REPORT: "source": "given"
// REPORT: "schema": "marlmap-report-1",
// REPORT-NEXT: "searcher": "marl",
// REPORT-NEXT: "searcher_key": "marl@3 agents=per-decision policy-lr=0.03 {{.*}} policy-restart=auto {{.*}} policy-fit=on policy-spreads=levels {{.*}}",
// REPORT-NEXT: "seed": 3,
// REPORT: "totals": {
// REPORT-NEXT: "cache_hits": 0,
// REPORT-NEXT: "cycles": {{[0-9]+}},
// REPORT-NEXT: "distinct_problems": 3,
// REPORT-NEXT: "edp": {{.*}},
// REPORT-NEXT: "energy_pJ": {{.*}},
// REPORT-NEXT: "gap_to_optimum": null,
// REPORT-NEXT: "given": 1,
// REPORT-NEXT: "latency_s": {{.*}},
// REPORT-NEXT: "macs": 68736,
// REPORT-NEXT: "ops_mapped": 4,
// REPORT-NEXT: "ops_not_mapped": 1,
// REPORT-NEXT: "samples": 600,
// REPORT-NEXT: "searched": 2,
// REPORT-NEXT: "seconds": {{.*}}

module attributes {accel.target = "edge"} {
func.func @ops(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>,
               %dyn: tensor<?x32xf32>, %dc: tensor<?x8xf32>)
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<?x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
    ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  %zero = arith.constant 0.0 : f32
  %3 = linalg.fill ins(%zero : f32) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = linalg.matmul {accel.mapping = #accel.mapping<[
      #accel.level<"RegFile", temporal = [1, 1, 4], keep = [0, 1, 2]>,
      #accel.level<"GlobalBuffer", temporal = [2, 1, 8], spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
      #accel.level<"DRAM", keep = [0, 1, 2]>]>}
    ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %5 = linalg.matmul ins(%dyn, %b : tensor<?x32xf32>, tensor<32x8xf32>) outs(%dc : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<?x8xf32>
}
}
