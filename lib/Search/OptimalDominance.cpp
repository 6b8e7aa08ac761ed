//===- OptimalDominance.cpp - Partial mappings that another one beats ----===//
//
// Why the state below is all the lower levels see: the model's figures for
// a level m under the decided ones are its tile (the factors at and below
// it, with `remaining` what is left above them), the loops above it as
// parentShare walks them (each level's spatial loops, then its temporal
// ones innermost first), its instances and the spreads between it and the
// next kept level (each level's spatial factors), its partition (the
// problem over the spatial factors above it), and which levels keep what.
// The reads and updates a decided level sends to an undecided child are
// that child's fetches times the same spreads. Which decided level a
// temporal loop belongs to changes only the decided levels' own figures.
// A simple operand's fetches read of that walk only the product of the
// loops from the innermost one it depends on outwards (rule 2 of
// OptimalBound.cpp). So when every operand kept under the cut is simple,
// the state is the keeps, `remaining`, each decided level's spatial
// factors and that product per operand.
//
//===----------------------------------------------------------------------===//

#include "OptimalDominance.h"

#include <algorithm>

namespace marlmap {

Dominance::Dominance(const MapSpace &space, const PartialBound &bounds,
                     Objective objective, size_t remember)
    : space(space), bounds(bounds), objective(objective), remember(remember) {}

size_t Dominance::KeyHash::operator()(const std::vector<int64_t> &key) const {
  uint64_t hash = 1469598103934665603ull;
  for (int64_t value : key) {
    hash ^= uint64_t(value) + 0x9e3779b97f4a7c15ull + (hash << 6) + (hash >> 2);
    hash *= 1099511628211ull;
  }
  return size_t(hash);
}

const std::vector<int64_t> *Dominance::stateOf(const Mapping &partial,
                                               const int64_t *remaining,
                                               unsigned decided) {
  const Problem &problem = space.problem();
  const unsigned numDims = problem.dims.size();
  key.assign(1, decided);
  key.insert(key.end(), remaining, remaining + numDims);
  for (const LevelMapping &level : partial.levels) {
    int64_t keeps = 0;
    for (unsigned o = 0; o < level.keep.size(); ++o)
      keeps |= int64_t(level.keep[o]) << o;
    key.push_back(keeps);
  }
  for (unsigned m = decided; m < partial.levels.size(); ++m) {
    const LevelMapping &level = partial.levels[m];
    if (level.spreadX() * level.spreadY() > 1) {
      // A level's spatial factors, after a mark no loop can be mistaken for.
      key.push_back(-1 - int64_t(m));
      for (unsigned d = 0; d < numDims; ++d)
        key.push_back(level.spatialX[d] * level.spatialY[d]);
    }
  }
  // The operands kept under the cut are the ones whose counts read the
  // decided loops. A window operand may read the whole walk of them; such
  // states almost never meet (on Timeloop's reference rows, keyed by the
  // walk, not one node was dropped on them) and each would cost a lookup.
  simpleBelow.clear();
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    if (!movesUnder(problem, partial, decided, o))
      continue;
    if (!bounds.isSimple(o))
      return nullptr;
    simpleBelow.push_back(o);
  }
  // A simple operand's fetches read of the decided loops only their product
  // from the innermost one it depends on outwards (the product of all of
  // them, when an undecided loop it depends on comes first, follows from
  // `remaining` and the spatial factors).
  for (unsigned o : simpleBelow)
    key.push_back(refetchedLoops(partial, decided, bounds.relevantTo(o)));
  return &key;
}

bool Dominance::decidedFigures(const Mapping &partial, const int64_t *remaining,
                               unsigned decided, const Evaluation *simplest) {
  if (!simplest) {
    simplestCompletion(space, partial, remaining, decided, completion);
    space.model().evaluate(completion, evaluation);
    simplest = &evaluation;
  }
  // The counts come before the capacity check: a completion that overflows
  // a level still has them.
  if (simplest->reason == InvalidReason::Shape)
    return false;
  // Under the cut every count is the same function of the state for both
  // mappings: only the decided levels' own figures can differ (summing
  // them alone keeps the shared part from drowning a small difference).
  const Arch &arch = space.arch();
  const unsigned numOperands = space.problem().operands.size();
  double energy = 0.0;
  figures.clear();
  for (unsigned l = decided; l < arch.levels.size(); ++l) {
    int64_t reads = 0, writes = 0;
    for (unsigned o = 0; o < numOperands; ++o) {
      const OperandStats &stats = simplest->at(l, o);
      if (!stats.kept)
        continue;
      energy += instanceEnergy(stats, arch.levels[l]) * double(stats.instances);
      reads += stats.reads;
      writes += stats.fills + stats.updates;
    }
    // Cycles read only the words of levels with a bandwidth.
    if (objective == Objective::Energy)
      continue;
    if (arch.levels[l].readBandwidth)
      figures.push_back(double(reads));
    if (arch.levels[l].writeBandwidth)
      figures.push_back(double(writes));
  }
  if (objective != Objective::Latency)
    figures.push_back(energy);
  return true;
}

bool Dominance::dominated(const Mapping &partial, const int64_t *remaining,
                          unsigned decided, const Evaluation *simplest) {
  if (!stateOf(partial, remaining, decided))
    return false;
  if (!decidedFigures(partial, remaining, decided, simplest))
    return false;
  auto noHigher = [](const std::vector<double> &a,
                     const std::vector<double> &b) {
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] > b[i])
        return false;
    return true;
  };
  auto found = seen.find(key);
  if (found != seen.end()) {
    std::vector<std::vector<double>> &others = found->second;
    for (const std::vector<double> &other : others)
      if (noHigher(other, figures))
        return true;
    // What this one beats need not be remembered.
    size_t before = others.size();
    others.erase(std::remove_if(others.begin(), others.end(),
                                [&](const std::vector<double> &other) {
                                  return noHigher(figures, other);
                                }),
                 others.end());
    remembered -= before - others.size();
  }
  if (remembered >= remember)
    return false;
  if (found == seen.end())
    found = seen.emplace(key, std::vector<std::vector<double>>()).first;
  found->second.push_back(figures);
  ++remembered;
  return false;
}

} // namespace marlmap
