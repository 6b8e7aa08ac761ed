//===- Random.h - A portable, seeded random source --------------*- C++ -*-===//
//
// xoshiro256** seeded through splitmix64, with bounded draws that do not
// depend on the standard library's distributions (which differ between
// implementations): the same seed gives the same samples everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_RANDOM_H
#define MARLMAP_CORE_RANDOM_H

#include <cassert>
#include <cstdint>

namespace marlmap {

class Rng {
public:
  explicit Rng(uint64_t seed) {
    for (uint64_t &word : state) {
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      word = z ^ (z >> 31);
    }
  }

  uint64_t next() {
    uint64_t result = rotl(state[1] * 5, 7) * 9;
    uint64_t t = state[1] << 17;
    state[2] ^= state[0];
    state[3] ^= state[1];
    state[1] ^= state[2];
    state[0] ^= state[3];
    state[2] ^= t;
    state[3] = rotl(state[3], 45);
    return result;
  }

  /// Uniform in [0, n) for n >= 1, without modulo bias.
  int64_t below(int64_t n) {
    assert(n >= 1 && "below() draws from an empty range");
    uint64_t bound = uint64_t(n);
    uint64_t threshold = (0 - bound) % bound;
    while (true) {
      uint64_t r = next();
      if (r >= threshold)
        return int64_t(r % bound);
    }
  }

  /// Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t state[4];
};

} // namespace marlmap

#endif // MARLMAP_CORE_RANDOM_H
