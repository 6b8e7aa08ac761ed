//===- AsmHelpers.cpp - Parsing and printing attribute fields -------------===//

#include "marlmap/Dialect/Accel/AsmHelpers.h"

#include <charconv>

using namespace mlir;

namespace marlmap::accel {

FailureOr<Real> parseF64(AsmParser &parser) {
  // Hardware figures are often whole numbers: accept `800` as well as `800.0`.
  double sign = succeeded(parser.parseOptionalMinus()) ? -1.0 : 1.0;
  int64_t whole = 0;
  OptionalParseResult integer = parser.parseOptionalInteger(whole);
  if (integer.has_value()) {
    if (failed(*integer))
      return failure();
    return Real(sign * double(whole));
  }
  double value = 0.0;
  if (parser.parseFloat(value))
    return failure();
  return Real(sign * value);
}

FailureOr<std::optional<Real>> parseOptionalF64(AsmParser &parser) {
  FailureOr<Real> value = parseF64(parser);
  if (failed(value))
    return failure();
  return std::optional<Real>(*value);
}

void printF64(AsmPrinter &printer, double value) {
  char buffer[64];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  printer.getStream().write(buffer, result.ptr - buffer);
}

} // namespace marlmap::accel
