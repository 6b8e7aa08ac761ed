//===- LoopNames.h - The names linalg gives a named op's loops --*- C++ -*-===//
//
// Reports name a problem's loops as the op's definition does (linalg's
// OpDSL: `m, n, k` for a matmul, `n, f, oh, ow, c, kh, kw` for an NCHW
// convolution), and `d0, d1, ...` (its indexing maps' names) otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_ANALYSIS_LOOPNAMES_H
#define MARLMAP_ANALYSIS_LOOPNAMES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace marlmap {

/// The names of the `rank` loops of the op named `opName`.
std::vector<std::string> loopNames(llvm::StringRef opName, unsigned rank);

} // namespace marlmap

#endif // MARLMAP_ANALYSIS_LOOPNAMES_H
