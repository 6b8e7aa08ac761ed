//===- TimeloopYamlFuzzer.cpp - Timeloop's YAML from any text -------------===//
//
// The first byte picks the reader (architecture, problem, or a mapping of
// a fixed problem on a fixed architecture); the rest is its text. Any
// input may be refused; none may crash, and whatever is read must pass or
// fail marlmap's own checks, never break them.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/Layers.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Interop/TimeloopYaml.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  llvm::StringRef text(reinterpret_cast<const char *>(data) + 1, size - 1);
  switch (data[0] % 3) {
  case 0:
    if (llvm::Expected<marlmap::Arch> arch =
            marlmap::timeloop::readArch(text, "fuzz.yaml"))
      (void)marlmap::checkArch(*arch);
    else
      llvm::consumeError(arch.takeError());
    break;
  case 1:
    if (llvm::Expected<marlmap::Problem> problem =
            marlmap::timeloop::readProblem(text, "fuzz.yaml"))
      (void)problem->check();
    else
      llvm::consumeError(problem.takeError());
    break;
  default: {
    static const marlmap::Problem problem =
        marlmap::makeConv({1, 16, 8, 14, 14, 3, 3});
    static const marlmap::Arch arch = *marlmap::findPreset("eyeriss");
    if (llvm::Expected<marlmap::Mapping> mapping =
            marlmap::timeloop::readMapping(text, "fuzz.yaml", problem, arch))
      (void)marlmap::checkMappingShape(*mapping, problem, arch);
    else
      llvm::consumeError(mapping.takeError());
  }
  }
  return 0;
}
