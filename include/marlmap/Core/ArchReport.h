//===- ArchReport.h - Human-readable accelerator summary --------*- C++ -*-===//

#ifndef MARLMAP_CORE_ARCHREPORT_H
#define MARLMAP_CORE_ARCHREPORT_H

#include "marlmap/Core/Arch.h"

#include <string>

namespace marlmap {

/// A table of the compute array and every storage level, outermost first as
/// one reads a memory hierarchy from DRAM down. `fanout` is the X x Y spread
/// a mapping can use below each level; then the constraints, as
/// `#accel.constraint` attributes. Expects a valid description.
std::string formatArch(const Arch &arch);

} // namespace marlmap

#endif // MARLMAP_CORE_ARCHREPORT_H
