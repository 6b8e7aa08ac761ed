// Options are checked before any search starts: out-of-range, NaN and
// absurd values name the option and its range.
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-hidden=2000000000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HIDDEN
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-epochs=4000000000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EPOCHS
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-lr=nan" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LR
// RUN: not marlmap-opt %s --marl-map="searcher=sarl policy-entropy=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENTROPY
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-warmup=2000000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARMUP
// RUN: not marlmap-opt %s --marl-map="searcher=marl policy-replay=5000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPLAY
// RUN: not marlmap-opt %s --marl-map="threads=4294967295" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not marlmap-opt %s --marl-map="budget=10000000000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not marlmap-opt %s --marl-map="budget=-5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// HIDDEN: error: marl-map: policy-hidden must be an integer from 1 to 4096, not '2000000000'
// EPOCHS: error: marl-map: policy-epochs must be an integer from 1 to 100, not '4000000000'
// LR: error: marl-map: policy-lr must be a number above 0, at most 10, not 'nan'
// ENTROPY: error: marl-map: policy-entropy must be a number from 0 to 100, not '-1'
// WARMUP: error: marl-map: policy-warmup must be an integer from 0 to 1000000, not '2000000'
// REPLAY: error: marl-map: policy-replay must be an integer from 0 to 4096, not '5000'
// THREADS: error: marl-map: threads must be between 0 (one per core) and 1024, not 4294967295
// BUDGET: error: marl-map: budget must be between 1 and 1000000000 samples, not 10000000000
// NEGATIVE: error: marl-map: budget must be between 1 and 1000000000 samples, not -5

// A policy library that is not where it is said to be is an error that
// names every path tried and how to point at the library; the ops are not
// left unmapped in silence.
// RUN: env MARLMAP_POLICY_LIBRARY=%t.nowhere/libMarlmapPolicy.so not marlmap-opt %s --marl-map="searcher=marl budget=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIABLE
// RUN: not marlmap-opt %s --marl-map="searcher=sarl budget=100 policy-library=%t.nowhere/lib.so" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: env MARLMAP_POLICY_LIBRARY=%S/Inputs/tiny-npu.mlir not marlmap-opt %s --marl-map="searcher=marl budget=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-A-LIBRARY
// Under a time budget the problems warm up while the library loads on a
// thread of its own; a load that fails is the same error.
// RUN: not marlmap-opt %s --marl-map="searcher=marl time=2 policy-library=%t.nowhere/lib.so" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: env MARLMAP_POLICY_LIBRARY=%S/Inputs/tiny-npu.mlir not marlmap-opt %s --marl-map="searcher=sarl time=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-A-LIBRARY
// A compile whose problems the cache holds searches nothing and needs no
// policy library (a build farm that only reuses mappings need not deploy
// LibTorch); one with a problem left to search does.
// RUN: rm -f %t.db
// RUN: marlmap-opt %s --marl-map="searcher=marl budget=100 cache=%t.db" -o /dev/null
// RUN: marlmap-opt %s --marl-map="searcher=marl budget=100 cache=%t.db policy-library=%t.nowhere/lib.so" -o /dev/null
// RUN: not marlmap-opt %s --marl-map="searcher=marl budget=101 cache=%t.db policy-library=%t.nowhere/lib.so" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// The genetic searcher needs no policy library.
// RUN: env MARLMAP_POLICY_LIBRARY=%t.nowhere/libMarlmapPolicy.so marlmap-opt %s --marl-map="searcher=genetic budget=100" -o /dev/null

// VARIABLE: error: marl-map: cannot load the policy searchers (libMarlmapPolicy.so); tried:
// VARIABLE-NEXT: {{.*}}.nowhere/libMarlmapPolicy.so (MARLMAP_POLICY_LIBRARY): {{.*}}No such file or directory
// VARIABLE-NEXT: name its path with MARLMAP_POLICY_LIBRARY or the policy-library option (--policy-library in the tools)
// OPTION: error: marl-map: cannot load the policy searchers (libMarlmapPolicy.so); tried:
// OPTION-NEXT: {{.*}}.nowhere/lib.so (policy-library): {{.*}}No such file or directory
// NOT-A-LIBRARY: tiny-npu.mlir (MARLMAP_POLICY_LIBRARY): {{.*}}invalid ELF header

// A failure inside LibTorch during a search ends that search with an error
// on every op it was for, and the pass fails; no abort.
// RUN: not marlmap-opt %s --marl-map="searcher=marl budget=300 policy-test-throw-after=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=THROW
// THROW: marl-map-policy-errors.mlir:[[@LINE+5]]:10: error: marl-map: cannot map this op: LibTorch: policy-test-throw-after: a failure made on purpose after 128 samples
// THROW: marl-map-policy-errors.mlir:[[@LINE+5]]:10: error: marl-map: cannot map this op: LibTorch: policy-test-throw-after: a failure made on purpose after 128 samples

module {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
