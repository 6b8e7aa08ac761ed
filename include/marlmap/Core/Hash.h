//===- Hash.h - A stable hash of text ---------------------------*- C++ -*-===//
//
// FNV-1a: the same on every machine and run, unlike std::hash. Seeds,
// cache checksums and network fingerprints use it; it is not a
// cryptographic hash.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_HASH_H
#define MARLMAP_CORE_HASH_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace marlmap {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;

/// `text` hashed on top of `hash` (chain calls to hash several parts).
inline uint64_t fnv1a(std::string_view text, uint64_t hash = kFnvOffset) {
  for (unsigned char c : text)
    hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

/// Sixteen hex digits.
inline std::string hexText(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", (unsigned long long)value);
  return text;
}

} // namespace marlmap

#endif // MARLMAP_CORE_HASH_H
