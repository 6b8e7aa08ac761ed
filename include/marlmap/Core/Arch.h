//===- Arch.h - Spatial accelerator description -----------------*- C++ -*-===//
//
// The hardware model every other part of marlmap reads: a storage hierarchy
// from the innermost level (registers, next to the MACs) to the outermost
// (DRAM), and a compute array. Field meanings follow Timeloop's architecture
// model. Plain C++17: no MLIR, no LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ARCH_H
#define MARLMAP_CORE_ARCH_H

#include "marlmap/Core/Constraint.h"
#include "marlmap/Core/Roles.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace marlmap {

enum class Technology : uint8_t { RegFile, SRAM, DRAM };
const char *technologyName(Technology tech);

/// One storage level. Every instance holds its own copy of the tiles mapped to
/// it; instances are laid out on a meshX x meshY grid.
/// The largest figures a description may give (checkArch): beyond them the
/// model's totals could overflow. Far beyond any real accelerator: 10^6 pJ
/// per access or MAC, 10^7 MHz, and bandwidths of at least 10^-6 words per
/// cycle (a larger bandwidth only divides).
constexpr double kMaxEnergy = 1e6;
constexpr double kMaxClockMHz = 1e7;
constexpr double kMinBandwidth = 1e-6;

struct StorageLevel {
  std::string name;
  Technology technology = Technology::SRAM;
  /// Capacity of one instance in words; nullopt means unbounded (DRAM).
  std::optional<int64_t> entries;
  int64_t wordBits = 16;
  /// Words moved by one (vector) access.
  int64_t blockSize = 1;
  int64_t instances = 1;
  int64_t meshX = 1;
  int64_t meshY = 1;
  /// Words per cycle per instance; nullopt means unbounded.
  std::optional<double> readBandwidth;
  std::optional<double> writeBandwidth;
  /// Energy of one word access in pJ.
  double readEnergy = 0.0;
  double writeEnergy = 0.0;
  double updateEnergy = 0.0;
  double multipleBuffering = 1.0;
  /// Tensors this level may hold; others bypass it.
  RoleSet holds;
};

/// The array of multiply-accumulate units under the innermost storage level.
struct ComputeArray {
  int64_t instances = 1;
  int64_t meshX = 1;
  int64_t meshY = 1;
  int64_t wordBits = 16;
  int64_t macsPerCycle = 1;
  /// Energy of one MAC in pJ.
  double energyPerMac = 0.0;
};

/// How a buffer's fills are counted when the loops above it move its tile
/// (docs/CostModel.md, "Fills").
enum class FillRule : uint8_t {
  /// The buffer keeps every word its new tile shares with the one before,
  /// whichever loops moved: the words a point-by-point walk of the nest
  /// fetches.
  Exact,
  /// Timeloop's two-iteration delta walk: only a move equal to the
  /// innermost loop's keeps the overlap, and the loops inside a stepping
  /// loop wrap back by one step. Architectures read from Timeloop files use
  /// it, so that their figures are Timeloop's.
  Timeloop,
};
const char *fillRuleName(FillRule rule);

struct Arch {
  std::string name;
  double clockMHz = 1000.0;
  /// Innermost (index 0) to outermost (DRAM).
  std::vector<StorageLevel> levels;
  ComputeArray compute;
  /// What the dataflow allows, per level (Constraint.h); the map space of
  /// every problem honours them.
  std::vector<Constraint> constraints;
  FillRule fillRule = FillRule::Exact;

  /// Children per instance of `level` along X / Y: the spatial fanout a
  /// mapping can use at that level. The innermost level fans out to the MACs.
  int64_t fanoutX(unsigned level) const;
  int64_t fanoutY(unsigned level) const;
  int64_t fanout(unsigned level) const {
    return fanoutX(level) * fanoutY(level);
  }
  /// Index of the level called `name`, or nullopt.
  std::optional<unsigned> levelIndex(const std::string &name) const;
};

bool operator==(const StorageLevel &a, const StorageLevel &b);
bool operator==(const ComputeArray &a, const ComputeArray &b);
bool operator==(const Arch &a, const Arch &b);
inline bool operator!=(const Arch &a, const Arch &b) { return !(a == b); }

/// Where a problem in a description lies, so a front end can point at it.
struct ArchIssue {
  enum class Where { Arch, Compute, Level, Constraint };
  Where where = Where::Arch;
  /// Index into Arch::levels when `where == Level`, into Arch::constraints
  /// when `where == Constraint`.
  unsigned level = 0;
  /// The offending field as spelled in the `accel` dialect.
  std::string field;
  std::string message;
};

/// Checks one level on its own: sizes positive, energies non-negative, mesh
/// consistent with the instance count.
std::vector<ArchIssue> checkStorageLevel(const StorageLevel &level,
                                         unsigned index);
/// Checks the compute array on its own.
std::vector<ArchIssue> checkComputeArray(const ComputeArray &compute);
/// Checks what spans levels: names, fanouts that divide, an outermost level
/// that backs every tensor, an innermost level that can feed the MACs. Does
/// not repeat the per-level and per-array checks.
std::vector<ArchIssue> checkArchStructure(const Arch &arch);
/// Checks one constraint on its own: each dim, kind and tensor named once
/// per list, factors of at least 1, nothing both kept and bypassed, spreads
/// only of dims the axis allows.
std::vector<ArchIssue> checkConstraint(const Constraint &constraint,
                                       unsigned index);
/// Checks the constraints against the hierarchy, not repeating the
/// per-constraint checks: levels that exist, keeps the level may hold, no
/// bypass at the outermost level, spreads within the fanout, one constraint
/// per level and op kind.
std::vector<ArchIssue> checkConstraintsInArch(const Arch &arch);
/// Both of the above.
std::vector<ArchIssue> checkConstraints(const Arch &arch);
/// All of the above.
std::vector<ArchIssue> checkArch(const Arch &arch);

/// Derives a mesh the way Timeloop does when it is not fully given: no mesh
/// means a 1-D row of `instances`; one side given means the other divides it.
/// Returns false (and leaves x/y untouched) when the sides do not fit.
bool deriveMesh(int64_t instances, std::optional<int64_t> meshX,
                std::optional<int64_t> meshY, int64_t &x, int64_t &y);

} // namespace marlmap

#endif // MARLMAP_CORE_ARCH_H
