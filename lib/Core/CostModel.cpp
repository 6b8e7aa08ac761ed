//===- CostModel.cpp - Timeloop-compatible analytical cost model ----------===//
//
// The loop nest, innermost first: for each level from the innermost, its
// spatial loops (fanning out to the level below), then its temporal loops.
// A level's tile is the footprint of every loop at or below it. The rules
// below are Timeloop v3.0.3's; docs/CostModel.md derives them and
// unittests/Interop checks them against Timeloop's own outputs.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Core/CostModel.h"
#include "PartialTiles.h"
#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace marlmap {

/// Cycles past this do not fit the model's 64-bit counts.
constexpr double kMaxCycles = 9e18;

namespace {

/// ceil(n / block): Timeloop moves whole blocks.
int64_t blocks(int64_t n, int64_t block) {
  return block == 1 ? n : (n + block - 1) / block;
}

/// pJ of an operand at a level over all its instances: when every instance
/// does the same (a perfect mapping), one instance's energy times their
/// number, the figure the Timeloop reference cases check to the last digit.
double operandEnergy(const OperandStats &stats, const StorageLevel &level) {
  if (stats.sumReads == stats.reads * stats.instances &&
      stats.sumFills == stats.fills * stats.instances &&
      stats.sumUpdates == stats.updates * stats.instances)
    return instanceEnergy(stats, level) * double(stats.instances);
  const AccessEnergies e = operandEnergies(stats, level);
  return e.reads + e.fills + e.updates;
}

} // namespace

double accessEnergy(int64_t words, int64_t blockSize, double perWord) {
  return double(blocks(words, blockSize)) * perWord * double(blockSize);
}

double instanceEnergy(const OperandStats &stats, const StorageLevel &level) {
  return accessEnergy(stats.reads, level.blockSize, level.readEnergy) +
         accessEnergy(stats.fills, level.blockSize, level.writeEnergy) +
         accessEnergy(stats.updates, level.blockSize, level.updateEnergy);
}

AccessEnergies operandEnergies(const OperandStats &stats,
                               const StorageLevel &level) {
  const int64_t instances = std::max<int64_t>(stats.instances, 1);
  auto energy = [&](int64_t perInstance, int64_t sum, double perWord) {
    if (sum == perInstance * instances) // every instance alike
      return accessEnergy(perInstance, level.blockSize, perWord) *
             double(instances);
    if (level.blockSize == 1)
      return double(sum) * perWord;
    return accessEnergy((sum + instances - 1) / instances, level.blockSize,
                        perWord) *
           double(instances);
  };
  return {energy(stats.reads, stats.sumReads, level.readEnergy),
          energy(stats.fills, stats.sumFills, level.writeEnergy),
          energy(stats.updates, stats.sumUpdates, level.updateEnergy)};
}

CostModel::CostModel(const Problem &problem, const Arch &arch)
    : problemRef(problem), archRef(arch), numDims(problem.dims.size()),
      numLevels(arch.levels.size()), numOperands(problem.operands.size()),
      macs(problem.iterations()),
      timeloopFills(arch.fillRule == FillRule::Timeloop),
      partialTiles(std::make_shared<detail::PartialTileCounter>(problem)) {
  axisBegin.push_back(0);
  for (const Operand &operand : problem.operands) {
    OperandShape shape;
    shape.firstAxis = axisBegin.size() - 1;
    shape.numAxes = operand.projection.size();
    shape.written = operand.isWritten();
    shape.moves = operand.access != Access::None;
    shape.touchedWords = problem.touchedWords(shapes.size());
    shape.gapless = problem.isGapless(shapes.size());
    for (unsigned a = 0; a < operand.projection.size(); ++a) {
      for (const ProjectionTerm &term : operand.projection[a].terms) {
        terms.push_back({term.dim, term.coefficient});
        if (term.coefficient != 0 && term.dim < kMaxDims)
          shape.relevantDims |= 1u << term.dim;
        if (a < kMaxAxes && term.dim < kMaxDims)
          shape.coefficient[a][term.dim] += term.coefficient;
      }
      axisBegin.push_back(terms.size());
    }
    shapes.push_back(shape);
  }
  for (unsigned l = 0; l < numLevels; ++l) {
    fanoutX.push_back(arch.fanoutX(l));
    fanoutY.push_back(arch.fanoutY(l));
  }
}

int64_t CostModel::footprint(const OperandShape &shape, const int64_t *extents,
                             int64_t *spans) const {
  int64_t words = 1;
  for (unsigned a = 0; a < shape.numAxes; ++a) {
    const unsigned axis = shape.firstAxis + a;
    int64_t span = 1;
    for (unsigned t = axisBegin[axis]; t < axisBegin[axis + 1]; ++t)
      span += std::abs(terms[t].coefficient) * (extents[terms[t].dim] - 1);
    if (spans)
      spans[a] = span;
    words = saturatingMul(words, span);
  }
  return words;
}

int64_t CostModel::coveredAxisWords(unsigned axis, const int64_t *tile,
                                    const int64_t *whole) const {
  // The tiles' ranges start at every combination of multiples of their
  // extents; mark them over the region's range.
  int64_t low = 0, high = 0, span = 1, origins = 1;
  unsigned moving = 0;
  bool unitSteps = true;
  for (unsigned t = axisBegin[axis]; t < axisBegin[axis + 1]; ++t) {
    const Term &term = terms[t];
    if (term.coefficient == 0 || whole[term.dim] == 1)
      continue;
    const int64_t reach = term.coefficient * (whole[term.dim] - 1);
    (reach < 0 ? low : high) += reach;
    span += std::abs(term.coefficient) * (tile[term.dim] - 1);
    origins = saturatingMul(origins, whole[term.dim] / tile[term.dim]);
    unitSteps &= std::abs(term.coefficient) == 1;
    ++moving;
  }
  const int64_t range = high - low + 1;
  if (moving <= 1) // disjoint copies of one tile's range
    return moving == 0 ? 1 : std::min(range, saturatingMul(origins, span));
  // Unit steps: each tile's range reaches the next tile's start.
  // Too many to mark: the range, which the caller caps by the words moved.
  if (unitSteps || range > (int64_t(1) << 20) || origins > (int64_t(1) << 16) ||
      saturatingMul(origins, span) > (int64_t(1) << 24))
    return range;
  // Each tile's lowest word: a multiple of its extent along every dim,
  // shifted down where a negative coefficient walks the tile backwards.
  std::vector<int64_t> starts = {-low};
  for (unsigned t = axisBegin[axis]; t < axisBegin[axis + 1]; ++t) {
    const Term &term = terms[t];
    if (term.coefficient == 0 || whole[term.dim] == 1)
      continue;
    const int64_t extent = tile[term.dim];
    const int64_t down = std::min<int64_t>(0, term.coefficient * (extent - 1));
    std::vector<int64_t> next;
    next.reserve(starts.size() * (whole[term.dim] / extent));
    for (int64_t start : starts)
      for (int64_t k = 0; k < whole[term.dim] / extent; ++k)
        next.push_back(start + term.coefficient * extent * k + down);
    starts.swap(next);
  }
  std::vector<char> covered(range, 0);
  for (int64_t start : starts)
    std::fill(covered.begin() + start, covered.begin() + start + span, 1);
  return std::count(covered.begin(), covered.end(), 1);
}

int64_t CostModel::coveredWords(const OperandShape &shape, const int64_t *tile,
                                const int64_t *whole) const {
  if (shape.gapless)
    return footprint(shape, whole);
  // Exact when no dim feeds two axes; otherwise at most the words moved,
  // where the caller caps it.
  int64_t words = 1;
  for (unsigned a = 0; a < shape.numAxes; ++a)
    words = saturatingMul(words,
                          coveredAxisWords(shape.firstAxis + a, tile, whole));
  return words;
}

InvalidReason CostModel::fitsShape(const Mapping &mapping) const {
  if (mapping.levels.size() != numLevels || numDims > kMaxDims ||
      numLevels > kMaxLevels || numOperands > kMaxOperands)
    return InvalidReason::Shape;
  for (const OperandShape &shape : shapes)
    if (shape.numAxes > kMaxAxes)
      return InvalidReason::Shape;
  int64_t product[kMaxDims];
  std::fill(product, product + numDims, 1);
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelMapping &level = mapping.levels[l];
    if (level.temporal.size() != numDims || level.order.size() != numDims ||
        level.spatialX.size() != numDims || level.spatialY.size() != numDims ||
        level.keep.size() != numOperands)
      return InvalidReason::Shape;
    uint32_t placed = 0;
    for (unsigned dim : level.order) {
      if (dim >= numDims || (placed & (1u << dim)))
        return InvalidReason::Shape;
      placed |= 1u << dim;
    }
    int64_t spreadX = 1, spreadY = 1;
    for (unsigned d = 0; d < numDims; ++d) {
      if (level.temporal[d] < 1 || level.spatialX[d] < 1 ||
          level.spatialY[d] < 1)
        return InvalidReason::Shape;
      spreadX = saturatingMul(spreadX, level.spatialX[d]);
      spreadY = saturatingMul(spreadY, level.spatialY[d]);
      product[d] = saturatingMul(
          product[d],
          saturatingMul(level.temporal[d],
                        saturatingMul(level.spatialX[d], level.spatialY[d])));
    }
    if (spreadX > fanoutX[l] || spreadY > fanoutY[l])
      return InvalidReason::Shape;
    for (unsigned o = 0; o < numOperands; ++o)
      if (level.keep[o] && shapes[o].moves &&
          !archRef.levels[l].holds.contains(problemRef.operands[o].role))
        return InvalidReason::Shape;
  }
  for (unsigned o = 0; o < numOperands; ++o)
    if (shapes[o].moves && !mapping.levels.back().keep[o])
      return InvalidReason::Shape;
  bool partial = false;
  for (unsigned d = 0; d < numDims; ++d) {
    if (product[d] < problemRef.dims[d].bound)
      return InvalidReason::Shape;
    partial |= product[d] > problemRef.dims[d].bound;
  }
  return partial ? InvalidReason::ImperfectFactors : InvalidReason::None;
}

void CostModel::appendLoops(const LevelMapping &level, Loop *nest,
                            unsigned &nestSize) const {
  for (unsigned d = 0; d < numDims; ++d) {
    const int64_t spatial = level.spatialX[d] * level.spatialY[d];
    if (spatial > 1)
      nest[nestSize++] = {d, spatial, true};
  }
  for (auto it = level.order.rbegin(); it != level.order.rend(); ++it)
    if (level.temporal[*it] > 1)
      nest[nestSize++] = {*it, level.temporal[*it], false};
}

int64_t CostModel::parentShare(const OperandShape &shape,
                               const int64_t *extents, int64_t whole,
                               const int64_t *span, const Loop *above,
                               unsigned count) const {
  int64_t stride[kMaxDims];
  std::copy(extents, extents + numDims, stride);
  // Forward: what each temporal loop's step costs; backward: how often it
  // steps (its factor less one, times every loop outside it).
  //
  // A step of loop j moves the tile by its own stride while the loops
  // inside it wrap back to their first iteration. FillRule::Exact keeps
  // the overlap of the tile with the one before, wherever it moved: a
  // box shifted by `shift` keeps prod(span - |shift|) words. Timeloop's
  // walk wraps each inner loop back by one step only (it walks every
  // loop through its first two iterations and weighs the second by
  // factor-1) and keeps the overlap only when the move equals the
  // innermost loop's, fetching the whole tile otherwise.
  int64_t delta[kMaxLevels * kMaxDims], factor[kMaxLevels * kMaxDims];
  // Per axis: the first move, and how far the inner loops' wraps carry
  // the tile.
  int64_t firstShift[kMaxAxes], wrapShift[kMaxAxes] = {};
  unsigned steps = 0;
  for (unsigned i = 0; i < count; ++i) {
    const Loop &loop = above[i];
    if (loop.spatial) {
      stride[loop.dim] *= loop.factor; // other instances take these steps
      continue;
    }
    bool sameAsFirst = true;
    int64_t kept = 1;
    for (unsigned a = 0; a < shape.numAxes; ++a) {
      const int64_t step = shape.coefficient[a][loop.dim] * stride[loop.dim];
      const int64_t shift = step - wrapShift[a];
      if (steps == 0)
        firstShift[a] = shift;
      sameAsFirst &= shift == firstShift[a];
      kept *= std::max<int64_t>(0, span[a] - std::abs(shift));
      wrapShift[a] += timeloopFills ? step : step * (loop.factor - 1);
    }
    if (!timeloopFills || steps == 0)
      delta[steps] = whole - kept;
    else
      delta[steps] = sameAsFirst ? delta[0] : whole;
    factor[steps++] = loop.factor;
    stride[loop.dim] *= loop.factor;
  }
  int64_t total = whole, outside = 1;
  for (unsigned j = steps; j-- > 0;) {
    total += (factor[j] - 1) * outside * delta[j];
    outside *= factor[j];
  }
  return total;
}

namespace {

/// Each dim's extent at and below level `level`: its tile there.
void tileExtents(const Mapping &mapping, unsigned level, unsigned numDims,
                 int64_t *extents) {
  std::fill(extents, extents + numDims, 1);
  for (unsigned l = 0; l <= level; ++l)
    for (unsigned d = 0; d < numDims; ++d)
      extents[d] *= mapping.levels[l].temporal[d] *
                    mapping.levels[l].spatialX[d] *
                    mapping.levels[l].spatialY[d];
}

} // namespace

int64_t CostModel::fillsIfKept(const Mapping &mapping, unsigned level,
                               unsigned operand) const {
  const OperandShape &shape = shapes[operand];
  int64_t extents[kMaxDims];
  tileExtents(mapping, level, numDims, extents);
  Loop above[kMaxLevels * kMaxDims * 2];
  unsigned count = 0;
  for (unsigned l = level + 1; l < numLevels; ++l)
    appendLoops(mapping.levels[l], above, count);
  int64_t span[kMaxAxes];
  const int64_t whole = footprint(shape, extents, span);
  return parentShare(shape, extents, whole, span, above, count);
}

int64_t CostModel::fillsIfInnermost(const Mapping &mapping, unsigned level,
                                    unsigned operand,
                                    unsigned innermost) const {
  const OperandShape &shape = shapes[operand];
  int64_t extents[kMaxDims];
  tileExtents(mapping, level, numDims, extents);
  // The walk's first loops: the parent's spatial ones (they set the
  // strides), then `innermost`; every other temporal loop is outside it.
  const LevelMapping &parent = mapping.levels[level + 1];
  Loop first[kMaxDims + 1];
  unsigned count = 0;
  for (unsigned d = 0; d < numDims; ++d) {
    const int64_t spatial = parent.spatialX[d] * parent.spatialY[d];
    if (spatial > 1)
      first[count++] = {d, spatial, true};
  }
  first[count++] = {innermost, parent.temporal[innermost], false};
  int64_t outside = 1;
  for (unsigned l = level + 1; l < numLevels; ++l)
    for (unsigned d = 0; d < numDims; ++d)
      if (l > level + 1 || d != innermost)
        outside = saturatingMul(outside, mapping.levels[l].temporal[d]);
  int64_t span[kMaxAxes];
  const int64_t whole = footprint(shape, extents, span);
  const int64_t once = parentShare(shape, extents, whole, span, first, count);
  return saturatingAdd(whole, saturatingMul(once - whole, outside));
}

// One function on purpose: it is every search's hot path (over a million
// evaluations a second per core, docs/CostModel.md), and its steps (the
// nest, the tiles, each operand's traffic, the cycles) share fixed-size
// arrays on the stack that smaller functions would pass around or build
// again; only the listing of a level's loops and the walk of the loops
// above a tile are apart, shared with fillsIfKept.
bool CostModel::evaluate(const Mapping &mapping, Evaluation &out) const {
  out.levels.assign(numLevels, LevelStats());
  out.operands.assign(numLevels * numOperands, OperandStats());
  out.numOperands = numOperands;
  out.macs = macs;
  out.valid = false;
  out.reason = fitsShape(mapping);
  if (out.reason == InvalidReason::ImperfectFactors)
    return evaluatePartial(mapping, out);
  if (out.reason != InvalidReason::None)
    return false;

  // The nest, innermost first, without factor-1 loops; levelStart[l] is
  // where level l's loops begin.
  Loop nest[kMaxLevels * kMaxDims * 2];
  unsigned levelStart[kMaxLevels + 1];
  unsigned nestSize = 0;
  // tile[l][d]: extent of dim d over the loops at or below level l.
  int64_t tile[kMaxLevels][kMaxDims];
  // Products of spatial factors (all dims) above each level, and of
  // temporal factors per dim above each level.
  int64_t spatialAbove[kMaxLevels];
  int64_t temporalAbove[kMaxLevels][kMaxDims];
  int64_t allTemporal = 1;
  int64_t spatial[kMaxLevels][kMaxDims];
  int64_t spread[kMaxLevels];
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelMapping &level = mapping.levels[l];
    levelStart[l] = nestSize;
    spread[l] = 1;
    for (unsigned d = 0; d < numDims; ++d) {
      spatial[l][d] = level.spatialX[d] * level.spatialY[d];
      spread[l] *= spatial[l][d];
      tile[l][d] =
          (l == 0 ? 1 : tile[l - 1][d]) * spatial[l][d] * level.temporal[d];
      allTemporal *= level.temporal[d];
    }
    appendLoops(level, nest, nestSize);
  }
  levelStart[numLevels] = nestSize;
  for (unsigned l = numLevels; l-- > 0;) {
    const LevelMapping *above =
        l + 1 < numLevels ? &mapping.levels[l + 1] : nullptr;
    spatialAbove[l] = 1;
    for (unsigned d = 0; d < numDims; ++d)
      temporalAbove[l][d] = 1;
    if (above) {
      spatialAbove[l] = spatialAbove[l + 1] * spread[l + 1];
      for (unsigned d = 0; d < numDims; ++d)
        temporalAbove[l][d] = temporalAbove[l + 1][d] * above->temporal[d];
    }
  }

  int64_t levelWords[kMaxLevels] = {};
  int64_t ones[kMaxDims];
  std::fill(ones, ones + numDims, 1);
  for (unsigned o = 0; o < numOperands; ++o) {
    const OperandShape &shape = shapes[o];
    if (!shape.moves)
      continue;
    int64_t childShare = 0;
    // Spatial factors between this level and the child level (or the MACs)
    // on dims the operand depends on, and on the others.
    int64_t distinct = 1, shared = 1;
    const int64_t *childTile = nullptr; // the MACs': one point per dim
    for (unsigned l = 0; l < numLevels; ++l) {
      for (unsigned d = 0; d < numDims; ++d) {
        if (shape.relevantDims & (1u << d))
          distinct *= spatial[l][d];
        else
          shared *= spatial[l][d];
      }
      if (!mapping.levels[l].keep[o])
        continue;
      OperandStats &stats = out.operands[l * numOperands + o];
      stats.kept = true;
      int64_t span[kMaxAxes];
      stats.utilizedCapacity = footprint(shape, tile[l], span);
      int64_t whole[kMaxDims];
      for (unsigned d = 0; d < numDims; ++d)
        whole[d] = tile[l][d] * temporalAbove[l][d];
      stats.partitionSize = footprint(shape, whole);
      stats.instances = spatialAbove[l];
      bool outermost = l + 1 == numLevels;
      const int64_t share =
          outermost ? 0
                    : parentShare(shape, tile[l], stats.utilizedCapacity, span,
                                  nest + levelStart[l + 1],
                                  nestSize - levelStart[l + 1]);

      // Words exchanged with the children: with the MACs, one per MAC per
      // spatially distinct child; with a child level, what it fetched.
      int64_t content = (childTile ? childShare : allTemporal) * distinct;
      if (shape.written) {
        // The first update of a word is a plain write, and its first visit
        // starts from zero: neither reads nor fills the parent. A stride
        // leaves words between tiles that no tile ever holds.
        int64_t firstUpdates = stats.partitionSize;
        int64_t firstFills = stats.partitionSize;
        if (!shape.gapless) {
          firstUpdates = std::min(
              content,
              coveredWords(shape, childTile ? childTile : ones, whole));
          if (!outermost) // it fills nothing
            firstFills = std::min(share, coveredWords(shape, tile[l], whole));
        }
        stats.updates = content;
        stats.reads = content - firstUpdates;
        stats.fills = outermost ? 0 : share - firstFills;
        stats.spatialReduction = shared;
      } else {
        stats.reads = content;
        stats.fills = share;
        stats.multicast = shared;
      }
      stats.sumReads = stats.reads * stats.instances;
      stats.sumFills = stats.fills * stats.instances;
      stats.sumUpdates = stats.updates * stats.instances;
      levelWords[l] += stats.utilizedCapacity;
      childTile = tile[l];
      childShare = share;
      distinct = shared = 1;
    }
  }

  out.macInstancesUsed = spatialAbove[0] * spread[0];
  return finish(out, levelWords, allTemporal);
}

bool CostModel::evaluatePartial(const Mapping &mapping, Evaluation &out) const {
  if (timeloopFills || !partialTiles->countsWrittenOperands())
    return false; // reason: ImperfectFactors
  out.reason = InvalidReason::None;
  const detail::PartialTileCounter::Totals totals =
      partialTiles->count(mapping, out);
  if (totals.overflow) {
    out.reason = InvalidReason::Overflow;
    return false;
  }
  out.macInstancesUsed = totals.macInstancesUsed;
  return finish(out, totals.levelWords.data(), totals.activeSteps);
}

bool CostModel::finish(Evaluation &out, const int64_t *levelWords,
                       int64_t activeSteps) const {
  for (unsigned l = 0; l < numLevels; ++l) {
    const StorageLevel &level = archRef.levels[l];
    out.levels[l].utilizedCapacity = levelWords[l];
    if (level.entries && double(levelWords[l]) >
                             double(*level.entries) / level.multipleBuffering) {
      out.reason = InvalidReason::Capacity;
      out.invalidLevel = l;
      return false;
    }
  }

  int64_t macsPerCycle = archRef.compute.macsPerCycle;
  out.computeCycles = (activeSteps + macsPerCycle - 1) / macsPerCycle;
  out.cycles = out.computeCycles;
  out.energy = 0.0;
  for (unsigned l = 0; l < numLevels; ++l) {
    const StorageLevel &level = archRef.levels[l];
    LevelStats &stats = out.levels[l];
    int64_t readWords = 0, writeWords = 0;
    for (unsigned o = 0; o < numOperands; ++o) {
      OperandStats &s = out.operands[l * numOperands + o];
      if (!s.kept)
        continue;
      readWords += s.reads;
      writeWords += s.fills + s.updates;
      s.energy = operandEnergy(s, level);
      stats.energy += s.energy;
    }
    // Cycles to move this level's words at its bandwidth; the tiny margin
    // keeps an exact quotient from rounding up.
    double needed = 0.0;
    if (level.readBandwidth && readWords)
      needed = std::max(needed, double(readWords) / *level.readBandwidth);
    if (level.writeBandwidth && writeWords)
      needed = std::max(needed, double(writeWords) / *level.writeBandwidth);
    if (!(needed < kMaxCycles)) {
      out.reason = InvalidReason::Overflow;
      return false;
    }
    stats.bandwidthCycles = int64_t(std::ceil(needed * (1.0 - 1e-12)));
    stats.cycles = std::max(stats.bandwidthCycles, out.computeCycles);
    stats.slowdown = double(out.computeCycles) / double(stats.cycles);
    out.cycles = std::max(out.cycles, stats.cycles);
    out.energy += stats.energy;
  }
  out.macEnergy = double(out.macs) * archRef.compute.energyPerMac;
  out.energy += out.macEnergy;
  out.edp = out.energy * double(out.cycles);
  out.utilization =
      double(out.macs) / (double(archRef.compute.instances) *
                          double(macsPerCycle) * double(out.cycles));
  if (!std::isfinite(out.edp)) {
    out.reason = InvalidReason::Overflow;
    return false;
  }
  out.valid = true;
  return true;
}

Evaluation CostModel::evaluate(const Mapping &mapping) const {
  Evaluation out;
  evaluate(mapping, out);
  return out;
}

LowerBound CostModel::lowerBound() const {
  LowerBound bound;
  int64_t lanes = archRef.compute.instances * archRef.compute.macsPerCycle;
  bound.cycles = (macs + lanes - 1) / lanes;
  const StorageLevel &outermost = archRef.levels.back();
  for (unsigned o = 0; o < numOperands; ++o) {
    if (!shapes[o].moves)
      continue;
    double words = double(shapes[o].touchedWords);
    bound.energy += words * (shapes[o].written ? outermost.updateEnergy
                                               : outermost.readEnergy);
  }
  bound.energy += double(macs) * archRef.compute.energyPerMac;
  return bound;
}

std::string Evaluation::describeInvalid(const Arch &arch) const {
  switch (reason) {
  case InvalidReason::None:
    return "";
  case InvalidReason::Shape:
    return "the mapping does not fit the problem or the architecture";
  case InvalidReason::ImperfectFactors:
    return "some loop's factors do not divide its bound, and the cost model "
           "counts partial tiles only under its exact fill rule (not "
           "Timeloop's) and for written operands indexed by one loop per "
           "axis";
  case InvalidReason::Overflow:
    return "its cycles or energy overflow what the model can represent";
  case InvalidReason::Capacity: {
    const StorageLevel &level = arch.levels[invalidLevel];
    return "level '" + level.name + "' holds " +
           std::to_string(levels[invalidLevel].utilizedCapacity) +
           " words per instance but has " +
           std::to_string(level.entries.value_or(0)) +
           (level.multipleBuffering > 1.0 ? " (before multiple buffering)"
                                          : "");
  }
  }
  return "";
}

} // namespace marlmap
