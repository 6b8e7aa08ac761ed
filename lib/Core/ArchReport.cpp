//===- ArchReport.cpp - Human-readable accelerator summary ----------------===//

#include "marlmap/Core/ArchReport.h"

#include <cstdio>
#include <sstream>

namespace marlmap {

static std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

static std::string orUnbounded(const std::optional<double> &value) {
  return value ? number(*value) : "-";
}

std::string formatArch(const Arch &arch) {
  std::ostringstream os;
  const ComputeArray &c = arch.compute;
  os << "accelerator '" << arch.name << "': " << number(arch.clockMHz)
     << " MHz, " << c.instances << " MACs (" << c.meshX << "x" << c.meshY
     << "), " << c.macsPerCycle << " MAC/cycle each, " << c.wordBits << "-bit, "
     << number(c.energyPerMac) << " pJ/MAC\n";
  char line[256];
  std::snprintf(line, sizeof(line),
                "  %-16s %-8s %10s %5s %5s %6s %7s %7s %6s %6s %8s %8s  %s\n",
                "level", "tech", "entries", "bits", "block", "inst", "mesh",
                "fanout", "rd/cy", "wr/cy", "rd pJ", "wr pJ", "holds");
  os << line;
  for (unsigned i = arch.levels.size(); i-- > 0;) {
    const StorageLevel &l = arch.levels[i];
    std::string entries = l.entries ? std::to_string(*l.entries) : "-";
    std::string mesh = std::to_string(l.meshX) + "x" + std::to_string(l.meshY);
    std::string fanout =
        std::to_string(arch.fanoutX(i)) + "x" + std::to_string(arch.fanoutY(i));
    std::snprintf(
        line, sizeof(line),
        "  %-16s %-8s %10s %5lld %5lld %6lld %7s %7s %6s %6s %8s %8s  "
        "%s\n",
        l.name.c_str(), technologyName(l.technology), entries.c_str(),
        (long long)l.wordBits, (long long)l.blockSize, (long long)l.instances,
        mesh.c_str(), fanout.c_str(), orUnbounded(l.readBandwidth).c_str(),
        orUnbounded(l.writeBandwidth).c_str(), number(l.readEnergy).c_str(),
        number(l.writeEnergy).c_str(), l.holds.str().c_str());
    os << line;
  }
  return os.str();
}

} // namespace marlmap
