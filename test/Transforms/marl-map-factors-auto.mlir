// factors=auto: partial tiles for the ops whose loops only they spread well
// over the array (197 rows over eyeriss's 14-wide rows), whole factors for
// the others (112 x 96 fills them in whole steps). A second marlmap-opt
// verifies every mapping; the report names the option and each op's space.
// RUN: marlmap-opt %s --marl-map="factors=auto budget=200 progress=none report=%t.json summary=true" 2>%t.summary | marlmap-opt -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary
// REPORT: "factors": "auto",
// REPORT: "factors": "spatial-imperfect",
// REPORT: "loops": "197x56x13",
// REPORT: "factors": "perfect",
// REPORT: "loops": "112x96x64",
// SUMMARY: 2 searched{{.*}}(marl, samples=200, edp)

// The same seed gives the same mappings on any thread count.
// RUN: marlmap-opt %s --marl-map="factors=auto budget=200 threads=1 progress=none" -o %t.one
// RUN: marlmap-opt %s --marl-map="factors=auto budget=200 threads=2 progress=none" -o %t.two
// RUN: diff %t.one %t.two

// An op auto keeps whole is the perfect space's problem: a perfect search's
// cached mapping serves it; the other is searched.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: marlmap-opt %s --marl-map="factors=perfect budget=200 cache=%t.db progress=none" -o /dev/null
// RUN: marlmap-opt %s --marl-map="factors=auto budget=200 cache=%t.db summary=true progress=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CACHED
// CACHED: 1 searched, 1 from the cache

// A searcher that walks whole factors only keeps to them.
// RUN: marlmap-opt %s --marl-map="factors=auto searcher=optimal budget=200 progress=none report=%t.optimal.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=OPTIMAL < %t.optimal.json
// OPTIMAL-NOT: "factors": "{{(spatial-)?}}imperfect"

module attributes {accel.target = "eyeriss"} {
  func.func @f(%a: tensor<197x13xf32>, %b: tensor<13x56xf32>, %c: tensor<197x56xf32>,
               %d: tensor<112x64xf32>, %e: tensor<64x96xf32>, %g: tensor<112x96xf32>)
      -> (tensor<197x56xf32>, tensor<112x96xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<197x13xf32>, tensor<13x56xf32>) outs(%c : tensor<197x56xf32>) -> tensor<197x56xf32>
    %1 = linalg.matmul ins(%d, %e : tensor<112x64xf32>, tensor<64x96xf32>) outs(%g : tensor<112x96xf32>) -> tensor<112x96xf32>
    return %0, %1 : tensor<197x56xf32>, tensor<112x96xf32>
  }
}
