// RUN: marlmap-opt %s -split-input-file -verify-diagnostics

// The target is the `edge` preset: RegFile (8x8 instances), GlobalBuffer
// (fanout 8 x 8), DRAM. The matmul's loops are d0 = 16, d1 = 8, d2 = 32.

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{mapping of level 'RegFile': 'order' must be a permutation of 0..2}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", order = [0, 0, 2], keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{mapping of level 'DRAM': 'temporal' factors must be at least 1, got 0}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 0, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{mapping of level 'DRAM': 'order' has 2 entries where another list has 3}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], order = [1, 0], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{mapping of level 'DRAM': 'keep' lists operand 1 twice}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{mapping of level 'RegFile': 'keep' lists operand -1, which is not an operand number}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [-1]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{the mapping places level 'RegFile' twice}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{the mapping has 2 levels but the target 'edge' has 3}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{level 1 of the mapping is 'GLB' but level 1 of the target 'edge' is 'GlobalBuffer'}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GLB", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{'temporal' of level 'DRAM' has 4 entries but the op has 3 loops}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32, 1], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{the factors of loop k multiply to 16 but its bound is 32: its tiles must cover it}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", temporal = [1, 1, 2], keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 8], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// Tiles need not divide their loop, but no loop may run past what its
// tile needs: DRAM's 32 tiles of 2 cover k = 32 twice over.
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{loop k: the temporal factor 32 at level 'DRAM' splits its 32 into tiles of 2, which 16 cover}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", temporal = [1, 1, 2], keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// Eight columns for d0 = 7 in tiles of 1: one column would never work.
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<7x32xf32>, %b: tensor<32x8xf32>, %c: tensor<7x8xf32>) -> tensor<7x8xf32> {
    // expected-error @+1 {{loop m: the spatial_x factor 8 at level 'GlobalBuffer' splits its 7 into tiles of 1, which 7 cover}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", spatial_x = [8, 1, 1], keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [1, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<7x32xf32>, tensor<32x8xf32>) outs(%c : tensor<7x8xf32>) -> tensor<7x8xf32>
    return %0 : tensor<7x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{level 'GlobalBuffer' spreads 16 ways along X but its fanout along X is 8}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", spatial_x = [16, 1, 1], keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [1, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{level 'DRAM' spreads 2 ways along Y but its fanout along Y is 1}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 16], spatial_y = [1, 1, 2], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{level 'RegFile' keeps operand #3 but the op has 3 operands}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [3]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{the outermost level 'DRAM' must keep every operand, but not Weights}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// Eyeriss's global buffer bypasses weights.
module attributes {accel.target = "eyeriss"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{level 'GlobalBuffer' keeps Weights (weights) but holds only inputs, outputs}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"PsumRegFile", keep = [2]>, #accel.level<"WeightRegFile", keep = [1]>, #accel.level<"InputRegFile", keep = [0]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<?x32xf32>, %b: tensor<32x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
    // expected-error @+1 {{carries a mapping but cannot be mapped: operand #0 has a dynamic shape}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<?x32xf32>, tensor<32x8xf32>) outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
    return %0 : tensor<?x8xf32>
  }
}

// -----

// expected-error @+1 {{'accel.mapping' belongs on a linalg op}}
func.func @f() attributes {accel.mapping = #accel.mapping<[#accel.level<"DRAM", keep = []>]>} {
  return
}

// -----

module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{'accel.mapping' must be an #accel.mapping}}
    %0 = linalg.matmul {accel.mapping = "row-stationary"}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// expected-error @+1 {{a mapping needs at least one level}}
func.func @f() attributes {accel.note = #accel.mapping<[]>} {
  return
}

// -----

// A malformed op is reported by its own verifier, not by the mapping's.
#id1 = affine_map<(d0) -> (d0)>
func.func @f(%v: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'linalg.generic' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %0 = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"], accel.mapping = #accel.mapping<[#accel.level<"DRAM", keep = [0, 1]>]>}
    ins(%v : tensor<8xf32>) outs(%v : tensor<8xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Factors whose product wraps around 2^64 are caught before they cover the bound.
module attributes {accel.target = "edge"} {
  func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @+1 {{the factors of loop k multiply to more than 2^63}}
    %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", temporal = [1, 1, 576460752303423489], keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// The nearest module that names a target decides, here the inner one.
module attributes {accel.target = "edge"} {
  module @inner attributes {accel.target = "eyeriss"} {
    func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
      // expected-error @+1 {{the mapping has 3 levels but the target 'eyeriss' has 5}}
      %0 = linalg.matmul {accel.mapping = #accel.mapping<[#accel.level<"RegFile", keep = [0, 1, 2]>, #accel.level<"GlobalBuffer", keep = [0, 1, 2]>, #accel.level<"DRAM", temporal = [16, 8, 32], keep = [0, 1, 2]>]>}
        ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
      return %0 : tensor<16x8xf32>
    }
  }
}

// -----

// The transform script marl-apply writes matches ops by an integer id.
func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'accel.op_id' must be an integer}}
  %0 = linalg.matmul {accel.op_id = "conv1"}
    ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
