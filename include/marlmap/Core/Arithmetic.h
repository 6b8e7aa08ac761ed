//===- Arithmetic.h - Overflow-safe integer helpers -------------*- C++ -*-===//
//
// Products of loop bounds, tile factors and instance counts come from user
// input; they saturate instead of wrapping, so a huge value is reported as
// too large rather than silently becoming a small one.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ARITHMETIC_H
#define MARLMAP_CORE_ARITHMETIC_H

#include <cstdint>
#include <limits>

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

} // namespace marlmap

#endif // MARLMAP_CORE_ARITHMETIC_H
