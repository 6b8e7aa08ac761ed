//===- OutputFile.h - Writing a file the user named -------------*- C++ -*-===//
//
// Reports, descriptions, scripts and JSON go to files the user names. A file
// that cannot be opened, or a write that fails part way (a full disk,
// /dev/full), is an error naming the file, never LLVM's fatal "IO failure
// on output stream".
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SUPPORT_OUTPUTFILE_H
#define MARLMAP_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace marlmap {

/// Calls `write` on `path` ('-': standard output) and keeps the file only
/// when all of it was written; false, with the reason and the path in
/// `error`, when it cannot be opened or written.
bool writeOutputFile(llvm::StringRef path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write,
                     std::string &error);

} // namespace marlmap

#endif // MARLMAP_SUPPORT_OUTPUTFILE_H
