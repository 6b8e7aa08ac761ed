//===- ExpectedValue.h - llvm::Expected in test assertions ------*- C++ -*-===//

#ifndef MARLMAP_UNITTESTS_SUPPORT_EXPECTEDVALUE_H
#define MARLMAP_UNITTESTS_SUPPORT_EXPECTEDVALUE_H

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace marlmap {

/// The value `expected` holds, or T() (null, empty) with its message in
/// `why`: lets a test write `ASSERT_TRUE(space) << why` and check the
/// message of a failure it expects.
template <typename T> T valueOr(llvm::Expected<T> expected, std::string &why) {
  if (expected)
    return std::move(*expected);
  why = llvm::toString(expected.takeError());
  return T();
}

/// The value `expected` holds, or nullopt with its message in `why`.
template <typename T>
std::optional<T> optionalOr(llvm::Expected<T> expected, std::string &why) {
  if (expected)
    return std::move(*expected);
  why = llvm::toString(expected.takeError());
  return std::nullopt;
}

/// What a lookup found (nullopt on a miss), or nullopt with the error's
/// message in `why`.
template <typename T>
std::optional<T> foundOr(llvm::Expected<std::optional<T>> found,
                         std::string &why) {
  if (found)
    return std::move(*found);
  why = llvm::toString(found.takeError());
  return std::nullopt;
}

/// Whether `error` is success; its message in `why` when not.
inline bool succeeded(llvm::Error error, std::string &why) {
  if (!error)
    return true;
  why = llvm::toString(std::move(error));
  return false;
}

} // namespace marlmap

#endif // MARLMAP_UNITTESTS_SUPPORT_EXPECTEDVALUE_H
