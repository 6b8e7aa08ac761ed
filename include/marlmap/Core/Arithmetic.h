//===- Arithmetic.h - Overflow-safe integer helpers -------------*- C++ -*-===//
//
// Products of loop bounds, tile factors and instance counts come from user
// input; they saturate instead of wrapping, so a huge value is reported as
// too large rather than silently becoming a small one. Tile factors are
// made of a bound's primes, hence the factoring helpers.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ARITHMETIC_H
#define MARLMAP_CORE_ARITHMETIC_H

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace marlmap {

constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

/// a * b for non-negative a and b, or kSaturated when it does not fit.
inline int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result))
    return kSaturated;
  return result;
}

/// a + b for non-negative a and b, or kSaturated when it does not fit.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result))
    return kSaturated;
  return result;
}

/// Prime factors of n (positive) with their exponents, smallest first.
inline std::vector<std::pair<int64_t, unsigned>> factorize(int64_t n) {
  std::vector<std::pair<int64_t, unsigned>> primes;
  for (int64_t p = 2; p <= n / p; ++p) {
    unsigned exponent = 0;
    while (n % p == 0) {
      n /= p;
      ++exponent;
    }
    if (exponent)
      primes.push_back({p, exponent});
  }
  if (n > 1)
    primes.push_back({n, 1});
  return primes;
}

/// The divisors of n (positive), ascending.
inline std::vector<int64_t> divisors(int64_t n) {
  std::vector<int64_t> small, large;
  for (int64_t d = 1; d <= n / d; ++d)
    if (n % d == 0) {
      small.push_back(d);
      if (d != n / d)
        large.push_back(n / d);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

/// The product of `factors`, saturating at kSaturated.
inline int64_t saturatingProduct(const std::vector<int64_t> &factors) {
  int64_t all = 1;
  for (int64_t f : factors)
    all = saturatingMul(all, f);
  return all;
}

/// The exponent of `prime` in `n` (positive).
inline unsigned valuation(int64_t n, int64_t prime) {
  unsigned exponent = 0;
  while (n % prime == 0) {
    n /= prime;
    ++exponent;
  }
  return exponent;
}

} // namespace marlmap

#endif // MARLMAP_CORE_ARITHMETIC_H
