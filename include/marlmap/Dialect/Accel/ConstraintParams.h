//===- ConstraintParams.h - Fields of #accel.constraint ---------*- C++ -*-===//
//
// The parameters of a constraint attribute are the core's own values (dim
// names, op kinds, factor rules); these make them attribute parameters:
// hashing, parsing and printing.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_DIALECT_ACCEL_CONSTRAINTPARAMS_H
#define MARLMAP_DIALECT_ACCEL_CONSTRAINTPARAMS_H

#include "marlmap/Core/Constraint.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/Hashing.h"

#include <array>

namespace marlmap {

inline llvm::hash_code hash_value(const FactorRule &rule) {
  return llvm::hash_combine(rule.dim, rule.bound, rule.value);
}
inline mlir::AsmPrinter &operator<<(mlir::AsmPrinter &printer,
                                    const FactorRule &rule) {
  return printer << rule.str();
}
inline mlir::AsmPrinter &operator<<(mlir::AsmPrinter &printer, OpKind kind) {
  return printer << opKindSpelling(kind);
}

namespace accel {

/// A list of dim names that may be left out, which is not the same as
/// empty (`x_dims = []`: nothing may spread along X). Held inline so that
/// the attribute storage needs no allocation.
class DimList {
public:
  static constexpr unsigned kCapacity = 16;
  DimList() = default;
  explicit DimList(llvm::ArrayRef<DimName> names);
  bool given() const { return isGiven; }
  llvm::ArrayRef<DimName> names() const { return {dims.data(), size}; }
  bool operator==(const DimList &other) const {
    return isGiven == other.isGiven && names() == other.names();
  }

private:
  bool isGiven = false;
  uint8_t size = 0;
  std::array<DimName, kCapacity> dims{};
};
llvm::hash_code hash_value(const DimList &list);

/// `[K, C]`.
mlir::FailureOr<DimList> parseDimList(mlir::AsmParser &parser);
void printDimList(mlir::AsmPrinter &printer, const DimList &list);
/// `true` or `false`.
mlir::FailureOr<bool> parseBool(mlir::AsmParser &parser);

} // namespace accel
} // namespace marlmap

namespace mlir {

/// `K = 4`, `K max 4`, `K = full`.
template <> struct FieldParser<marlmap::FactorRule> {
  static FailureOr<marlmap::FactorRule> parse(AsmParser &parser);
};
/// `conv`, `depthwise`, `gemm`, `other`.
template <> struct FieldParser<marlmap::OpKind> {
  static FailureOr<marlmap::OpKind> parse(AsmParser &parser);
};

} // namespace mlir

#endif // MARLMAP_DIALECT_ACCEL_CONSTRAINTPARAMS_H
