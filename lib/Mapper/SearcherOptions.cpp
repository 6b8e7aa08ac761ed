//===- SearcherOptions.cpp - Typed options kept as canonical text ---------===//

#include "marlmap/Core/TextNumbers.h"
#include "marlmap/Mapper/Registry.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace marlmap {

std::string canonicalNumber(double value) {
  const double magnitude = std::fabs(value);
  const bool plain = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e15);
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value &&
        (!plain || !std::strchr(text, 'e')))
      break;
  }
  return text;
}

SearcherOption integerOption(std::string name, std::string help,
                             int64_t defaultValue, int64_t lowest,
                             int64_t highest) {
  SearcherOption option;
  option.name = std::move(name);
  option.help = std::move(help);
  option.defaultValue = std::to_string(defaultValue);
  option.accepted = "an integer from " + std::to_string(lowest) + " to " +
                    std::to_string(highest);
  option.canonical =
      [lowest, highest](const std::string &text) -> std::optional<std::string> {
    std::optional<int64_t> value = readInteger(text);
    if (!value || *value < lowest || *value > highest)
      return std::nullopt;
    return std::to_string(*value);
  };
  return option;
}

SearcherOption realOption(std::string name, std::string help,
                          double defaultValue, double lowest, double highest,
                          bool openBelow) {
  SearcherOption option;
  option.name = std::move(name);
  option.help = std::move(help);
  option.defaultValue = canonicalNumber(defaultValue);
  option.accepted =
      (openBelow ? "a number above " + canonicalNumber(lowest) + ", at most "
                 : "a number from " + canonicalNumber(lowest) + " to ") +
      canonicalNumber(highest);
  option.canonical =
      [lowest, highest,
       openBelow](const std::string &text) -> std::optional<std::string> {
    std::optional<double> value = readReal(text);
    if (!value || *value > highest || *value < lowest ||
        (openBelow && *value == lowest))
      return std::nullopt;
    return canonicalNumber(*value);
  };
  return option;
}

SearcherOption choiceOption(std::string name, std::string help,
                            std::string defaultValue,
                            std::vector<std::string> choices) {
  SearcherOption option;
  option.name = std::move(name);
  option.help = std::move(help);
  option.defaultValue = std::move(defaultValue);
  for (size_t i = 0; i < choices.size(); ++i)
    option.accepted += (i == 0                   ? ""
                        : i + 1 < choices.size() ? ", "
                                                 : " or ") +
                       choices[i];
  option.canonical =
      [choices](const std::string &text) -> std::optional<std::string> {
    for (const std::string &choice : choices)
      if (text == choice)
        return text;
    return std::nullopt;
  };
  option.choices = std::move(choices);
  return option;
}

SearcherOption fileOption(std::string name, std::string help,
                          SearcherOption::Role role) {
  SearcherOption option;
  option.name = std::move(name);
  option.help = std::move(help);
  option.accepted = "a file name";
  option.role = role;
  // Spaces and control characters would not survive a pass's options.
  option.canonical = [](const std::string &text) -> std::optional<std::string> {
    for (unsigned char c : text)
      if (c <= ' ')
        return std::nullopt;
    return text;
  };
  return option;
}

const std::string &OptionValues::text(const std::string &name) const {
  static const std::string kNone;
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  if (unregistered.empty())
    unregistered = name;
  return kNone;
}

llvm::Error OptionValues::misuse(const std::string &searcher) const {
  if (unregistered.empty())
    return llvm::Error::success();
  return makeError("searcher '" + searcher + "' reads option '" + unregistered +
                   "', which it does not register");
}

int64_t OptionValues::integer(const std::string &name) const {
  return std::strtoll(text(name).c_str(), nullptr, 10);
}

double OptionValues::real(const std::string &name) const {
  return std::strtod(text(name).c_str(), nullptr);
}

} // namespace marlmap
