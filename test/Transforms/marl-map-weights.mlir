// What the agents learnt, kept (policy-save) and started from
// (policy-weights): the file is the same on any thread count, a search
// started from it maps otherwise than a fresh one, and a file that cannot
// be read or written is an error that names it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl threads=1 policy-save=%t/one.txt" -o /dev/null 2>/dev/null
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl threads=2 policy-save=%t/two.txt" -o /dev/null 2>/dev/null
// RUN: diff %t/one.txt %t/two.txt
// RUN: FileCheck %s --check-prefix=FILE < %t/one.txt
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl" 2>/dev/null > %t/fresh.mlir
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-weights=%t/one.txt" 2>/dev/null > %t/started.mlir
// RUN: not diff %t/fresh.mlir %t/started.mlir
// RUN: FileCheck %s < %t/started.mlir

// The report says how many of each op's agents started from the file; a
// file with no agent for the accelerator is a warning, not a silent no-op.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=3 searcher=marl policy-weights=%t/one.txt report=%t/report.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.json
// RUN: marlmap-opt %s --marl-map="arch=eyeriss budget=100 searcher=marl policy-weights=%t/one.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNUSED

// Saving after starting from a file keeps its agents too: a chain of
// searches trains on every network of the chain.
// RUN: marlmap-opt %s --marl-map="budget=300 seed=4 searcher=marl policy-weights=%t/one.txt policy-save=%t/three.txt" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t/three.txt

// RUN: echo "damaged" > %t/bad.txt
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-weights=%t/bad.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-weights=%t/none.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not marlmap-opt %s --marl-map="budget=100 searcher=marl policy-save=%t/no/such/folder.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-share=0 policy-save=%t/x.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLIND

// FILE: marlmap-policy-weights 1
// FILE: agent {{[0-9]+ [0-9]+ [0-9]+}} joint {{[0-9]+}}{{.}}edge|gemm|
// FILE: end {{[0-9]+}} {{[0-9a-f]+$}}

// CHECK-COUNT-3: linalg.matmul {accel.cost = {{.*}}samples = 300 : i64{{.*}}, accel.mapping = #accel.mapping<

// REPORT: "agents": [[AGENTS:[0-9]+]],
// REPORT-NEXT: "agents_from_weights": [[AGENTS]],
// UNUSED: warning: marl-map: policy-weights={{.*}}one.txt: none of the agents searched started from it

// BAD: policy weights '{{.*}}bad.txt': not a marlmap policy-weights file
// NONE: cannot read the policy weights '{{.*}}none.txt'
// UNWRITABLE: error: marl-map: cannot write the policy weights '{{.*}}folder.txt'
// BLIND: policy-save needs agents that observe their problem

module attributes {accel.target = "edge"} {
func.func @ops(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %d: tensor<32x64xf32>, %e: tensor<64x16xf32>, %f: tensor<32x16xf32>,
               %g: tensor<16x64xf32>, %h: tensor<64x8xf32>)
    -> (tensor<16x8xf32>, tensor<32x16xf32>, tensor<16x8xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.matmul ins(%d, %e : tensor<32x64xf32>, tensor<64x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  %2 = linalg.matmul ins(%g, %h : tensor<16x64xf32>, tensor<64x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0, %1, %2 : tensor<16x8xf32>, tensor<32x16xf32>, tensor<16x8xf32>
}
}
