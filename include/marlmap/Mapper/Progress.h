//===- Progress.h - Showing a mapper's progress -----------------*- C++ -*-===//
//
// How the passes and the tools show progress on stderr: a live bar on a
// terminal; a line about every 2 seconds and a last line otherwise (CI
// logs, build systems); JSON lines for programs; or nothing.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_PROGRESS_H
#define MARLMAP_MAPPER_PROGRESS_H

#include "marlmap/Mapper/Mapper.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace marlmap {

enum class ProgressStyle { Auto, Bar, Lines, Json, None };

/// From auto, bar, lines, json or none.
std::optional<ProgressStyle> parseProgressStyle(const std::string &text);
constexpr const char *kProgressStyles = "auto, bar, lines, json or none";

/// Prints events to `os` in `style`, each line starting with `prefix`
/// ("marl-map"); Auto is Bar when `terminal`, else Lines. `os` must
/// outlive the callback.
ProgressCallback makeProgressPrinter(ProgressStyle style, llvm::raw_ostream &os,
                                     bool terminal, std::string prefix);

} // namespace marlmap

#endif // MARLMAP_MAPPER_PROGRESS_H
