//===- CostModel.h - Timeloop-compatible analytical cost model --*- C++ -*-===//
//
// Evaluates a mapping of a problem onto an accelerator with Timeloop v3's
// rules (docs/CostModel.md): per level and operand the tile, the words read,
// filled and updated, multicast and spatial reduction; cycles bounded by
// compute and by every level's bandwidth; energy per level and per MAC.
//
// It is the inner loop of every search: construct one per (problem, arch),
// keep one Evaluation per thread, and evaluate() allocates nothing for a
// mapping whose factors divide their loops (partial tiles take a slower
// path that does).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_COSTMODEL_H
#define MARLMAP_CORE_COSTMODEL_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace marlmap {

namespace detail {
class PartialTileCounter;
} // namespace detail

/// What the model figures for one operand at one storage level. Counts are
/// per instance, of the first instance (every spatial index 0); with partial
/// tiles instances differ, and the sums over all instances are kept apart.
struct OperandStats {
  bool kept = false;
  /// Words of the operand one instance holds at a time (with halo).
  int64_t utilizedCapacity = 0;
  /// Words one instance sees over the whole run, as the bounding box of its
  /// tiles: the distinct words unless a stride leaves gaps.
  int64_t partitionSize = 0;
  /// Instances of the level that hold a tile.
  int64_t instances = 0;
  /// Words sent towards the MACs, words received from the parent level,
  /// partial sums written back by children.
  int64_t reads = 0;
  int64_t fills = 0;
  int64_t updates = 0;
  /// Children that receive each word read here (reads are counted once).
  int64_t multicast = 1;
  /// Children whose partial sums are added into each update counted here.
  int64_t spatialReduction = 1;
  /// reads, fills and updates summed over the instances.
  int64_t sumReads = 0;
  int64_t sumFills = 0;
  int64_t sumUpdates = 0;
  /// pJ over all instances.
  double energy = 0.0;

  int64_t totalReads() const { return sumReads; }
  int64_t totalFills() const { return sumFills; }
  int64_t totalUpdates() const { return sumUpdates; }
};

struct LevelStats {
  /// Cycles this level's reads and writes need at its bandwidths alone (0
  /// when they are unbounded or it moves nothing).
  int64_t bandwidthCycles = 0;
  /// The larger of bandwidthCycles and the compute cycles: how long the
  /// level keeps the MACs waiting, at best.
  int64_t cycles = 0;
  /// compute cycles / level cycles, at most 1.
  double slowdown = 1.0;
  double energy = 0.0;
  /// Words per instance, summed over the operands it keeps.
  int64_t utilizedCapacity = 0;
};

enum class InvalidReason : uint8_t {
  None,
  /// The mapping does not fit the problem or the arch: level count, factor
  /// products, permutations, spatial factors beyond a fanout, keeps.
  Shape,
  /// A level's tiles do not fit its capacity.
  Capacity,
  /// Some loop's factors cover its bound without dividing it (partial last
  /// tiles) where the model cannot count them: under Timeloop's fill walk,
  /// or for a written operand whose axes are not one loop each.
  ImperfectFactors,
  /// Its cycles or energy are beyond what the model can represent (a
  /// bandwidth tiny against the traffic, say): never a non-finite figure.
  Overflow,
};

struct Evaluation {
  bool valid = false;
  InvalidReason reason = InvalidReason::None;
  /// The level whose capacity is exceeded, when reason == Capacity.
  unsigned invalidLevel = 0;

  int64_t macs = 0;
  int64_t macInstancesUsed = 0;
  int64_t computeCycles = 0;
  int64_t cycles = 0;
  double macEnergy = 0.0;
  double energy = 0.0;
  /// energy (pJ) x cycles.
  double edp = 0.0;
  /// macs / (MAC instances x MACs per cycle x cycles).
  double utilization = 0.0;

  std::vector<LevelStats> levels;
  /// [level * numOperands + operand].
  std::vector<OperandStats> operands;
  unsigned numOperands = 0;

  const OperandStats &at(unsigned level, unsigned operand) const {
    return operands[level * numOperands + operand];
  }
  /// "level 'GlobalBuffer' holds 70000 words but has 65536", "" if valid.
  std::string describeInvalid(const Arch &arch) const;
};

/// pJ of `words` accessed a block at a time at `perWord` pJ a word (a
/// partial block costs a whole one), as the model counts them.
double accessEnergy(int64_t words, int64_t blockSize, double perWord);

/// pJ one instance of `level` spends on an operand's reads, fills and
/// updates in `stats`.
double instanceEnergy(const OperandStats &stats, const StorageLevel &level);

/// pJ of an operand's reads, fills and updates at `level` over all its
/// instances. When instances differ (partial tiles), a level with blocks
/// of several words rounds the average instance's words up to whole blocks.
struct AccessEnergies {
  double reads = 0.0, fills = 0.0, updates = 0.0;
};
AccessEnergies operandEnergies(const OperandStats &stats,
                               const StorageLevel &level);

/// Physical limits every mapping is measured against.
struct LowerBound {
  /// Every MAC busy every cycle.
  int64_t cycles = 0;
  /// Each distinct word of each operand moved once between the outermost
  /// level and the MACs' side, plus the MACs themselves.
  double energy = 0.0;
};

class CostModel {
public:
  /// Checks nothing: give it a problem and an arch that passed their checks.
  CostModel(const Problem &problem, const Arch &arch);

  /// Evaluates `mapping` into `out`, reusing its storage; returns
  /// out.valid. A mapping of the wrong shape is reported, not evaluated.
  bool evaluate(const Mapping &mapping, Evaluation &out) const;
  Evaluation evaluate(const Mapping &mapping) const;

  LowerBound lowerBound() const;

  /// Words one instance of level `level` would receive from its parent over
  /// the run if it kept operand `operand`, whether or not `mapping` keeps it
  /// there: its first tile, then at every step of a temporal loop above it
  /// the part of the tile that changed (for a read-only operand, the fills
  /// evaluate() counts at a kept level; a written one's fills leave out
  /// the first visit of each word; at the outermost level, its tile).
  /// `mapping` must be of the right shape, with factors that divide their
  /// bounds.
  int64_t fillsIfKept(const Mapping &mapping, unsigned level,
                      unsigned operand) const;

  /// At most fillsIfKept(mapping, level, operand) whatever the order of
  /// level `level` + 1's temporal loops, as long as `innermost`'s loop
  /// there runs inside every other one of more than one step: the tile,
  /// and what a step of that loop brings in, once per step of every loop
  /// outside it (the steps of the others bring in at least nothing).
  int64_t fillsIfInnermost(const Mapping &mapping, unsigned level,
                           unsigned operand, unsigned innermost) const;

  const Problem &problem() const { return problemRef; }
  const Arch &arch() const { return archRef; }

  /// Limits of the fixed-size scratch space evaluate() uses.
  static constexpr unsigned kMaxDims = 16;
  static constexpr unsigned kMaxLevels = 16;
  static constexpr unsigned kMaxOperands = 16;
  static constexpr unsigned kMaxAxes = 8;

private:
  struct Term {
    unsigned dim;
    int64_t coefficient;
  };
  /// One loop of the nest.
  struct Loop {
    unsigned dim;
    int64_t factor;
    bool spatial;
  };
  /// Operand o's axis a has terms [axisBegin[..], axisBegin[..+1]).
  struct OperandShape {
    unsigned firstAxis = 0, numAxes = 0;
    uint32_t relevantDims = 0;
    bool written = false;
    bool moves = true;
    /// Problem::isGapless: tiles laid on a grid cover their bounding box
    /// exactly, with no gaps between them.
    bool gapless = true;
    /// Distinct words the problem touches (Problem::touchedWords).
    int64_t touchedWords = 0;
    /// coefficient[axis][dim], dense, for the delta walk.
    int64_t coefficient[kMaxAxes][kMaxDims] = {};
  };

  /// Words of `shape` over a tile of `extents`; each axis's span into
  /// `spans` when given.
  int64_t footprint(const OperandShape &shape, const int64_t *extents,
                    int64_t *spans = nullptr) const;
  /// Distinct words that tiles of `tile` extents, laid on a grid over a
  /// region of `whole` extents, cover together; for a gapless operand, the
  /// region's footprint.
  int64_t coveredWords(const OperandShape &shape, const int64_t *tile,
                       const int64_t *whole) const;
  /// One axis of coveredWords(): the union of the tiles' ranges on it.
  int64_t coveredAxisWords(unsigned axis, const int64_t *tile,
                           const int64_t *whole) const;
  /// Appends `level`'s loops to `nest` (innermost first): its spatial
  /// loops, then its temporal ones, without loops of one step.
  void appendLoops(const LevelMapping &level, Loop *nest,
                   unsigned &nestSize) const;
  /// Words one instance of a level receives from its parent over the run
  /// when its tile has `extents` (footprint `whole`, each axis's span in
  /// `span`) and the loops above it are `above` (innermost first).
  int64_t parentShare(const OperandShape &shape, const int64_t *extents,
                      int64_t whole, const int64_t *span, const Loop *above,
                      unsigned count) const;
  /// None, Shape or ImperfectFactors.
  InvalidReason fitsShape(const Mapping &mapping) const;
  /// Counts a mapping with partial tiles (PartialTiles.h) and finishes.
  bool evaluatePartial(const Mapping &mapping, Evaluation &out) const;
  /// From the counts in `out`: capacity, cycles, energy and EDP.
  bool finish(Evaluation &out, const int64_t *levelWords,
              int64_t activeSteps) const;

  const Problem &problemRef;
  const Arch &archRef;
  unsigned numDims, numLevels, numOperands;
  /// The problem's MACs: every evaluation and bound needs them.
  int64_t macs;
  /// Arch::fillRule is FillRule::Timeloop.
  bool timeloopFills;
  std::vector<OperandShape> shapes;
  std::vector<unsigned> axisBegin;
  std::vector<Term> terms;
  /// Per level: how many children each instance has along X and Y.
  std::vector<int64_t> fanoutX, fanoutY;
  /// Shared by copies: it holds the problem's shapes only.
  std::shared_ptr<const detail::PartialTileCounter> partialTiles;
};

} // namespace marlmap

#endif // MARLMAP_CORE_COSTMODEL_H
