//===- ArchReport.cpp - Human-readable accelerator summary ----------------===//

#include "marlmap/Core/ArchReport.h"

#include <iomanip>
#include <sstream>

namespace marlmap {

static std::string number(double value) {
  std::ostringstream os;
  os << std::setprecision(6) << value;
  return os.str();
}

static std::string orUnbounded(const std::optional<double> &value) {
  return value ? number(*value) : "-";
}

static std::string grid(int64_t x, int64_t y) {
  return std::to_string(x) + "x" + std::to_string(y);
}

std::string formatArch(const Arch &arch) {
  std::ostringstream os;
  const ComputeArray &c = arch.compute;
  os << "accelerator '" << arch.name << "': " << number(arch.clockMHz)
     << " MHz, " << c.instances << " MACs (" << grid(c.meshX, c.meshY) << "), "
     << c.macsPerCycle << " MAC/cycle each, " << c.wordBits << "-bit, "
     << number(c.energyPerMac) << " pJ/MAC\n";

  // Names set the first column's width, so long ones never break a row.
  size_t nameWidth = 16;
  for (const StorageLevel &level : arch.levels)
    nameWidth = std::max(nameWidth, level.name.size());
  auto row = [&](const std::vector<std::string> &cells) {
    static const int widths[] = {0, -8, 10, 5, 5, 6, 7, 7, 6, 6, 8, 8};
    os << "  " << std::left << std::setw(int(nameWidth)) << cells[0];
    for (size_t i = 1; i + 1 < cells.size(); ++i) {
      int width = widths[i];
      os << ' ' << (width < 0 ? std::left : std::right)
         << std::setw(width < 0 ? -width : width) << cells[i];
    }
    os << "  " << cells.back() << '\n';
  };
  row({"level", "tech", "entries", "bits", "block", "inst", "mesh", "fanout",
       "rd/cy", "wr/cy", "rd pJ", "wr pJ", "holds"});
  for (unsigned i = arch.levels.size(); i-- > 0;) {
    const StorageLevel &l = arch.levels[i];
    row({l.name, technologyName(l.technology),
         l.entries ? std::to_string(*l.entries) : "-",
         std::to_string(l.wordBits), std::to_string(l.blockSize),
         std::to_string(l.instances), grid(l.meshX, l.meshY),
         grid(arch.fanoutX(i), arch.fanoutY(i)), orUnbounded(l.readBandwidth),
         orUnbounded(l.writeBandwidth), number(l.readEnergy),
         number(l.writeEnergy), l.holds.str()});
  }
  // The dataflow, in the #accel.constraint spelling a user can copy.
  if (!arch.constraints.empty())
    os << "constraints:\n";
  for (const Constraint &constraint : arch.constraints)
    os << "  #accel.constraint<" << constraint.str() << ">\n";
  return os.str();
}

} // namespace marlmap
