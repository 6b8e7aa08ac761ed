//===- ConstraintParams.cpp - Fields of #accel.constraint -----------------===//

#include "marlmap/Dialect/Accel/ConstraintParams.h"

using namespace mlir;

namespace marlmap::accel {

namespace {

/// A dim name keyword: N, K, C, P, Q, R, S or G.
FailureOr<DimName> parseDim(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (std::optional<DimName> name = parseDimName(keyword))
    return *name;
  return parser.emitError(loc, "expected a dim name (N, K, C, P, Q, R, S or "
                               "G), got '")
         << keyword << "'";
}

} // namespace

DimList::DimList(llvm::ArrayRef<DimName> names) : isGiven(true) {
  assert(names.size() <= kCapacity && "DimList holds at most 16 names");
  size = uint8_t(names.size());
  std::copy(names.begin(), names.end(), dims.begin());
}

llvm::hash_code hash_value(const DimList &list) {
  return llvm::hash_combine(
      list.given(),
      llvm::hash_combine_range(list.names().begin(), list.names().end()));
}

FailureOr<DimList> parseDimList(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  llvm::SmallVector<DimName> names;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<DimName> name = parseDim(parser);
            if (failed(name))
              return failure();
            names.push_back(*name);
            return success();
          }))
    return failure();
  if (names.size() > DimList::kCapacity)
    return parser.emitError(loc, "a dim list names at most ")
           << DimList::kCapacity << " dims";
  return DimList(names);
}

void printDimList(AsmPrinter &printer, const DimList &list) {
  printer << '[';
  llvm::interleaveComma(list.names(), printer, [&](DimName name) {
    printer << dimNameSpelling(name);
  });
  printer << ']';
}

FailureOr<bool> parseBool(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword == "true" || keyword == "false")
    return keyword == "true";
  return parser.emitError(loc, "expected true or false");
}

} // namespace marlmap::accel

namespace mlir {

FailureOr<marlmap::FactorRule>
FieldParser<marlmap::FactorRule>::parse(AsmParser &parser) {
  FailureOr<marlmap::DimName> dim = marlmap::accel::parseDim(parser);
  if (failed(dim))
    return failure();
  marlmap::FactorRule rule;
  rule.dim = *dim;
  if (succeeded(parser.parseOptionalKeyword("max"))) {
    rule.bound = marlmap::FactorRule::Bound::AtMost;
    if (parser.parseInteger(rule.value))
      return failure();
    return rule;
  }
  if (parser.parseEqual())
    return failure();
  if (succeeded(parser.parseOptionalKeyword("full"))) {
    rule.bound = marlmap::FactorRule::Bound::Full;
    rule.value = 0;
    return rule;
  }
  if (parser.parseInteger(rule.value))
    return failure();
  return rule;
}

FailureOr<marlmap::OpKind>
FieldParser<marlmap::OpKind>::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (std::optional<marlmap::OpKind> kind = marlmap::parseOpKind(keyword))
    return *kind;
  return parser.emitError(loc, "expected an op kind (conv, depthwise, gemm or "
                               "other), got '")
         << keyword << "'";
}

} // namespace mlir
