// The factor spaces through the pass. Every searcher that walks parameters
// maps a product with awkward bounds (197 tokens, 13, 56) in the imperfect
// spaces; a second marlmap-opt verifies each mapping against the target (its
// tiles cover every loop); the report names the space.
// RUN: marlmap-opt %s --marl-map="factors=imperfect searcher=random budget=300 progress=none report=%t.json" | marlmap-opt -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "factors": "imperfect",
// RUN: marlmap-opt %s --marl-map="factors=imperfect searcher=genetic budget=300 progress=none" | marlmap-opt -o /dev/null
// RUN: marlmap-opt %s --marl-map="factors=imperfect searcher=annealing budget=300 progress=none" | marlmap-opt -o /dev/null
// RUN: marlmap-opt %s --marl-map="factors=imperfect searcher=marl budget=300 progress=none" | marlmap-opt -o /dev/null
// RUN: marlmap-opt %s --marl-map="factors=imperfect searcher=sarl budget=300 progress=none" | marlmap-opt -o /dev/null
// RUN: marlmap-opt %s --marl-map="factors=spatial-imperfect searcher=marl budget=300 progress=none" | marlmap-opt -o /dev/null

// The same seed gives the same mappings on any thread count.
// RUN: marlmap-opt %s --marl-map="factors=imperfect budget=300 threads=1 progress=none" -o %t.one
// RUN: marlmap-opt %s --marl-map="factors=imperfect budget=300 threads=2 progress=none" -o %t.two
// RUN: diff %t.one %t.two

// The space is part of the cache key: a perfect result is not served for
// an imperfect request.
// RUN: rm -f %t.db %t.db-wal %t.db-shm
// RUN: marlmap-opt %s --marl-map="factors=perfect budget=200 cache=%t.db summary=true progress=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-opt %s --marl-map="factors=imperfect budget=200 cache=%t.db summary=true progress=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-opt %s --marl-map="factors=imperfect budget=200 cache=%t.db summary=true progress=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARM
// COLD: 1 searched, 0 from the cache
// WARM: 0 searched, 1 from the cache{{.*}}factors=imperfect)

// What cannot be is refused.
// RUN: not marlmap-opt %s --marl-map="factors=ruby" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: factors must be perfect, spatial-imperfect, imperfect or auto, not 'ruby'
// RUN: not marlmap-opt %s --marl-map="factors=imperfect searcher=optimal" 2>&1 | FileCheck %s --check-prefix=OPTIMAL
// OPTIMAL: factors must be perfect for searcher 'optimal', which walks the space of factors that divide their loops, not 'imperfect'

module attributes {accel.target = "eyeriss"} {
  func.func @f(%a: tensor<197x13xf32>, %b: tensor<13x56xf32>, %c: tensor<197x56xf32>) -> tensor<197x56xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<197x13xf32>, tensor<13x56xf32>) outs(%c : tensor<197x56xf32>) -> tensor<197x56xf32>
    return %0 : tensor<197x56xf32>
  }
}
