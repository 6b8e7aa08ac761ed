//===- Errors.cpp - The kinds of error front ends tell apart --------------===//

#include "marlmap/Mapper/Errors.h"

#include "llvm/Support/raw_ostream.h"

namespace marlmap {

char OptionError::ID = 0;
char SearchError::ID = 0;

void OptionError::log(llvm::raw_ostream &os) const {
  os << option_ << " " << problem_;
}

std::error_code OptionError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

void SearchError::log(llvm::raw_ostream &os) const { os << message_; }

std::error_code SearchError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

std::string
errorText(llvm::Error error,
          llvm::function_ref<std::string(const std::string &)> spell) {
  std::string text;
  llvm::handleAllErrors(
      std::move(error),
      [&](const OptionError &refused) {
        text += (text.empty() ? "" : "; ");
        text += (spell ? spell(refused.option()) : refused.option()) + " " +
                refused.problem();
      },
      [&](const llvm::ErrorInfoBase &other) {
        text += (text.empty() ? "" : "; ") + other.message();
      });
  return text;
}

} // namespace marlmap
