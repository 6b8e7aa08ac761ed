// RUN: not marlmap-opt %s --marl-describe="arch=tpu-v9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not marlmap-opt %s --marl-describe="arch=%S/Inputs/missing.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not marlmap-opt %s --marl-describe="arch=%S/Inputs/no-target.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not marlmap-opt %s --marl-describe="arch=%S/Inputs/broken-npu.mlir" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not marlmap-opt %s --marl-describe="output=%t/no/such/dir/out.txt" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUTPUT
// RUN: not marlmap-opt %s --marl-describe="format=yaml" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not marlmap-opt %s --pass-pipeline="builtin.module(builtin.module(marl-describe))" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED

// UNKNOWN: describe-errors.mlir:{{[0-9]+}}:1: error: unknown accelerator 'tpu-v9': not a preset (eyeriss, eyeriss-rs, simba, systolic-ws, systolic-os, edge), a .mlir description file nor a Timeloop .yaml spec
// MISSING: describe-errors.mlir:{{[0-9]+}}:1: error: cannot read the accelerator description: cannot open input file '{{.*}}missing.mlir': No such file or directory
// NOTARGET: describe-errors.mlir:{{[0-9]+}}:1: error: accelerator description '{{.*}}no-target.mlir' has no 'accel.target' attribute on its module

// A broken description is reported where it is broken, then on the module.
// BROKEN: broken-npu.mlir:3:3: error: compute array: 4 MACs do not split evenly over the 3 instances of the innermost level 'Regs'
// BROKEN: describe-errors.mlir:{{[0-9]+}}:1: error: cannot parse accelerator description '{{.*}}broken-npu.mlir'

// NESTED: describe-errors.mlir:{{[0-9]+}}:3: error: marl-describe describes a whole compilation unit: run it on the top-level module
// FORMAT: describe-errors.mlir:{{[0-9]+}}:1: error: unknown format 'yaml' (text or json)
// OUTPUT: describe-errors.mlir:{{[0-9]+}}:1: error: cannot write the description: cannot open output file '{{.*}}out.txt'

module {
  module @inner {
  }
}
