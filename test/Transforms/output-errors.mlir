// A file marlmap writes that fails part way (here a full device) is an
// error naming it, not a crash.
// RUN: not marlmap-opt %s --marl-map="budget=50 report=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not marlmap-opt %s --marl-describe="output=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DESCRIBE
// RUN: not marlmap-opt %s --marl-map="budget=50" --marl-apply="transform-script=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCRIPT

// REPORT: output-errors.mlir:[[@LINE+4]]:1: error: marl-map: cannot write the report: cannot write '/dev/full': No space left on device
// DESCRIBE: output-errors.mlir:[[@LINE+3]]:1: error: cannot write the description: cannot write '/dev/full': No space left on device
// SCRIPT: output-errors.mlir:[[@LINE+2]]:1: error: cannot write the transform script: cannot write '/dev/full': No space left on device

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
