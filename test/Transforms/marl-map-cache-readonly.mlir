// A cache the compiler may not write (a read-only mount, an immutable file,
// a shared CI cache) is still read: its entries are used, with a note that
// new results are not stored.
// REQUIRES: unwritable-files
// (A run stopped half-way leaves the file unwritable: undo that first.)
// RUN: %make_writable %t.db 2>/dev/null || true
// RUN: rm -f %t.db && marlmap-opt %s --marl-map="budget=200 cache=%t.db progress=none" -o %t.first
// RUN: %make_unwritable %t.db
// RUN: marlmap-opt %s --marl-map="budget=200 cache=%t.db summary=true progress=none" -o %t.second 2>&1 | FileCheck %s
// RUN: marlmap-opt %s --marl-map="budget=300 cache=%t.db summary=true progress=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: %make_writable %t.db
// RUN: diff %t.first %t.second
// CHECK: warning: marl-map: the mapping cache '{{.*}}.db' cannot be written: its entries are used, new results are not stored
// CHECK: marl-map: 2 ops mapped (1 distinct problems: 0 searched, 1 from the cache, 0 given)
// A miss is searched, and not stored.
// MISS: cannot be written
// MISS: marl-map: 2 ops mapped (1 distinct problems: 1 searched, 0 from the cache, 0 given)
// MISS-NOT: warning

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
    %0 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    %1 = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0, %1 : tensor<16x8xf32>, tensor<16x8xf32>
  }
}
