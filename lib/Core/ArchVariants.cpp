//===- ArchVariants.cpp - An accelerator with some sizes changed ----------===//

#include "marlmap/Core/ArchVariants.h"
#include "marlmap/Core/TextNumbers.h"

namespace marlmap {

const std::vector<ArchVariantKey> &archVariantKeys() {
  static const std::vector<ArchVariantKey> keys = {
      {"pe", "XxY",
       "the array of PEs: the mesh of the outermost level with more than "
       "one instance (the compute array's when no level has); the levels "
       "and MACs inside keep their number per PE"},
      {"glb_kb", "an integer",
       "the capacity in KB of the shared buffer, the level under the "
       "outermost one (entries = KB x 8192 / word bits)"},
      {"glb_bw", "a number",
       "the shared buffer's read and write bandwidth, in words per cycle"},
      {"dram_bw", "a number",
       "the outermost level's read and write bandwidth, in words per cycle"},
      {"clock_mhz", "a number", "the clock frequency in MHz"},
  };
  return keys;
}

namespace {

// Positive and whole: "8", not "8.5", "-1" or "inf".
bool parsePositive(const std::string &text, int64_t &value) {
  std::optional<int64_t> read = readInteger(text);
  value = read.value_or(0);
  return value > 0;
}

bool parsePositive(const std::string &text, double &value) {
  std::optional<double> read = readReal(text);
  value = read.value_or(0.0);
  return value > 0.0;
}

/// The PE array becomes `x` by `y`: every mesh at or inside the outermost
/// level with several instances scales by the same ratio.
void setPeArray(Arch &arch, int64_t x, int64_t y) {
  int outermost = -1;
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    if (arch.levels[l].instances > 1)
      outermost = int(l);
  const int64_t oldX =
      outermost < 0 ? arch.compute.meshX : arch.levels[outermost].meshX;
  const int64_t oldY =
      outermost < 0 ? arch.compute.meshY : arch.levels[outermost].meshY;
  auto scale = [&](int64_t &meshX, int64_t &meshY, int64_t &instances) {
    meshX = meshX / oldX * x;
    meshY = meshY / oldY * y;
    instances = meshX * meshY;
  };
  for (int l = 0; l <= outermost; ++l)
    scale(arch.levels[l].meshX, arch.levels[l].meshY, arch.levels[l].instances);
  scale(arch.compute.meshX, arch.compute.meshY, arch.compute.instances);
}

/// Applies one setting, or says why it cannot.
llvm::Error apply(Arch &arch, const ArchSetting &setting) {
  const auto &[key, value] = setting;
  const unsigned numLevels = arch.levels.size();
  auto malformed = [&](const char *expected) {
    return makeError("'" + key + "=" + value + "': the value is not " +
                     expected);
  };
  if (key == "pe") {
    const size_t by = value.find('x');
    int64_t x = 0, y = 0;
    if (by == std::string::npos || !parsePositive(value.substr(0, by), x) ||
        !parsePositive(value.substr(by + 1), y) || y > (int64_t(1) << 24) / x)
      return malformed("XxY with positive X and Y (at most 2^24 PEs)");
    setPeArray(arch, x, y);
    return llvm::Error::success();
  }
  if (key == "clock_mhz") {
    double mhz = 0.0;
    if (!parsePositive(value, mhz))
      return malformed("a positive number");
    arch.clockMHz = mhz;
    return llvm::Error::success();
  }
  if (key == "glb_kb" || key == "glb_bw") {
    if (numLevels < 2) {
      return makeError("'" + key + "': " + arch.name +
                       " has no level under its outermost one");
    }
    StorageLevel &buffer = arch.levels[numLevels - 2];
    if (key == "glb_kb") {
      int64_t kb = 0;
      if (!parsePositive(value, kb) || kb > (int64_t(1) << 30))
        return malformed("a positive integer (at most 2^30)");
      buffer.entries = kb * 8192 / buffer.wordBits;
      return llvm::Error::success();
    }
    double bandwidth = 0.0;
    if (!parsePositive(value, bandwidth))
      return malformed("a positive number");
    buffer.readBandwidth = buffer.writeBandwidth = bandwidth;
    return llvm::Error::success();
  }
  if (key == "dram_bw") {
    double bandwidth = 0.0;
    if (!parsePositive(value, bandwidth))
      return malformed("a positive number");
    arch.levels.back().readBandwidth = arch.levels.back().writeBandwidth =
        bandwidth;
    return llvm::Error::success();
  }
  std::string known;
  for (const ArchVariantKey &variantKey : archVariantKeys())
    known += std::string(" ") + variantKey.name;
  return makeError("unknown key '" + key + "' (known:" + known + ")");
}

} // namespace

llvm::Expected<Arch> archVariant(const Arch &base,
                                 const std::vector<ArchSetting> &settings) {
  Arch variant = base;
  std::string suffix;
  for (const ArchSetting &setting : settings) {
    if (llvm::Error error = apply(variant, setting))
      return std::move(error);
    suffix +=
        (suffix.empty() ? "" : ",") + setting.first + "=" + setting.second;
  }
  if (!suffix.empty())
    variant.name += "[" + suffix + "]";
  std::vector<ArchIssue> issues = checkArch(variant);
  if (!issues.empty())
    return makeError(variant.name + ": " + issues.front().message);
  return variant;
}

} // namespace marlmap
