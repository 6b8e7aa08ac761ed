//===- OptimalPolish.cpp - Local improvement of the best mapping ----------===//

#include "OptimalPolish.h"

namespace marlmap {
namespace {

/// The distinct primes of `n`, smallest first.
std::vector<int64_t> primesOf(int64_t n) {
  std::vector<int64_t> primes;
  for (int64_t p = 2; p * p <= n; ++p) {
    if (n % p)
      continue;
    primes.push_back(p);
    while (n % p == 0)
      n /= p;
  }
  if (n > 1)
    primes.push_back(n);
  return primes;
}

/// The factors at `slot`: a level's temporal loop, or its fanout along X
/// or Y.
std::vector<int64_t> &factorsAt(Mapping &mapping, unsigned slot) {
  LevelMapping &level = mapping.levels[slot / 3];
  switch (slot % 3) {
  case 0:
    return level.temporal;
  case 1:
    return level.spatialX;
  default:
    return level.spatialY;
  }
}

/// Moves one copy of `prime` of `dim` from slot `from` to slot `to`.
void movePrime(Mapping &mapping, unsigned dim, int64_t prime, unsigned from,
               unsigned to) {
  factorsAt(mapping, from)[dim] /= prime;
  factorsAt(mapping, to)[dim] *= prime;
}

} // namespace

void Polish::report(const std::vector<int64_t> &point, double cost,
                    bool polished) {
  if (cost < bestCost) {
    bestCost = cost;
    best = point;
    kicked = fromKick = false;
    centerOn(point, cost);
  } else if (polished && (kicked || cost < centerCost)) {
    kicked = false;
    centerOn(point, cost);
  }
}

void Polish::centerOn(const std::vector<int64_t> &point, double cost) {
  centerCost = cost;
  pending.clear();
  repairs.clear();
  head = 0;
  Mapping center = space.decode(point);
  queueFactorMoves(center);
  queueOrderSwaps(center);
  queueKeepFlips(center);
  // Repairs take two moves: the single moves go first.
  for (std::vector<int64_t> &repair : repairs)
    pending.push_back(std::move(repair));
  repairs.clear();
}

bool Polish::next(std::vector<int64_t> &point, bool mayKick) {
  if (head < pending.size()) {
    point = std::move(pending[head++]);
    return true;
  }
  if (!mayKick || best.empty() || !kick(point))
    return false;
  kicked = fromKick = true;
  return true;
}

bool Polish::kick(std::vector<int64_t> &point) {
  Mapping mapping = space.decode(best);
  const unsigned numSlots = 3 * mapping.levels.size();
  const unsigned numDims = space.problem().dims.size();
  unsigned moved = 0;
  for (unsigned attempt = 0; attempt < 64 && moved < kKickMoves; ++attempt) {
    const unsigned dim = unsigned(rng.below(numDims));
    const unsigned from = unsigned(rng.below(numSlots));
    const std::vector<int64_t> primes = primesOf(factorsAt(mapping, from)[dim]);
    if (primes.empty())
      continue;
    const int64_t prime = primes[rng.below(int64_t(primes.size()))];
    const unsigned to = unsigned(rng.below(numSlots));
    if (to == from)
      continue;
    movePrime(mapping, dim, prime, from, to);
    std::optional<std::vector<int64_t>> encoded = encodeIfFits(mapping);
    if (!encoded) {
      movePrime(mapping, dim, prime, to, from);
      continue;
    }
    point = std::move(*encoded);
    ++moved;
  }
  return moved > 0;
}

void Polish::queue(const Mapping &neighbour,
                   std::vector<std::vector<int64_t>> &into) {
  if (std::optional<std::vector<int64_t>> point = space.encode(neighbour))
    into.push_back(std::move(*point));
}

std::optional<std::vector<int64_t>>
Polish::encodeIfFits(const Mapping &mapping) const {
  if (overflowingLevel(mapping) != mapping.levels.size())
    return std::nullopt;
  return space.encode(mapping);
}

unsigned Polish::overflowingLevel(const Mapping &mapping) const {
  const Arch &arch = space.arch();
  const unsigned numLevels = arch.levels.size();
  const unsigned numDims = space.problem().dims.size();
  int64_t tile[CostModel::kMaxDims];
  std::fill(tile, tile + numDims, 1);
  unsigned overflowing = numLevels;
  for (unsigned l = 0; l < numLevels; ++l) {
    const LevelMapping &level = mapping.levels[l];
    if (level.spreadX() > arch.fanoutX(l) || level.spreadY() > arch.fanoutY(l))
      return ~0u;
    for (unsigned d = 0; d < numDims; ++d)
      tile[d] *= level.temporal[d] * level.spatialX[d] * level.spatialY[d];
    if (overflowing == numLevels && !bounds.fits(mapping, l, tile))
      overflowing = l;
  }
  return overflowing;
}

void Polish::queueFactorMoves(Mapping &center) {
  const unsigned numLevels = center.levels.size();
  const unsigned numDims = space.problem().dims.size();
  for (unsigned d = 0; d < numDims; ++d)
    for (unsigned from = 0; from < 3 * numLevels; ++from)
      for (int64_t prime : primesOf(factorsAt(center, from)[d]))
        for (unsigned to = 0; to < 3 * numLevels; ++to) {
          if (to == from)
            continue;
          movePrime(center, d, prime, from, to);
          const unsigned overflowing = overflowingLevel(center);
          if (overflowing == numLevels)
            queue(center, pending);
          else if (overflowing != ~0u)
            queueRepairs(center, from, overflowing);
          movePrime(center, d, prime, to, from);
        }
}

void Polish::queueRepairs(Mapping &moved, unsigned source,
                          unsigned overflowing) {
  const unsigned numLevels = moved.levels.size();
  const unsigned numDims = space.problem().dims.size();
  // Out of the overflowing tile: to where the move came from when that is
  // outside it, else to the next level's temporal loop.
  unsigned target = source;
  if (source / 3 <= overflowing) {
    if (overflowing + 1 == numLevels)
      return;
    target = 3 * (overflowing + 1);
  }
  for (unsigned d = 0; d < numDims; ++d)
    for (unsigned from = 0; from < 3 * (overflowing + 1); ++from)
      for (int64_t prime : primesOf(factorsAt(moved, from)[d])) {
        movePrime(moved, d, prime, from, target);
        if (std::optional<std::vector<int64_t>> point = encodeIfFits(moved))
          repairs.push_back(std::move(*point));
        movePrime(moved, d, prime, target, from);
      }
}

void Polish::queueOrderSwaps(const Mapping &center) {
  Mapping neighbour = center;
  for (unsigned l = 0; l < center.levels.size(); ++l) {
    // The free loops lead the order; only loops that step are worth
    // swapping, each with the next one that steps.
    std::vector<unsigned> &order = neighbour.levels[l].order;
    const std::vector<int64_t> &temporal = center.levels[l].temporal;
    const unsigned free = space.orderedLoops(l).size();
    int previous = -1;
    for (unsigned k = 0; k < free; ++k) {
      if (temporal[order[k]] == 1)
        continue;
      if (previous >= 0) {
        std::swap(order[previous], order[k]);
        queue(neighbour, pending);
        std::swap(order[previous], order[k]);
      }
      previous = int(k);
    }
  }
}

void Polish::queueKeepFlips(const Mapping &center) {
  Mapping neighbour = center;
  const unsigned numOperands = space.problem().operands.size();
  for (unsigned l = 0; l < center.levels.size(); ++l)
    for (unsigned o = 0; o < numOperands; ++o) {
      if (!space.keepIsFree(l, o))
        continue;
      neighbour.levels[l].keep[o] = !center.levels[l].keep[o];
      if (std::optional<std::vector<int64_t>> point = encodeIfFits(neighbour))
        pending.push_back(std::move(*point));
      neighbour.levels[l].keep[o] = center.levels[l].keep[o];
    }
}

} // namespace marlmap
