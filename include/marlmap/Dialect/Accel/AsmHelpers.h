//===- AsmHelpers.h - Parsing and printing attribute fields -----*- C++ -*-===//
//
// Field parsers and printers the generated accel attribute code calls.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_DIALECT_ACCEL_ASMHELPERS_H
#define MARLMAP_DIALECT_ACCEL_ASMHELPERS_H

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <optional>

namespace marlmap::accel {

/// A double as an attribute parameter: MLIR hashes parameters and LLVM has no
/// hash for a bare double. -0 is stored as +0 so that equal values hash equal.
struct Real {
  Real(double value = 0.0) : value(value == 0.0 ? 0.0 : value) {}
  operator double() const { return value; }
  bool operator==(const Real &other) const { return value == other.value; }
  double value;
};
inline llvm::hash_code hash_value(Real real) {
  return llvm::hash_value(llvm::bit_cast<uint64_t>(real.value));
}

/// A real written as an integer or float literal.
mlir::FailureOr<Real> parseF64(mlir::AsmParser &parser);
mlir::FailureOr<std::optional<Real>> parseOptionalF64(mlir::AsmParser &parser);
/// Prints the shortest text that parses back to exactly `value`.
void printF64(mlir::AsmPrinter &printer, double value);

/// `[a, b, ...]`, possibly empty, each element read by FieldParser<T>.
template <typename T>
mlir::FailureOr<llvm::SmallVector<T>>
parseBracketList(mlir::AsmParser &parser) {
  llvm::SmallVector<T> elements;
  if (parser.parseCommaSeparatedList(
          mlir::AsmParser::Delimiter::Square, [&]() -> mlir::ParseResult {
            mlir::FailureOr<T> element = mlir::FieldParser<T>::parse(parser);
            if (mlir::failed(element))
              return mlir::failure();
            elements.push_back(*element);
            return mlir::success();
          }))
    return mlir::failure();
  return elements;
}

template <typename T>
void printBracketList(mlir::AsmPrinter &printer, llvm::ArrayRef<T> elements) {
  printer << '[';
  llvm::interleaveComma(elements, printer,
                        [&](const T &element) { printer << element; });
  printer << ']';
}

} // namespace marlmap::accel

#endif // MARLMAP_DIALECT_ACCEL_ASMHELPERS_H
