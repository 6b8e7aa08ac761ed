//===- OutputFile.cpp - Writing a file the user named ---------------------===//

#include "marlmap/Support/OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace marlmap {

llvm::Error
writeOutputFile(llvm::StringRef path,
                llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string reason;
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(path, &reason);
  if (!file)
    return llvm::createStringError(reason);
  write(file->os());
  file->os().flush();
  if (file->os().has_error()) {
    llvm::Error error = llvm::createStringError(
        "cannot write '" + path.str() + "': " + file->os().error().message());
    // Reported here: the stream must not report it again as fatal.
    file->os().clear_error();
    return error;
  }
  file->keep();
  return llvm::Error::success();
}

} // namespace marlmap
