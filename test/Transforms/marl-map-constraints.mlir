// Every searcher maps onto the dataflow presets with mappings their
// hardware runs: the output passes the verifier, which checks the target's
// constraints (a second marlmap-opt reads it back), and the attributes
// show the dataflow.
// RUN: for s in random genetic annealing marl sarl; do \
// RUN:   marlmap-opt %s --marl-map="arch=systolic-ws searcher=$s budget=200 seed=2" 2>/dev/null | marlmap-opt | FileCheck %s --check-prefix=WS || exit 1; \
// RUN:   marlmap-opt %s --marl-map="arch=systolic-os searcher=$s budget=200 seed=2" 2>/dev/null | marlmap-opt | FileCheck %s --check-prefix=OS || exit 1; \
// RUN:   marlmap-opt %s --marl-map="arch=eyeriss-rs searcher=$s budget=200 seed=2" 2>/dev/null | marlmap-opt | FileCheck %s --check-prefix=RS || exit 1; \
// RUN: done
// The exhaustive searcher needs a space it can walk: one small matmul.
// RUN: marlmap-opt %S/Inputs/small-matmul.mlir --marl-map="arch=systolic-ws searcher=exhaustive budget=100000" 2>/dev/null | marlmap-opt | FileCheck %s --check-prefix=EXHAUSTIVE

// Weight-stationary: one weight per PE (the matmul's n and k iterate
// nowhere in WeightReg), n (K) along X, k (C) along Y; a depthwise conv's
// channels go along X alone.
// WS-LABEL: func.func @net
// WS: linalg.matmul {{.*}}#accel.level<"WeightReg"{{(, temporal = \[[0-9]+, 1, 1\])?}}{{(, order = \[[0-9, ]+\])?}}, keep = [1]>, #accel.level<"GlobalBuffer"{{(, temporal = \[[0-9, ]+\])?}}{{(, order = \[[0-9, ]+\])?}}{{(, spatial_x = \[1, [0-9]+, 1\])?}}{{(, spatial_y = \[1, 1, [0-9]+\])?}}, keep = [0, 1, 2]>
// WS: linalg.depthwise_conv_2d_nhwc_hwc {{.*}}#accel.level<"GlobalBuffer"{{(, temporal = \[[0-9, ]+\])?}}{{(, order = \[[0-9, ]+\])?}}{{(, spatial_x = \[1, 1, 1, [0-9]+, 1, 1\])?}}, keep = [0, 1, 2]>

// Output-stationary: one output per PE, rows along X, channels along Y.
// OS-LABEL: func.func @net
// OS: linalg.matmul {{.*}}#accel.level<"AccumReg"{{(, temporal = \[1, 1, [0-9]+\])?}}{{(, order = \[[0-9, ]+\])?}}, keep = [2]>, #accel.level<"GlobalBuffer"{{(, temporal = \[[0-9, ]+\])?}}{{(, order = \[[0-9, ]+\])?}}{{(, spatial_x = \[[0-9]+, 1, 1\])?}}{{(, spatial_y = \[1, [0-9]+, 1\])?}}, keep = [0, 1, 2]>

// Row-stationary: the weight register file holds whole filter rows.
// RS-LABEL: func.func @net
// RS: linalg.conv_2d_nchw_fchw {{.*}}#accel.level<"WeightRegFile", temporal = [1, 1, 1, 1, {{[0-9]+}}, 1, 3], order = [6, 4, 5, 2, 3, 1, 0], keep = [1]>

// EXHAUSTIVE: linalg.matmul {accel.cost = {{.*}}samples = {{[0-9]+}} : i64{{.*}}accel.mapping = #accel.mapping<[#accel.level<"WeightReg"

func.func @net(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>, %c: tensor<32x48xf32>,
               %i: tensor<1x16x18x18xf32>, %w: tensor<32x16x3x3xf32>, %o: tensor<1x32x16x16xf32>,
               %di: tensor<1x18x18x32xf32>, %dw: tensor<3x3x32xf32>, %do: tensor<1x16x16x32xf32>)
    -> (tensor<32x48xf32>, tensor<1x32x16x16xf32>, tensor<1x16x16x32xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%c : tensor<32x48xf32>) -> tensor<32x48xf32>
  %1 = linalg.conv_2d_nchw_fchw ins(%i, %w : tensor<1x16x18x18xf32>, tensor<32x16x3x3xf32>) outs(%o : tensor<1x32x16x16xf32>) -> tensor<1x32x16x16xf32>
  %2 = linalg.depthwise_conv_2d_nhwc_hwc ins(%di, %dw : tensor<1x18x18x32xf32>, tensor<3x3x32xf32>) outs(%do : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %0, %1, %2 : tensor<32x48xf32>, tensor<1x32x16x16xf32>, tensor<1x16x16x32xf32>
}
