//===- MapSpaceTables.h - Counting tables of the map space ------*- C++ -*-===//
//
// What building the space (MapSpace.cpp) and coding its points
// (MapSpaceCoding.cpp) both count with: binomials for the ways to split a
// dim's primes among slots, factorials for loop orders, and the limits of
// both.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_CORE_MAPSPACETABLES_H
#define MARLMAP_LIB_CORE_MAPSPACETABLES_H

#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Core/CostModel.h"

#include <array>
#include <cstdint>
#include <vector>

namespace marlmap::mapspace {

constexpr unsigned kMaxBinomial = 160;
/// Bounds are factored by trial division: up to 2^40 takes milliseconds.
constexpr int64_t kMaxBound = int64_t(1) << 40;
/// A loop factor takes every integer up to its limit when the limit is at
/// most this (spatial loops; MapSpaceLoopFactors.cpp).
constexpr int64_t kMaxDenseFactors = 64;
constexpr int64_t kMaxChoices = int64_t(1) << 62;

/// Binomial coefficients, saturating at kSaturated.
inline const std::vector<std::vector<int64_t>> &binomials() {
  static const std::vector<std::vector<int64_t>> table = [] {
    std::vector<std::vector<int64_t>> t(kMaxBinomial,
                                        std::vector<int64_t>(kMaxBinomial, 0));
    for (unsigned n = 0; n < kMaxBinomial; ++n) {
      t[n][0] = 1;
      for (unsigned k = 1; k <= n; ++k)
        t[n][k] = saturatingAdd(t[n - 1][k - 1], t[n - 1][k]);
    }
    return t;
  }();
  return table;
}

/// The ways to put `items` copies into `bins` slots (bins >= 1), from the
/// binomial table: C(items + bins - 1, bins - 1), saturating. Inline: every
/// decode and rank of a factor split counts with it.
inline int64_t compositionsOf(unsigned items, unsigned bins) {
  const unsigned n = items + bins - 1;
  return n >= kMaxBinomial ? kSaturated : binomials()[n][bins - 1];
}

/// The smallest prime factor of n > 1.
inline int64_t smallestPrime(int64_t n) {
  for (int64_t p = 2; p <= n / p; ++p)
    if (n % p == 0)
      return p;
  return n;
}

/// n!, saturating; from a table, since decode and encode ask per digit.
inline int64_t factorial(unsigned n) {
  static const std::array<int64_t, 21> table = [] {
    std::array<int64_t, 21> f{};
    f[0] = 1;
    for (unsigned i = 1; i < f.size(); ++i)
      f[i] = f[i - 1] * int64_t(i); // 20! still fits in int64_t
    return f;
  }();
  return n < table.size() ? table[n] : kSaturated;
}

/// Writes into `permutation` the permutation of 0..n-1 (n at most
/// CostModel::kMaxDims) whose Lehmer code is `value`: its factorial digits,
/// the first position's first, each picking among the indices left.
template <typename Index>
void lehmerDecode(unsigned n, int64_t value, Index *permutation) {
  Index left[CostModel::kMaxDims];
  for (unsigned k = 0; k < n; ++k)
    left[k] = Index(k);
  for (unsigned position = 0; position < n; ++position) {
    const int64_t weight = factorial(n - 1 - position);
    const unsigned pick = unsigned(value / weight);
    value %= weight;
    permutation[position] = left[pick];
    for (unsigned k = pick; k + 1 < n - position; ++k)
      left[k] = left[k + 1];
  }
}

/// lehmerDecode's permutation from a table for n up to 8 (decode reads one
/// per level of every sample, and the digits' divisions were a tenth of a
/// learned search's time); nullptr for larger n.
inline const uint8_t *lehmerPermutation(unsigned n, int64_t value) {
  constexpr unsigned kMaxTabulated = 8;
  static const std::array<std::vector<uint8_t>, kMaxTabulated + 1> tables = [] {
    std::array<std::vector<uint8_t>, kMaxTabulated + 1> t;
    for (unsigned size = 0; size <= kMaxTabulated; ++size) {
      t[size].resize(size_t(factorial(size)) * size);
      for (int64_t code = 0; code < factorial(size); ++code)
        lehmerDecode(size, code, t[size].data() + size_t(code) * size);
    }
    return t;
  }();
  return n <= kMaxTabulated ? tables[n].data() + size_t(value) * n : nullptr;
}

/// Fits a point into every fanout, level by level from the innermost, X
/// before Y: `measure(spread)` fills each level's spread along X and Y
/// (spread[level][axis - 1]); while a level overflows an axis,
/// `shrink(level, axis, fanout, spreadNow)` makes one move (false when it
/// has none, which leaves the point as it is there). True when any moved.
template <typename Measure, typename Shrink>
bool fitEveryAxis(const Arch &arch, Measure measure, Shrink shrink) {
  int64_t spread[CostModel::kMaxLevels][2];
  measure(spread);
  bool moved = false;
  for (unsigned l = 0; l < arch.levels.size(); ++l)
    for (unsigned axis : {1u, 2u}) {
      const int64_t fanout = axis == 1 ? arch.fanoutX(l) : arch.fanoutY(l);
      while (spread[l][axis - 1] > fanout) {
        if (!shrink(l, axis, fanout, spread[l][axis - 1]))
          break;
        moved = true;
        measure(spread);
      }
    }
  return moved;
}

} // namespace marlmap::mapspace

#endif // MARLMAP_LIB_CORE_MAPSPACETABLES_H
