//===- ArchVariants.h - An accelerator with some sizes changed --*- C++ -*-===//
//
// A design-space sweep varies a few sizes of a base accelerator: its array
// of PEs, its shared buffer, its bandwidths, its clock. Each key says which
// level it changes, so that a grid means the same on every preset
// (docs/Sweep.md lists them).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ARCHVARIANTS_H
#define MARLMAP_CORE_ARCHVARIANTS_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Error.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace marlmap {

/// A key a variant may set: its name, how its value is written, and what
/// it changes.
struct ArchVariantKey {
  const char *name;
  const char *value;
  const char *changes;
};

/// Every key, in the order the documentation lists them.
const std::vector<ArchVariantKey> &archVariantKeys();

/// One key set to one value, as written: ("pe", "8x8").
using ArchSetting = std::pair<std::string, std::string>;

/// `base` with every setting applied in turn, named `base.name` followed by
/// the settings (`eyeriss[pe=8x8,glb_kb=64]`); an error when a key is
/// unknown, a value malformed, or the result is not an accelerator
/// checkArch accepts (a constraint of the base that no longer fits the new
/// array, say).
llvm::Expected<Arch> archVariant(const Arch &base,
                                 const std::vector<ArchSetting> &settings);

} // namespace marlmap

#endif // MARLMAP_CORE_ARCHVARIANTS_H
