//===- OutputFile.cpp - Writing a file the user named ---------------------===//

#include "marlmap/Support/OutputFile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace marlmap {

bool writeOutputFile(llvm::StringRef path,
                     llvm::function_ref<void(llvm::raw_ostream &)> write,
                     std::string &error) {
  std::string reason;
  std::unique_ptr<llvm::ToolOutputFile> file =
      mlir::openOutputFile(path, &reason);
  if (!file) {
    error = reason;
    return false;
  }
  write(file->os());
  file->os().flush();
  if (file->os().has_error()) {
    error =
        "cannot write '" + path.str() + "': " + file->os().error().message();
    // Reported here: the stream must not report it again as fatal.
    file->os().clear_error();
    return false;
  }
  file->keep();
  return true;
}

} // namespace marlmap
