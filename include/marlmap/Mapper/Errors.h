//===- Errors.h - The kinds of error front ends tell apart ------*- C++ -*-===//
//
// Below MLIR, what fails returns an llvm::Error. Most are plain text; two
// kinds are told apart by the front ends: an OptionError names the option
// whose value is refused, so that each front end spells it as its users do
// (`budget=` in the pass, `--budget` in marlmap-explore), and a SearchError
// is a failure underneath that no input of the user's explains (Python
// raises marlmap.Error for it, ValueError for the rest).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_ERRORS_H
#define MARLMAP_MAPPER_ERRORS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// An option whose value is refused.
class OptionError : public llvm::ErrorInfo<OptionError> {
public:
  static char ID;
  /// `option` as the pass spells it ("budget", "threads", "stop-after");
  /// `problem` completes the sentence ("must be between 1 and ...").
  OptionError(std::string option, std::string problem)
      : option_(std::move(option)), problem_(std::move(problem)) {}
  const std::string &option() const { return option_; }
  const std::string &problem() const { return problem_; }
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string option_, problem_;
};

/// A search that failed underneath (an exception in a library, learnt
/// weights that could not be written): not the user's input.
class SearchError : public llvm::ErrorInfo<SearchError> {
public:
  static char ID;
  explicit SearchError(std::string message) : message_(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string message_;
};

/// The error's text, each OptionError's option spelt by `spell` (by
/// default as the pass spells it). Consumes the error.
std::string
errorText(llvm::Error error,
          llvm::function_ref<std::string(const std::string &)> spell = nullptr);

/// What a lookup found, or nullopt with the error's text among `warnings`:
/// a cache that cannot be read, or holds a damaged entry, is a miss.
template <typename T>
std::optional<T> takeOrWarn(llvm::Expected<std::optional<T>> found,
                            std::vector<std::string> &warnings) {
  if (found)
    return std::move(*found);
  warnings.push_back(errorText(found.takeError()));
  return std::nullopt;
}

} // namespace marlmap

#endif // MARLMAP_MAPPER_ERRORS_H
