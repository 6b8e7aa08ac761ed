// The second compile finds every search in the cache, searches nothing and
// writes the same IR.
// RUN: rm -f %t.db
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.db summary=true" -o %t.first 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.db summary=true" -o %t.second 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: diff %t.first %t.second
// COLD: marl-map: 2 ops mapped (1 distinct problems: 1 searched, 0 from the cache, 0 given)
// WARM: linalg.matmul {{.*}} cached
// WARM: marl-map: 2 ops mapped (1 distinct problems: 0 searched, 1 from the cache, 0 given)

// Another seed is another search.
// RUN: marlmap-opt %s --marl-map="budget=200 seed=9 cache=%t.db summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// So is a searcher with other options; the same options find it again.
// RUN: marlmap-opt %s --marl-map="searcher=marl agents=1 policy-warmup=128 budget=200 cache=%t.db summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-opt %s --marl-map="searcher=marl agents=1 policy-warmup=128 budget=200 cache=%t.db summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARM
// RUN: marlmap-opt %s --marl-map="searcher=marl agents=2 policy-warmup=128 budget=200 cache=%t.db summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-opt %s --marl-map="searcher=marl agents=2 policy-warmup=128 policy-replay=0 budget=200 cache=%t.db summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLD
// RUN: marlmap-cache %t.db list | FileCheck %s --check-prefix=LIST
// LIST: 1 {{.*}} marl@3 agents=per-decision policy-lr=0.03 {{.*}}  samples=200 seed 1 edp
// LIST: 2 {{.*}} marl@3 agents=per-decision policy-lr=0.03 {{.*}}  samples=200 seed 9 edp
// LIST: 3 {{.*}} marl@3 agents=1 policy-lr=0.03 {{.*}} policy-warmup=128 {{.*}}  samples=200 seed 1 edp
// LIST: 4 {{.*}} marl@3 agents=2 {{.*}} policy-warmup=128 {{.*}} policy-replay=16 {{.*}}  samples=200 seed 1 edp
// LIST: 5 {{.*}} marl@3 agents=2 {{.*}} policy-warmup=128 {{.*}} policy-replay=0 {{.*}}  samples=200 seed 1 edp
// LIST: 5 entries
// RUN: marlmap-cache %t.db show 1 | FileCheck %s --check-prefix=SHOW
// SHOW: samples: 200
// SHOW: mapping: t={{[0-9,]+}} o={{[0-9,]+}}
// RUN: marlmap-cache %t.db clear
// RUN: marlmap-cache %t.db list | FileCheck %s --check-prefix=EMPTY
// EMPTY: 0 entries

// An entry edited by hand is not trusted: the problem is searched again,
// with a warning, and the output is what the search gives.
// RUN: rm -f %t.edited.db
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.edited.db progress=none" -o /dev/null
// RUN: %python -c "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('UPDATE mappings SET cost = cost / 2'); db.commit()" %t.edited.db
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.edited.db summary=true progress=none" -o %t.edited 2>&1 | FileCheck %s --check-prefix=EDITED
// RUN: diff %t.first %t.edited
// EDITED: warning: marl-map: an entry of the mapping cache that does not match its checksum (edited or damaged) was ignored; searching again
// EDITED: marl-map: 2 ops mapped (1 distinct problems: 1 searched, 0 from the cache, 0 given)

// A file that is no cache is reported, and the compile goes on without it.
// RUN: echo "not a database" > %t.bad
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.bad" -o %t.nocache 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: diff %t.first %t.nocache
// BAD: warning: marl-map: the mapping cache '{{.*}}.bad' is unusable: file is not a database; searching without the cache
// RUN: not marlmap-cache %t.bad list 2>&1 | FileCheck %s --check-prefix=TOOLBAD
// A path with no cache is an error, and creates nothing.
// RUN: not marlmap-cache %t.nowhere.db list 2>&1 | FileCheck %s --check-prefix=NOWHERE
// RUN: not test -e %t.nowhere.db
// RUN: marlmap-cache --help | FileCheck %s --check-prefix=HELP
// NOWHERE: error: no mapping cache at '{{.*}}nowhere.db'
// HELP: marlmap-cache FILE list
// HELP-NOT: --mlir-
// HELP-NOT: --debug-counter
// TOOLBAD: error: the mapping cache '{{.*}}.bad' is unusable: file is not a database

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
