//===- Presets.h - Named accelerator descriptions ---------------*- C++ -*-===//
//
// Ready-made accelerators, found by name. docs/Presets.md gives the source of
// every number.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_PRESETS_H
#define MARLMAP_CORE_PRESETS_H

#include "marlmap/Core/Arch.h"

#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// The preset used when neither the user nor the module names a target.
constexpr const char *kDefaultPreset = "eyeriss";

/// Names of all presets, in a stable order.
const std::vector<std::string> &presetNames();

/// The preset called `name`, or nullopt.
std::optional<Arch> findPreset(const std::string &name);

} // namespace marlmap

#endif // MARLMAP_CORE_PRESETS_H
