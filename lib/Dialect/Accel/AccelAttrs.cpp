//===- AccelAttrs.cpp - accel attributes ----------------------------------===//

#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace marlmap;
using namespace marlmap::accel;

#include "marlmap/Dialect/Accel/AccelEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "marlmap/Dialect/Accel/AccelAttrs.cpp.inc"

void AccelDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "marlmap/Dialect/Accel/AccelAttrs.cpp.inc"
      >();
}

/// Reports every issue through `emitAt`, which picks the location.
static LogicalResult
report(const std::vector<ArchIssue> &issues,
       llvm::function_ref<InFlightDiagnostic(const ArchIssue &)> emitAt) {
  for (const ArchIssue &issue : issues)
    emitAt(issue) << issue.message;
  return success(issues.empty());
}

static LogicalResult
verifyMesh(llvm::function_ref<InFlightDiagnostic()> emitError,
           llvm::StringRef what, int64_t instances,
           std::optional<int64_t> meshX, std::optional<int64_t> meshY) {
  for (auto [field, side] : {std::pair{"mesh_x", meshX}, {"mesh_y", meshY}})
    if (side && *side <= 0)
      return emitError() << what << ": '" << field << "' must be positive, got "
                         << *side;
  int64_t x = 0, y = 0;
  if (instances <= 0 || deriveMesh(instances, meshX, meshY, x, y))
    return success();
  auto diag = emitError() << what << ": ";
  if (meshX)
    diag << "mesh_x = " << *meshX;
  if (meshX && meshY)
    diag << " and ";
  if (meshY)
    diag << "mesh_y = " << *meshY;
  return diag << " cannot lay out " << instances << " instances";
}

//===----------------------------------------------------------------------===//
// StorageLevelAttr / ComputeAttr
//===----------------------------------------------------------------------===//

LogicalResult StorageLevelAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef name,
    Technology technology, std::optional<int64_t> entries, int64_t wordBits,
    int64_t blockSize, int64_t instances, std::optional<int64_t> meshX,
    std::optional<int64_t> meshY, std::optional<Real> readBandwidth,
    std::optional<Real> writeBandwidth, Real readEnergy, Real writeEnergy,
    std::optional<Real> updateEnergy, Real multipleBuffering,
    ArrayRef<TensorRole> holds) {
  llvm::SmallSet<TensorRole, 3> seen;
  for (TensorRole role : holds)
    if (!seen.insert(role).second)
      return emitError() << "storage level '" << name << "': 'holds' lists "
                         << stringifyTensorRole(role) << " twice";
  if (failed(verifyMesh(emitError, "storage level '" + name.str() + "'",
                        instances, meshX, meshY)))
    return failure();
  // The core check owns the rules.
  return report(
      checkStorageLevel(
          storageLevelFromParams(name, technology, entries, wordBits, blockSize,
                                 instances, meshX, meshY, readBandwidth,
                                 writeBandwidth, readEnergy, writeEnergy,
                                 updateEnergy, multipleBuffering, holds),
          0),
      [&](const ArchIssue &) { return emitError(); });
}

LogicalResult ComputeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t instances,
                                  std::optional<int64_t> meshX,
                                  std::optional<int64_t> meshY,
                                  int64_t wordBits, int64_t macsPerCycle,
                                  Real energyPerMac) {
  if (failed(verifyMesh(emitError, "compute array", instances, meshX, meshY)))
    return failure();
  return report(
      checkComputeArray(computeFromParams(instances, meshX, meshY, wordBits,
                                          macsPerCycle, energyPerMac)),
      [&](const ArchIssue &) { return emitError(); });
}

//===----------------------------------------------------------------------===//
// ArchAttr
//===----------------------------------------------------------------------===//

LogicalResult ConstraintAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef level,
    ArrayRef<OpKind> ops, ArrayRef<FactorRule> temporal, DimList order,
    DimList xDims, DimList yDims, ArrayRef<FactorRule> spatialX,
    ArrayRef<FactorRule> spatialY, bool exclusiveAxes,
    ArrayRef<TensorRole> keep, ArrayRef<TensorRole> bypass) {
  return report(
      checkConstraint(constraintFromParams(level, ops, temporal, order, xDims,
                                           yDims, spatialX, spatialY,
                                           exclusiveAxes, keep, bypass),
                      0),
      [&](const ArchIssue &) { return emitError(); });
}

/// What spans levels and constraints; the parts were verified when built.
static std::vector<ArchIssue> archIssues(const Arch &arch) {
  std::vector<ArchIssue> issues = checkArchStructure(arch);
  std::vector<ArchIssue> constraints = checkConstraintsInArch(arch);
  issues.insert(issues.end(), constraints.begin(), constraints.end());
  return issues;
}

LogicalResult ArchAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringRef name, Real clockMHz,
                               ComputeAttr compute,
                               ArrayRef<StorageLevelAttr> levels,
                               ArrayRef<ConstraintAttr> constraints,
                               FillRule fills) {
  return report(archIssues(archFromParts(name, clockMHz, compute, levels,
                                         constraints, fills)),
                [&](const ArchIssue &) { return emitError(); });
}

/// `keyword =`
static ParseResult parseField(AsmParser &parser, StringRef keyword) {
  return failure(parser.parseKeyword(keyword) || parser.parseEqual());
}

/// `[#attr, ...]` into `items`, with where each one starts into `locs`
/// (the arch's verifier points at the level or constraint at fault).
template <typename AttrT>
static ParseResult parseListWithLocs(AsmParser &parser,
                                     SmallVectorImpl<AttrT> &items,
                                     SmallVectorImpl<SMLoc> &locs) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        locs.push_back(parser.getCurrentLocation());
        AttrT item;
        if (parser.parseAttribute(item))
          return failure();
        items.push_back(item);
        return success();
      });
}

/// `exact` or `timeloop`, after `fills =`.
static FailureOr<accel::FillRule> parseFillRule(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<accel::FillRule> rule = symbolizeFillRule(word);
  if (!rule)
    return parser.emitError(loc)
           << "fills must be exact or timeloop, not '" << word << "'";
  return *rule;
}

// #accel.arch<"name", clock_mhz = F, compute = #accel.compute<...>,
//             levels = [#accel.storage<...>, ...]
//             (, constraints = [#accel.constraint<...>, ...])?
//             (, fills = exact|timeloop)?>
// (the two optional fields in either order, printed in this one)
// Written by hand so that a problem spanning levels is reported at the level
// it concerns.
Attribute ArchAttr::parse(AsmParser &parser, Type) {
  std::string name;
  FailureOr<Real> clockMHz;
  ComputeAttr compute;
  SmallVector<StorageLevelAttr> levels;
  SmallVector<SMLoc> levelLocs;
  SMLoc start = parser.getCurrentLocation();
  SMLoc clockLoc, computeLoc, levelsLoc;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma())
    return {};
  clockLoc = parser.getCurrentLocation();
  if (parseField(parser, "clock_mhz") || failed(clockMHz = parseF64(parser)) ||
      parser.parseComma())
    return {};
  computeLoc = parser.getCurrentLocation();
  if (parseField(parser, "compute") || parser.parseAttribute(compute) ||
      parser.parseComma())
    return {};
  levelsLoc = parser.getCurrentLocation();
  if (parseField(parser, "levels") ||
      parseListWithLocs(parser, levels, levelLocs))
    return {};
  // The optional fields, each at most once and in either order: a
  // description written by hand should not fail on which came first.
  SmallVector<ConstraintAttr> constraints;
  SmallVector<SMLoc> constraintLocs;
  bool hasConstraints = false, hasFills = false;
  FillRule fills = FillRule::exact;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc fieldLoc = parser.getCurrentLocation();
    StringRef field;
    if (failed(parser.parseOptionalKeyword(&field, {"constraints", "fills"}))) {
      parser.emitError(fieldLoc)
          << (hasConstraints ? "expected 'fills'"
              : hasFills     ? "expected 'constraints'"
                             : "expected 'constraints' or 'fills'");
      return {};
    }
    bool &seen = field == "fills" ? hasFills : hasConstraints;
    if (seen) {
      parser.emitError(fieldLoc) << "'" << field << "' is given twice";
      return {};
    }
    seen = true;
    if (parser.parseEqual())
      return {};
    if (field == "constraints") {
      if (parseListWithLocs(parser, constraints, constraintLocs))
        return {};
      continue;
    }
    FailureOr<accel::FillRule> rule = parseFillRule(parser);
    if (failed(rule))
      return {};
    fills = *rule;
  }
  if (parser.parseGreater())
    return {};

  std::vector<ArchIssue> issues = archIssues(
      archFromParts(name, *clockMHz, compute, levels, constraints, fills));
  auto emitAt = [&](const ArchIssue &issue) {
    switch (issue.where) {
    case ArchIssue::Where::Level:
      return parser.emitError(levelLocs[issue.level]);
    case ArchIssue::Where::Compute:
      return parser.emitError(computeLoc);
    case ArchIssue::Where::Constraint:
      return parser.emitError(constraintLocs[issue.level]);
    case ArchIssue::Where::Arch:
      break;
    }
    if (issue.field == "clock_mhz")
      return parser.emitError(clockLoc);
    if (issue.field == "levels")
      return parser.emitError(levelsLoc);
    return parser.emitError(start);
  };
  if (failed(report(issues, emitAt)))
    return {};
  return ArchAttr::get(parser.getContext(), name, *clockMHz, compute, levels,
                       constraints, fills);
}

void ArchAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getName() << "\", clock_mhz = ";
  printF64(printer, getClockMhz());
  printer << ", compute = ";
  printer.printAttribute(getCompute());
  printer << ", levels = [";
  llvm::interleaveComma(getLevels(), printer, [&](StorageLevelAttr level) {
    printer.printAttribute(level);
  });
  printer << "]";
  if (!getConstraints().empty()) {
    printer << ", constraints = [";
    llvm::interleaveComma(
        getConstraints(), printer,
        [&](ConstraintAttr constraint) { printer.printAttribute(constraint); });
    printer << "]";
  }
  if (getFills() != FillRule::exact)
    printer << ", fills = " << stringifyFillRule(getFills());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// LevelMappingAttr / MappingAttr
//===----------------------------------------------------------------------===//

static int64_t factorAt(ArrayRef<int64_t> factors, unsigned loop) {
  return factors.empty() ? 1 : factors[loop];
}

int64_t LevelMappingAttr::getTemporalFactor(unsigned loop) const {
  return factorAt(getTemporal(), loop);
}
int64_t LevelMappingAttr::getSpatialXFactor(unsigned loop) const {
  return factorAt(getSpatialX(), loop);
}
int64_t LevelMappingAttr::getSpatialYFactor(unsigned loop) const {
  return factorAt(getSpatialY(), loop);
}

LogicalResult
LevelMappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         StringRef name, ArrayRef<int64_t> temporal,
                         ArrayRef<int64_t> order, ArrayRef<int64_t> spatialX,
                         ArrayRef<int64_t> spatialY, ArrayRef<int64_t> keep) {
  auto prefix = [&]() -> InFlightDiagnostic {
    return emitError() << "mapping of level '" << name << "': ";
  };
  // Every given per-loop list must speak of the same number of loops.
  std::optional<size_t> numLoops;
  for (auto [field, list] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"temporal", temporal},
        {"order", order},
        {"spatial_x", spatialX},
        {"spatial_y", spatialY}}) {
    if (list.empty())
      continue;
    if (numLoops && *numLoops != list.size())
      return prefix() << "'" << field << "' has " << list.size()
                      << " entries where another list has " << *numLoops;
    numLoops = list.size();
    if (field == "order")
      continue;
    for (int64_t factor : list)
      if (factor < 1)
        return prefix() << "'" << field << "' factors must be at least 1, got "
                        << factor;
  }
  SmallVector<bool> placed(order.size(), false);
  for (int64_t loop : order) {
    if (loop < 0 || loop >= int64_t(order.size()) || placed[loop])
      return prefix() << "'order' must be a permutation of 0.."
                      << order.size() - 1;
    placed[loop] = true;
  }
  llvm::SmallSet<int64_t, 4> kept;
  for (int64_t operand : keep) {
    if (operand < 0)
      return prefix() << "'keep' lists operand " << operand
                      << ", which is not an operand number";
    if (!kept.insert(operand).second)
      return prefix() << "'keep' lists operand " << operand << " twice";
  }
  return success();
}

int64_t ArrayMappingAttr::getMappingId() const {
  return int64_t(getAxis()) * 1024 + getIndex();
}
bool ArrayMappingAttr::isLinearMapping() const { return false; }
int64_t ArrayMappingAttr::getRelativeIndex() const { return getIndex(); }

LogicalResult MappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<LevelMappingAttr> levels) {
  if (levels.empty())
    return emitError() << "a mapping needs at least one level";
  llvm::SmallSet<StringRef, 8> names;
  for (LevelMappingAttr level : levels)
    if (!names.insert(level.getName()).second)
      return emitError() << "the mapping places level '" << level.getName()
                         << "' twice";
  return success();
}

Attribute MappingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<SmallVector<LevelMappingAttr>> levels;
  if (parser.parseLess() ||
      failed(levels = parseBracketList<LevelMappingAttr>(parser)) ||
      parser.parseGreater())
    return {};
  return MappingAttr::getChecked([&] { return parser.emitError(loc); },
                                 parser.getContext(), *levels);
}

void MappingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBracketList(printer, getLevels());
  printer << '>';
}
