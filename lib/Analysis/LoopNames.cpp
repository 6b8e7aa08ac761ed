//===- LoopNames.cpp - The names linalg gives a named op's loops ----------===//

#include "marlmap/Analysis/LoopNames.h"

#include "llvm/ADT/StringSwitch.h"

namespace marlmap {

std::vector<std::string> loopNames(llvm::StringRef opName, unsigned rank) {
  // The loops in the order of the op's indexing maps, as linalg's OpDSL
  // declares its domain.
  std::vector<std::string> names =
      llvm::StringSwitch<std::vector<std::string>>(opName)
          .Case("linalg.matmul", {"m", "n", "k"})
          .Case("linalg.batch_matmul", {"b", "m", "n", "k"})
          .Case("linalg.matvec", {"m", "n"})
          .Case("linalg.vecmat", {"n", "m"})
          .Case("linalg.conv_2d_nchw_fchw",
                {"n", "f", "oh", "ow", "c", "kh", "kw"})
          .Case("linalg.conv_2d_nhwc_hwcf",
                {"n", "oh", "ow", "f", "kh", "kw", "c"})
          .Case("linalg.conv_2d_nhwc_fhwc",
                {"n", "oh", "ow", "f", "kh", "kw", "c"})
          .Case("linalg.depthwise_conv_2d_nchw_chw",
                {"n", "oh", "ow", "c", "kh", "kw"})
          .Case("linalg.depthwise_conv_2d_nhwc_hwc",
                {"n", "oh", "ow", "c", "kh", "kw"})
          .Cases({"linalg.pooling_nchw_sum", "linalg.pooling_nchw_max"},
                 {"n", "c", "oh", "ow", "kh", "kw"})
          .Cases({"linalg.pooling_nhwc_sum", "linalg.pooling_nhwc_max",
                  "linalg.pooling_nhwc_min"},
                 {"n", "oh", "ow", "c", "kh", "kw"})
          .Default({});
  if (names.size() == rank)
    return names;
  names.clear();
  for (unsigned d = 0; d < rank; ++d)
    names.push_back("d" + std::to_string(d));
  return names;
}

} // namespace marlmap
