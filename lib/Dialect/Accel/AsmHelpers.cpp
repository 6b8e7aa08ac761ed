//===- AsmHelpers.cpp - Parsing and printing attribute fields -------------===//

#include "marlmap/Dialect/Accel/AsmHelpers.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <charconv>

using namespace mlir;

namespace marlmap::accel {

FailureOr<Real> parseF64(AsmParser &parser) {
  // Hardware figures are often whole numbers: accept `800` as well as `800.0`
  // (and `-2`, `1.5e-3`), through MLIR's own number parsing.
  SMLoc loc = parser.getCurrentLocation();
  Attribute number;
  if (parser.parseAttribute(number))
    return failure();
  if (auto real = dyn_cast<FloatAttr>(number))
    return Real(real.getValueAsDouble());
  if (auto whole = dyn_cast<IntegerAttr>(number))
    return Real(double(whole.getValue().getSExtValue()));
  return parser.emitError(loc, "expected a number");
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
  llvm::StringRef text(buffer, result.ptr - buffer);
  // MLIR reads `1e-05` as an integer followed by junk: a float literal needs
  // its dot, so write `1.0e-05`.
  size_t exponent = text.find('e');
  if (exponent != llvm::StringRef::npos && !text.contains('.')) {
    printer << text.take_front(exponent) << ".0" << text.drop_front(exponent);
    return;
  }
  printer << text;
}

} // namespace marlmap::accel
