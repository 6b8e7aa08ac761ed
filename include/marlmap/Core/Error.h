//===- Error.h - marlmap's error convention below MLIR ----------*- C++ -*-===//
//
// Below the MLIR glue every operation that can fail returns llvm::Error or
// llvm::Expected<T>; the dialect and the passes turn them into diagnostics
// at the right location. Messages are sentences without a trailing period,
// for people. Checkers that report every problem they find, each with where
// it is (checkArch, Problem::check, checkMappingShape), do not fail: they
// return their findings, none when all is well, for a verifier to point at.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_ERROR_H
#define MARLMAP_CORE_ERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace marlmap {

/// An error that says `message` (taken as text, never as a format).
inline llvm::Error makeError(const llvm::Twine &message) {
  return llvm::make_error<llvm::StringError>(message.str(),
                                             llvm::inconvertibleErrorCode());
}

} // namespace marlmap

#endif // MARLMAP_CORE_ERROR_H
