//===- TextNumbers.h - Whole numbers read from option text ------*- C++ -*-===//
//
// Options and grid values are written as text: a number is the whole of
// it, nothing after, no overflow.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_TEXTNUMBERS_H
#define MARLMAP_CORE_TEXTNUMBERS_H

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

namespace marlmap {

/// `text` as a whole integer, or nullopt (trailing characters, overflow).
inline std::optional<int64_t> readInteger(const std::string &text) {
  if (text.empty() || text.size() > 20)
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0')
    return std::nullopt;
  return int64_t(value);
}

/// `text` as a whole finite real, or nullopt.
inline std::optional<double> readReal(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value))
    return std::nullopt;
  return value;
}

} // namespace marlmap

#endif // MARLMAP_CORE_TEXTNUMBERS_H
