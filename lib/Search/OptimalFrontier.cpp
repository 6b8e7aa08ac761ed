//===- OptimalFrontier.cpp - What one bound reads of its partial mapping -===//

#include "OptimalFrontier.h"

#include <algorithm>

namespace marlmap {

PartialBound::Frontier::Frontier(const PartialBound &bounds, unsigned decided,
                                 unsigned decidedDims)
    : s(decided), top(decided == 0 ? 0 : decided - 1), decidedDims(decidedDims),
      allDims(
          uint32_t((uint64_t(1) << bounds.space.problem().dims.size()) - 1)),
      completion(bounds.completion), bounds(bounds) {
  const unsigned numDims = bounds.space.problem().dims.size(),
                 numLevels = completion.levels.size();
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelMapping &level = completion.levels[l];
    spread[l] = level.spreadX() * level.spreadY();
    for (unsigned d = 0; d < numDims; ++d)
      tile[l][d] = (l == 0 ? 1 : tile[l - 1][d]) * level.temporal[d] *
                   level.spatialX[d] * level.spatialY[d];
  }
  for (unsigned l = numLevels; l-- > 0;)
    instances[l] = l + 1 == numLevels ? 1 : instances[l + 1] * spread[l + 1];
  for (unsigned m = s; m < numLevels; ++m)
    decidedSpread *= double(spread[m]);
}

const double *PartialBound::Frontier::knownRoom(unsigned level,
                                                uint32_t dims) const {
  for (unsigned k = 0; k < knownCount; ++k)
    if (known[k].level == level && known[k].dims == dims)
      return &known[k].room;
  return nullptr;
}

double PartialBound::Frontier::remember(unsigned level, uint32_t dims,
                                        double room) const {
  if (knownCount < kKnownRooms)
    known[knownCount++] = {level, dims, room};
  return room;
}

double PartialBound::Frontier::frontierRoom(uint32_t dims) const {
  if (const double *room = knownRoom(kFrontier, dims))
    return *room;
  const LevelMapping &level = completion.levels[s - 1];
  double room = 1.0;
  for (unsigned d = 0; d < bounds.space.problem().dims.size(); ++d)
    if ((dims >> d) & 1)
      room *= double(level.spatialX[d] * level.spatialY[d]);
  const uint32_t open = dims & allDims & ~((uint32_t(1) << decidedDims) - 1);
  if (open)
    room *= bounds.largestSpread(s - 1, 0, open, topTile(),
                                 bounds.fanout(s - 1, 0) / level.spreadX()) *
            bounds.largestSpread(s - 1, 1, open, topTile(),
                                 bounds.fanout(s - 1, 1) / level.spreadY());
  return remember(kFrontier, dims, room);
}

double PartialBound::Frontier::levelRoom(unsigned m, uint32_t dims) const {
  if (bounds.fanout(m, 0) == 1 && bounds.fanout(m, 1) == 1)
    return 1.0; // a level without a fanout, as most are
  if (const double *room = knownRoom(m, dims))
    return *room;
  const double axes =
      bounds.largestSpread(m, 0, dims, topTile(), bounds.fanout(m, 0)) *
      bounds.largestSpread(m, 1, dims, topTile(), bounds.fanout(m, 1));
  double extents = 1.0;
  for (unsigned d = 0; d < bounds.space.problem().dims.size(); ++d)
    if (((dims >> d) & 1) &&
        (bounds.spatialCap(m, 0, d) > 1 || bounds.spatialCap(m, 1, d) > 1))
      extents *= double(topTile()[d]);
  return remember(m, dims, std::min(axes, extents));
}

double PartialBound::Frontier::undecidedSpread(unsigned from, unsigned to,
                                               uint32_t dims) const {
  if (s == 0 || from > to || from >= s)
    return 1.0;
  to = std::min(to, s - 1);
  double fanouts = 1.0, extents = 1.0;
  for (unsigned m = from; m <= to; ++m)
    fanouts *= m + 1 == s ? frontierRoom(dims) : levelRoom(m, dims);
  for (unsigned d = 0; d < bounds.space.problem().dims.size(); ++d)
    if ((dims >> d) & 1)
      extents *= double(topTile()[d]);
  return std::min(fanouts, extents);
}

double PartialBound::Frontier::decidedIgnoredSpread(unsigned from, unsigned to,
                                                    unsigned o) const {
  const unsigned numDims = bounds.space.problem().dims.size();
  double product = 1.0;
  for (unsigned m = std::max(from, s); m <= to; ++m)
    product *= double(
        ignoredSpread(completion.levels[m], numDims, bounds.relevantDims[o]));
  return product;
}

bool PartialBound::Frontier::relevantLoopUnderFrontier(unsigned o,
                                                       double points) const {
  if (s < 2)
    return false; // no keeper below the frontier
  const uint32_t relevant = bounds.relevantDims[o];
  for (unsigned d = 0; d < bounds.space.problem().dims.size(); ++d)
    if (((relevant >> d) & 1) && completion.levels[s - 1].temporal[d] > 1)
      return true;
  for (unsigned c = s - 1; c-- > 0;) {
    if (!completion.levels[c].keep[o])
      continue;
    const StorageLevel &storage = bounds.space.arch().levels[c];
    if (!storage.entries)
      return false;
    const double holds = double(*storage.entries) / storage.multipleBuffering;
    return points > holds * undecidedSpread(c + 1, s - 1, relevant);
  }
  return false;
}

} // namespace marlmap
