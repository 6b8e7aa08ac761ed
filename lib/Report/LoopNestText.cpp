//===- LoopNestText.cpp - A mapping as a loop nest ------------------------===//

#include "marlmap/Report/TextView.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>

namespace marlmap {

namespace {

/// "[ Inputs:120 Outputs:32 ]": the words per instance of what the level
/// keeps.
std::string keptText(const Evaluation &evaluation, const Problem &problem,
                     unsigned level) {
  std::string text;
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    const OperandStats &stats = evaluation.at(level, o);
    if (stats.kept)
      text += " " + problem.operands[o].name + ":" +
              std::to_string(stats.utilizedCapacity);
  }
  return "[" + (text.empty() ? std::string(" nothing kept") : text) + " ]";
}

/// ", 152 of 192 words (79%)" for a bounded level; "" for an unbounded one
/// and for one without room (it only carries a fanout).
std::string occupancyText(const StorageLevel &level, int64_t words) {
  if (!level.entries || *level.entries == 0)
    return "";
  const double usable = double(*level.entries) / level.multipleBuffering;
  std::string text =
      llvm::formatv(" {0} of {1} words ({2:f0}%)", words, int64_t(usable),
                    100.0 * double(words) / usable)
          .str();
  if (level.multipleBuffering > 1) {
    char buffering[32];
    std::snprintf(buffering, sizeof(buffering), ", %gx buffered",
                  level.multipleBuffering);
    text += buffering;
  }
  return text;
}

} // namespace

std::string loopNestText(const Mapping &mapping, const Problem &problem,
                         const Arch &arch, const Evaluation &evaluation) {
  std::string text;
  unsigned depth = 0;
  auto loop = [&](unsigned dim, int64_t factor, const char *mark) {
    text += "| " + std::string(2 * depth++, ' ') + "for " +
            problem.dims[dim].name + " in [0:" + std::to_string(factor) + ")" +
            mark + "\n";
  };
  for (unsigned l = unsigned(arch.levels.size()); l-- > 0;) {
    const LevelMapping &level = mapping.levels[l];
    std::string header =
        arch.levels[l].name + " " + keptText(evaluation, problem, l) +
        occupancyText(arch.levels[l], evaluation.levels[l].utilizedCapacity);
    text += (text.empty() ? "" : "\n") + header + "\n" +
            std::string(header.size(), '-') + "\n";
    for (unsigned dim : level.order)
      if (level.temporal[dim] > 1)
        loop(dim, level.temporal[dim], "");
    for (unsigned dim = 0; dim < problem.dims.size(); ++dim)
      if (level.spatialX[dim] > 1)
        loop(dim, level.spatialX[dim], " (spatial X)");
    for (unsigned dim = 0; dim < problem.dims.size(); ++dim)
      if (level.spatialY[dim] > 1)
        loop(dim, level.spatialY[dim], " (spatial Y)");
  }
  text += "| " + std::string(2 * depth, ' ') + "<< compute >>\n";
  return text;
}

} // namespace marlmap
