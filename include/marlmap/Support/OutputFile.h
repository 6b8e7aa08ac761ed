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
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace marlmap {

/// Calls `write` on `path` ('-': standard output) and keeps the file only
/// when all of it was written; an error naming the path when it cannot be
/// opened or written.
llvm::Error
writeOutputFile(llvm::StringRef path,
                llvm::function_ref<void(llvm::raw_ostream &)> write);

} // namespace marlmap

#endif // MARLMAP_SUPPORT_OUTPUTFILE_H
