// The exact searcher through the pass: each op of the report says whether
// its mapping was proved optimal and gives the lower bound no mapping beats;
// a problem whose budget ends before a proof still maps, with a warning that
// gives the gap. The 4x4x4 product proves in 64 samples on eyeriss, the
// 64x64x64 one not in 100.

// RUN: marlmap-opt %s --marl-map="searcher=optimal budget=100 progress=none report=%t.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// WARN: warning: marl-map: linalg.matmul (64x64x64) not proved optimal: edp lower bound {{[0-9.e+]+}}, at most {{[0-9.]+}}% above the optimum within the budget (edp {{[0-9.e+]+}})
// WARN-NOT: 4x4x4
// REPORT: "loops": "4x4x4",
// REPORT: "objective_lower_bound": 9664,
// REPORT: "proved_optimal": true,
// REPORT: "loops": "64x64x64",
// REPORT: "objective_lower_bound": {{[0-9.e+]+}},
// REPORT: "proved_optimal": false,

// Searchers that bound nothing never claim a proof; their bound is the
// model's.
// RUN: marlmap-opt %s --marl-map="searcher=random budget=100 progress=none report=%t.random.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=RANDOM < %t.random.json
// QUIET-NOT: proved
// RANDOM-NOT: "proved_optimal": true
// RANDOM: "proved_optimal": false
// RANDOM-NOT: "proved_optimal": true

// With a cache, the optimum proved for the 4x4x4 product is kept; a later
// compile with another searcher reports its gap to it, and null where no
// optimum is known (the 64x64x64 product); the network has no total then.
// RUN: rm -f %t.sqlite %t.sqlite-wal %t.sqlite-shm
// RUN: marlmap-opt %s --marl-map="searcher=optimal budget=100 progress=none cache=%t.sqlite" -o /dev/null 2>/dev/null
// RUN: marlmap-opt %s --marl-map="searcher=random budget=20 progress=none cache=%t.sqlite report=%t.gap.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=GAP < %t.gap.json
// GAP: "gap_to_optimum": {{[0-9.]+}},
// GAP: "loops": "4x4x4",
// GAP: "gap_to_optimum": null,
// GAP: "loops": "64x64x64",
// GAP: "totals": {
// GAP: "gap_to_optimum": null,

func.func @small(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>,
                 %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

func.func @large(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>,
                 %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
