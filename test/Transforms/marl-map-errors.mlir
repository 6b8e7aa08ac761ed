// RUN: not marlmap-opt %s --marl-map="searcher=magic" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCHER
// RUN: not marlmap-opt %s --marl-map="budget=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not marlmap-opt %s --marl-map="objective=speed" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OBJECTIVE
// RUN: not marlmap-opt %s --marl-map="arch=tpu" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRESET
// RUN: not marlmap-opt %s --marl-map="arch=%S/Inputs/missing.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not marlmap-opt %s --marl-map="arch=%S/Inputs/broken-npu.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not marlmap-opt %s --marl-map="budget=50 report=%t/no/such/dir/r.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not marlmap-opt %s --marl-map="budget=50 arch=systolic-ws progress=json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: not marlmap-opt %s --marl-map="searcher=genetic agents=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGENTS-GENETIC
// RUN: not marlmap-opt %s --marl-map="searcher=annealing policy-replay=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPLAY-ANNEALING
// RUN: not marlmap-opt %s --marl-map="searcher=marl agents=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGENTS-ZERO
// RUN: not marlmap-opt %s --marl-map="searcher=sarl agents=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGENTS-SARL
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-lr=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-epochs=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EPOCHS
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-advantage=raw" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ADVANTAGE
// RUN: not marlmap-opt %s --marl-map="searcher=sarl policy-head=tree" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEAD
// RUN: not marlmap-opt %s --marl-map="searcher=genetic policy-head=factorised" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEAD-GENETIC

// SEARCHER: error: marl-map: unknown searcher 'magic' (searchers: {{.*}}marl{{.*}})
// BUDGET: error: marl-map: budget must be between 1 and 1000000000 samples, not 0
// OBJECTIVE: error: marl-map: objective must be latency, energy or edp, not 'speed'
// PRESET: error: unknown accelerator 'tpu': not a preset
// MISSING: error: cannot read the accelerator description: cannot open input file '{{.*}}missing.mlir'
// BROKEN: broken-npu.mlir:3:3: error: compute array: 4 MACs do not split evenly over the 3 instances of the innermost level 'Regs'
// REPORT: error: marl-map: cannot write the report: cannot open output file '{{.*}}r.json'
// AGENTS-GENETIC: error: marl-map: agents is an option of marl and marl-polish, not of genetic
// REPLAY-ANNEALING: error: marl-map: policy-replay is an option of marl, sarl and marl-polish, not of annealing
// AGENTS-ZERO: error: marl-map: agents must be auto, correlation, per-decision, random or a number from 1 to 100000, not '0'
// AGENTS-SARL: error: marl-map: agents is an option of marl and marl-polish, not of sarl
// LR: error: marl-map: policy-lr must be a number above 0, at most 10, not '0'
// EPOCHS: error: marl-map: policy-epochs must be an integer from 1 to 100, not '0'
// ADVANTAGE: error: marl-map: policy-advantage must be utilities or ranks, not 'raw'
// HEAD: error: marl-map: policy-head must be joint or factorised, not 'tree'
// HEAD-GENETIC: error: marl-map: policy-head is an option of marl, sarl and marl-polish, not of genetic

// The user's mapping is for `edge`; mapping onto another accelerator
// cannot keep it, and nothing is searched for a compile that fails.
// OTHER: marl-map-errors.mlir:[[@LINE+4]]:10: error: the mapping it carries is for the levels (RegFile, GlobalBuffer, DRAM), not for those of 'systolic-ws' (WeightReg, GlobalBuffer, DRAM)
// OTHER-NOT: "event":"start"
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[
        #accel.level<"RegFile", temporal = [1, 1, 4], keep = [0, 1, 2]>,
        #accel.level<"GlobalBuffer", temporal = [2, 1, 8], spatial_x = [8, 1, 1], spatial_y = [1, 8, 1], keep = [0, 1, 2]>,
        #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
