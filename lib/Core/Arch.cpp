//===- Arch.cpp - Spatial accelerator description -------------------------===//

#include "marlmap/Core/Arch.h"

#include <cmath>
#include <set>
#include <sstream>

namespace marlmap {

const char *tensorRoleName(TensorRole role) {
  switch (role) {
  case TensorRole::Inputs:
    return "inputs";
  case TensorRole::Weights:
    return "weights";
  case TensorRole::Outputs:
    return "outputs";
  }
  return "?";
}

std::string RoleSet::str() const {
  if (empty())
    return "nothing";
  std::string out;
  for (unsigned r = 0; r < kNumTensorRoles; ++r) {
    if (!contains(TensorRole(r)))
      continue;
    if (!out.empty())
      out += ", ";
    out += tensorRoleName(TensorRole(r));
  }
  return out;
}

const char *technologyName(Technology tech) {
  switch (tech) {
  case Technology::RegFile:
    return "regfile";
  case Technology::SRAM:
    return "sram";
  case Technology::DRAM:
    return "dram";
  }
  return "?";
}

int64_t Arch::fanoutX(unsigned level) const {
  int64_t inner = level == 0 ? compute.meshX : levels[level - 1].meshX;
  return inner / levels[level].meshX;
}

int64_t Arch::fanoutY(unsigned level) const {
  int64_t inner = level == 0 ? compute.meshY : levels[level - 1].meshY;
  return inner / levels[level].meshY;
}

std::optional<unsigned> Arch::levelIndex(const std::string &name) const {
  for (unsigned i = 0; i < levels.size(); ++i)
    if (levels[i].name == name)
      return i;
  return std::nullopt;
}

bool operator==(const StorageLevel &a, const StorageLevel &b) {
  return a.name == b.name && a.technology == b.technology &&
         a.entries == b.entries && a.wordBits == b.wordBits &&
         a.blockSize == b.blockSize && a.instances == b.instances &&
         a.meshX == b.meshX && a.meshY == b.meshY &&
         a.readBandwidth == b.readBandwidth &&
         a.writeBandwidth == b.writeBandwidth && a.readEnergy == b.readEnergy &&
         a.writeEnergy == b.writeEnergy && a.updateEnergy == b.updateEnergy &&
         a.multipleBuffering == b.multipleBuffering && a.holds == b.holds;
}

bool operator==(const ComputeArray &a, const ComputeArray &b) {
  return a.instances == b.instances && a.meshX == b.meshX &&
         a.meshY == b.meshY && a.wordBits == b.wordBits &&
         a.macsPerCycle == b.macsPerCycle && a.energyPerMac == b.energyPerMac;
}

bool operator==(const Arch &a, const Arch &b) {
  return a.name == b.name && a.clockMHz == b.clockMHz && a.levels == b.levels &&
         a.compute == b.compute && a.constraints == b.constraints &&
         a.fillRule == b.fillRule;
}

const char *fillRuleName(FillRule rule) {
  return rule == FillRule::Timeloop ? "timeloop" : "exact";
}

bool deriveMesh(int64_t instances, std::optional<int64_t> meshX,
                std::optional<int64_t> meshY, int64_t &x, int64_t &y) {
  if (instances <= 0 || (meshX && *meshX <= 0) || (meshY && *meshY <= 0))
    return false;
  int64_t gx = meshX ? *meshX : 0, gy = meshY ? *meshY : 0;
  if (!meshX && !meshY) {
    gx = instances;
    gy = 1;
  } else if (!meshY) {
    if (instances % gx != 0)
      return false;
    gy = instances / gx;
  } else if (!meshX) {
    if (instances % gy != 0)
      return false;
    gx = instances / gy;
  }
  // Divide rather than multiply: huge sides must not wrap to a match.
  if (instances % gx != 0 || instances / gx != gy)
    return false;
  x = gx;
  y = gy;
  return true;
}

namespace {

/// Collects issues with a uniform shape and wording.
class IssueList {
public:
  IssueList(ArchIssue::Where where, unsigned level, std::string subject)
      : where(where), level(level), subject(std::move(subject)) {}

  void add(const std::string &field, const std::string &what) {
    issues.push_back({where, level, field, subject + what});
  }
  void requirePositive(const std::string &field, int64_t value) {
    if (value <= 0)
      add(field,
          "'" + field + "' must be positive, got " + std::to_string(value));
  }
  void requirePositive(const std::string &field, double value) {
    if (!(value > 0.0) || !std::isfinite(value))
      add(field,
          "'" + field + "' must be positive and finite, got " + str(value));
  }
  void requireNonNegative(const std::string &field, double value) {
    if (!(value >= 0.0) || !std::isfinite(value))
      add(field,
          "'" + field + "' must be finite and not negative, got " + str(value));
  }
  /// A figure that multiplies into the model's totals, or divides them:
  /// at most `highest` or at least `lowest`, so that no total overflows a
  /// double. Zero and negative values are the other checks' to report.
  void requireAtMost(const std::string &field, double value, double highest) {
    if (value > highest && std::isfinite(value))
      add(field, "'" + field + "' must be at most " + str(highest) + ", got " +
                     str(value));
  }
  void requireAtLeast(const std::string &field, double value, double lowest) {
    if (value > 0.0 && value < lowest)
      add(field, "'" + field + "' must be at least " + str(lowest) + ", got " +
                     str(value));
  }
  void checkMesh(int64_t instances, int64_t meshX, int64_t meshY) {
    if (instances > 0 && meshX > 0 && meshY > 0 &&
        (instances % meshX != 0 || instances / meshX != meshY))
      add("mesh_x", "mesh " + std::to_string(meshX) + "x" +
                        std::to_string(meshY) + " does not hold its " +
                        std::to_string(instances) + " instances");
  }
  std::vector<ArchIssue> take() { return std::move(issues); }

  static std::string str(double value) {
    std::ostringstream os;
    os << value;
    return os.str();
  }

private:
  ArchIssue::Where where;
  unsigned level;
  std::string subject;
  std::vector<ArchIssue> issues;
};

void append(std::vector<ArchIssue> &to, std::vector<ArchIssue> from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()),
            std::make_move_iterator(from.end()));
}

/// Whether every innermost-level instance feeds the same whole number of MACs.
bool macsSplitEvenly(const Arch &arch) {
  int64_t macs = arch.compute.instances, feeders = arch.levels[0].instances;
  return macs > 0 && feeders > 0 && macs % feeders == 0;
}

/// A level's mesh side must divide its children's, so the fanout is whole.
void checkDivides(IssueList &list, const std::string &field, int64_t side,
                  int64_t childSide, const std::string &childName) {
  if (side > 0 && childSide > 0 && childSide % side != 0)
    list.add(field, field + " " + std::to_string(side) +
                        " does not divide the " + field + " " +
                        std::to_string(childSide) + " of " + childName +
                        " below it, so the fanout is not whole");
}

} // namespace

std::vector<ArchIssue> checkStorageLevel(const StorageLevel &level,
                                         unsigned index) {
  IssueList list(ArchIssue::Where::Level, index,
                 "storage level '" + level.name + "': ");
  if (level.name.empty())
    list.add("name", "a storage level needs a name");
  if (level.entries) {
    // A level that holds nothing may have no capacity: it only carries a
    // fanout (Timeloop's Eyeriss "DummyBuffer").
    if (*level.entries < 0 || (*level.entries == 0 && !level.holds.empty()))
      list.add("entries", "'entries' must be positive for a level that holds " +
                              level.holds.str() + ", got " +
                              std::to_string(*level.entries));
  }
  list.requirePositive("word_bits", level.wordBits);
  list.requirePositive("block_size", level.blockSize);
  list.requirePositive("instances", level.instances);
  list.requirePositive("mesh_x", level.meshX);
  list.requirePositive("mesh_y", level.meshY);
  list.checkMesh(level.instances, level.meshX, level.meshY);
  for (const auto &[field, bandwidth] :
       {std::make_pair("read_bandwidth", level.readBandwidth),
        std::make_pair("write_bandwidth", level.writeBandwidth)})
    if (bandwidth) {
      list.requirePositive(field, *bandwidth);
      list.requireAtLeast(field, *bandwidth, kMinBandwidth);
    }
  // An update energy equal to the write energy is usually the write energy
  // itself (the default); its sign is then reported once, as the write's.
  auto checkEnergy = [&](const char *field, double energy) {
    list.requireNonNegative(field, energy);
    list.requireAtMost(field, energy, kMaxEnergy);
  };
  checkEnergy("read_energy", level.readEnergy);
  checkEnergy("write_energy", level.writeEnergy);
  if (level.updateEnergy != level.writeEnergy)
    checkEnergy("update_energy", level.updateEnergy);
  if (!(level.multipleBuffering >= 1.0) ||
      !std::isfinite(level.multipleBuffering))
    list.add("multiple_buffering",
             "'multiple_buffering' must be at least 1, got " +
                 IssueList::str(level.multipleBuffering));
  return list.take();
}

std::vector<ArchIssue> checkComputeArray(const ComputeArray &compute) {
  IssueList list(ArchIssue::Where::Compute, 0, "compute array: ");
  list.requirePositive("instances", compute.instances);
  list.requirePositive("mesh_x", compute.meshX);
  list.requirePositive("mesh_y", compute.meshY);
  list.checkMesh(compute.instances, compute.meshX, compute.meshY);
  list.requirePositive("word_bits", compute.wordBits);
  list.requirePositive("macs_per_cycle", compute.macsPerCycle);
  list.requireNonNegative("energy_per_mac", compute.energyPerMac);
  list.requireAtMost("energy_per_mac", compute.energyPerMac, kMaxEnergy);
  return list.take();
}

std::vector<ArchIssue> checkArchStructure(const Arch &arch) {
  std::vector<ArchIssue> issues;
  IssueList top(ArchIssue::Where::Arch, 0, "accelerator '" + arch.name + "': ");
  if (arch.name.empty())
    top.add("name", "an accelerator needs a name");
  top.requirePositive("clock_mhz", arch.clockMHz);
  top.requireAtMost("clock_mhz", arch.clockMHz, kMaxClockMHz);
  if (arch.levels.empty())
    top.add("levels", "needs at least one storage level");
  append(issues, top.take());
  if (arch.levels.empty())
    return issues;

  std::set<std::string> seen;
  for (unsigned i = 0; i < arch.levels.size(); ++i) {
    const StorageLevel &level = arch.levels[i];
    IssueList list(ArchIssue::Where::Level, i,
                   "storage level '" + level.name + "': ");
    if (!level.name.empty() && !seen.insert(level.name).second)
      list.add("name", "the name is used by another level");
    // The children of this level are the next inner level, or the MACs. How
    // MACs hang under the innermost level is checked once, further down.
    bool innermost = i == 0;
    if (!innermost || macsSplitEvenly(arch)) {
      const std::string childName =
          innermost ? "the compute array" : "'" + arch.levels[i - 1].name + "'";
      int64_t childX =
          innermost ? arch.compute.meshX : arch.levels[i - 1].meshX;
      int64_t childY =
          innermost ? arch.compute.meshY : arch.levels[i - 1].meshY;
      checkDivides(list, "mesh_x", level.meshX, childX, childName);
      checkDivides(list, "mesh_y", level.meshY, childY, childName);
    }
    append(issues, list.take());
  }

  const StorageLevel &outermost = arch.levels.back();
  IssueList backing(ArchIssue::Where::Level, unsigned(arch.levels.size() - 1),
                    "storage level '" + outermost.name + "': ");
  if (!(outermost.holds == RoleSet::all()))
    backing.add("holds", "the outermost level must hold inputs, weights and "
                         "outputs (it holds " +
                             outermost.holds.str() + ")");
  append(issues, backing.take());

  // Every MAC needs an operand path from storage: the innermost level must
  // have instances to spare for each MAC column/row it feeds, and some level
  // must hold each tensor (the outermost check covers the latter).
  IssueList feed(ArchIssue::Where::Compute, 0, "compute array: ");
  if (arch.compute.instances > 0 && arch.levels[0].instances > 0 &&
      arch.compute.instances < arch.levels[0].instances)
    feed.add("instances", std::to_string(arch.compute.instances) +
                              " MACs cannot be fed by " +
                              std::to_string(arch.levels[0].instances) +
                              " instances of the innermost level '" +
                              arch.levels[0].name + "'");
  else if (arch.compute.instances > 0 && arch.levels[0].instances > 0 &&
           arch.compute.instances % arch.levels[0].instances != 0)
    feed.add("instances", std::to_string(arch.compute.instances) +
                              " MACs do not split evenly over the " +
                              std::to_string(arch.levels[0].instances) +
                              " instances of the innermost level '" +
                              arch.levels[0].name + "'");
  if (arch.compute.wordBits > 0 && arch.levels[0].wordBits > 0 &&
      arch.levels[0].wordBits < arch.compute.wordBits)
    feed.add(
        "word_bits",
        "MAC operands of " + std::to_string(arch.compute.wordBits) +
            " bits do not fit the " + std::to_string(arch.levels[0].wordBits) +
            "-bit words of the innermost level '" + arch.levels[0].name + "'");
  append(issues, feed.take());
  return issues;
}

std::vector<ArchIssue> checkArch(const Arch &arch) {
  std::vector<ArchIssue> issues;
  for (unsigned i = 0; i < arch.levels.size(); ++i)
    append(issues, checkStorageLevel(arch.levels[i], i));
  append(issues, checkComputeArray(arch.compute));
  append(issues, checkArchStructure(arch));
  append(issues, checkConstraints(arch));
  return issues;
}

} // namespace marlmap
