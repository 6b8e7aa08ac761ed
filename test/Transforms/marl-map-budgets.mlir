// Budgets in samples and in seconds, progress on a stderr that is not a
// terminal, and the network's totals.

// A time budget alone lifts the sample cap; the run ends and says what it
// spent. (A generous bound only: how many samples fit depends on the
// machine.)
// RUN: marlmap-opt %s --marl-map="time=0.3 summary=true report=%t.time.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: FileCheck %s --check-prefix=TIME-REPORT < %t.time.json
// TIME: marl-map: done: 2/2 problems searched, {{[0-9]+}} samples, {{[0-9.]+}} s of 0.30 s
// TIME: marl-map: 3 ops mapped (2 distinct problems: 2 searched, 0 from the cache, 0 given), 0 not mapped; {{.*}} samples in {{[0-9.]+}} s (marl, seconds=0.3, edp)
// TIME-REPORT: "budget": {
// TIME-REPORT-NEXT: "samples_per_problem": null,
// TIME-REPORT-NEXT: "seconds": 0.29999999999999999
// TIME-REPORT-NEXT: },
// TIME-REPORT-NEXT: "deterministic": false,

// With both, whichever runs out first ends a search: here the samples, so
// the output is what the sample budget alone gives.
// (Searchers that follow a schedule follow the samples then, the time only
// stopping them.)
// RUN: marlmap-opt %s --marl-map="budget=150 time=100" -o %t.both 2>/dev/null
// RUN: marlmap-opt %s --marl-map="budget=150" -o %t.samples 2>/dev/null
// RUN: diff %t.both %t.samples
// RUN: marlmap-opt %s --marl-map="budget=150 time=100 searcher=annealing" -o %t.both-annealing 2>/dev/null
// RUN: marlmap-opt %s --marl-map="budget=150 searcher=annealing" -o %t.samples-annealing 2>/dev/null
// RUN: diff %t.both-annealing %t.samples-annealing
// RUN: marlmap-opt %s --marl-map="budget=150 time=100 searcher=marl" -o %t.both-marl 2>/dev/null
// RUN: marlmap-opt %s --marl-map="budget=150 searcher=marl" -o %t.samples-marl 2>/dev/null
// RUN: diff %t.both-marl %t.samples-marl
// RUN: FileCheck %s --check-prefix=BOTH < %t.both
// BOTH-COUNT-3: samples = 150 : i64

// Progress as JSON lines: start, each problem, finish.
// RUN: marlmap-opt %s --marl-map="budget=150 progress=json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: {"done":0,"event":"start","problems":2,"samples":0,"seconds":{{[0-9.e-]+}}}
// JSON-DAG: {"cycles":{{[0-9]+}},"done":{{[12]}},"energy_pJ":{{[0-9.e+]+}},"event":"problem","found":true,"problem":0,"problem_samples":150,"problems":2,"samples":{{[0-9]+}},"seconds":{{[0-9.e-]+}}}
// JSON-DAG: {"cycles":{{[0-9]+}},"done":{{[12]}},"energy_pJ":{{[0-9.e+]+}},"event":"problem","found":true,"problem":1,"problem_samples":150,"problems":2,"samples":{{[0-9]+}},"seconds":{{[0-9.e-]+}}}
// JSON: {"done":2,"event":"finish","problems":2,"samples":300,"seconds":{{[0-9.e-]+}}}

// Without a terminal, the default is a line every 2 s and a last line;
// none is silent.
// RUN: marlmap-opt %s --marl-map="budget=150" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINES
// LINES: marl-map: done: 2/2 problems searched, 300 samples, {{[0-9.]+}} s
// RUN: marlmap-opt %s --marl-map="budget=150 progress=none" -o /dev/null 2>&1 | count 0

// The totals: energy summed over the ops, cycles as if they ran one after
// another, their product, the latency at the clock, the MACs.
// RUN: marlmap-opt %s --marl-map="budget=150 progress=none report=%t.json" -o /dev/null
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); t = r['totals']; ops = r['ops']; \
// RUN:   assert abs(t['energy_pJ'] - sum(o['energy_pJ'] for o in ops)) <= 1e-9 * t['energy_pJ']; \
// RUN:   assert t['cycles'] == sum(o['cycles'] for o in ops); \
// RUN:   assert abs(t['edp'] - t['energy_pJ'] * t['cycles']) <= 1e-9 * t['edp']; \
// RUN:   assert abs(t['latency_s'] - t['cycles'] / (r['target']['clock_mhz'] * 1e6)) <= 1e-12; \
// RUN:   assert t['macs'] == 2 * 16 * 8 * 32 + 1 * 16 * 7 * 7 * 8 * 3 * 3; \
// RUN:   assert (t['ops_mapped'], t['distinct_problems'], t['searched'], t['samples']) == (3, 2, 2, 300); \
// RUN:   print('totals ok')" %t.json | FileCheck %s --check-prefix=TOTALS
// TOTALS: totals ok

// Budgets and progress styles that cannot be used.
// RUN: not marlmap-opt %s --marl-map="time=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: marl-map: time must be above 0 and at most 1000000 seconds, not -1
// RUN: not marlmap-opt %s --marl-map="time=1e9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: marl-map: time must be above 0 and at most 1000000 seconds, not 1e+09
// RUN: not marlmap-opt %s --marl-map="progress=loud" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STYLE
// STYLE: error: marl-map: progress must be auto, bar, lines, json or none, not 'loud'

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>,
               %in: tensor<1x8x29x29xf32>, %w: tensor<16x8x3x3xf32>, %out: tensor<1x16x7x7xf32>)
      -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
      ins(%in, %w : tensor<1x8x29x29xf32>, tensor<16x8x3x3xf32>) outs(%out : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
    return %0, %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<1x16x7x7xf32>
  }
}
