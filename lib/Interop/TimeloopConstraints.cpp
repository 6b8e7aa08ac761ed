//===- TimeloopConstraints.cpp - Timeloop mapspace constraints -> core ----===//
//
// Reads Timeloop v3's constraint targets (as its mapper reads them: under
// `mapspace`, `mapspace_constraints`, `arch_constraints`,
// `architecture_constraints` or `arch.constraints`) into the accelerator's
// constraints. Semantics follow Timeloop: factors `R1` / `R=1` exact, `R<=4`
// largest, `R0` the whole bound; permutations one letter per dim, innermost
// first, naming the innermost loops when partial; in a spatial target, the
// first `split` dims of the permutation go along X and the rest along Y; a
// level keeps and bypasses what `datatype` targets say. What marlmap cannot
// represent is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "TimeloopConstraints.h"

#include "marlmap/Core/DimNames.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cctype>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace marlmap::timeloop {

using yaml::Reader;
using yaml::Value;

namespace {

/// Dims are single letters Timeloop and marlmap share.
Expected<DimName> dimOf(const Reader &reader, const Value &at, StringRef name) {
  if (std::optional<DimName> dim = parseDimName(name))
    return *dim;
  return reader.error(at, "dim '" + name +
                              "': marlmap reads constraints in the "
                              "convolution's dim names N, K, C, P, Q, R, S "
                              "(and G)");
}

/// `R1 S1 P0 C<=4`, `R=1,S=1`: exact, largest and whole-bound factors.
/// A list (v0.4's `[R=1, S=1]`) as the string Timeloop is given for it.
std::string joined(const Value &at, StringRef separator) {
  if (at.isScalar())
    return at.scalar;
  std::string text;
  for (const Value &item : at.items)
    text += (text.empty() ? "" : separator.str()) + item.scalar;
  return text;
}

bool scalarOrScalars(const Value &at) {
  if (at.isScalar())
    return true;
  if (!at.isSequence())
    return false;
  for (const Value &item : at.items)
    if (!item.isScalar())
      return false;
  return true;
}

Expected<std::vector<FactorRule>> parseFactors(const Reader &reader,
                                               const Value &at) {
  if (!scalarOrScalars(at))
    return reader.error(at, "'factors' must be a string such as 'R1 S1 P0' "
                            "or a list such as [R=1, S=1]");
  std::vector<FactorRule> rules;
  std::string all = joined(at, " ");
  StringRef text = all;
  while (true) {
    text = text.ltrim(" \t,;");
    if (text.empty())
      break;
    size_t letters = 0;
    while (letters < text.size() && std::isalpha(text[letters]))
      ++letters;
    if (letters == 0)
      return reader.error(at, "cannot read factors at '" + text + "'");
    StringRef name = text.take_front(letters);
    text = text.drop_front(letters).ltrim(" ");
    FactorRule rule;
    Expected<DimName> dim = dimOf(reader, at, name);
    if (!dim)
      return dim.takeError();
    rule.dim = *dim;
    if (text.consume_front(">="))
      return reader.error(at, "'" + name +
                                  ">=': smallest factors are not supported "
                                  "by marlmap's map space");
    bool atMost = text.consume_front("<=");
    if (!atMost)
      while (text.consume_front("="))
        ;
    text = text.ltrim(" ");
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(text[digits]))
      ++digits;
    int64_t value = 0;
    if (digits == 0 || text.take_front(digits).getAsInteger(10, value))
      return reader.error(at, "factor of " + name + " is not a number");
    text = text.drop_front(digits);
    if (atMost && value < 1)
      return reader.error(at, "'" + name + "<=" + llvm::Twine(value) +
                                  "': a largest factor must be at least 1");
    rule.bound = atMost       ? FactorRule::Bound::AtMost
                 : value == 0 ? FactorRule::Bound::Full
                              : FactorRule::Bound::Exact;
    rule.value = value;
    rules.push_back(rule);
  }
  return rules;
}

/// `NPQR SC`: one letter per dim, innermost first; spaces mean nothing.
Expected<std::vector<DimName>> parsePermutation(const Reader &reader,
                                                const Value &at) {
  if (!scalarOrScalars(at))
    return reader.error(at, "'permutation' must be a string such as "
                            "'RSPQCKN' or a list of dims");
  std::vector<DimName> dims;
  for (char c : joined(at, "")) {
    if (std::isspace(c))
      continue;
    if (c == '_')
      return reader.error(at, "'_' in a permutation (a fixed outer block) is "
                              "not supported by marlmap");
    Expected<DimName> dim = dimOf(reader, at, StringRef(&c, 1));
    if (!dim)
      return dim.takeError();
    if (std::find(dims.begin(), dims.end(), *dim) != dims.end())
      return reader.error(at, "the permutation names " + StringRef(&c, 1) +
                                  " twice");
    dims.push_back(*dim);
  }
  return dims;
}

Expected<std::vector<TensorRole>>
parseDataspaces(const Reader &reader, const Value &at, StringRef key) {
  if (!at.isSequence())
    return reader.error(at, "'" + key + "' must be a list of data spaces");
  std::vector<TensorRole> roles;
  for (const Value &item : at.items) {
    Expected<std::string> name = reader.string(item, key);
    if (!name)
      return name.takeError();
    if (*name == "Weights")
      roles.push_back(TensorRole::Weights);
    else if (*name == "Inputs")
      roles.push_back(TensorRole::Inputs);
    else if (*name == "Outputs")
      roles.push_back(TensorRole::Outputs);
    else
      return reader.error(item, "data space '" + *name +
                                    "': marlmap's constraints name Weights, "
                                    "Inputs and Outputs");
  }
  return roles;
}

/// A temporal or spatial target's factors and permutation, parsed.
struct LoopKeys {
  const Value *factors = nullptr;
  std::vector<FactorRule> rules;
  const Value *permutationValue = nullptr;
  /// As written: innermost first.
  std::optional<std::vector<DimName>> permutation;
};

Expected<LoopKeys> readLoopKeys(const Reader &reader, const Value &keys) {
  LoopKeys out;
  out.factors = keys.find("factors");
  out.permutationValue = keys.find("permutation");
  if (out.factors) {
    Expected<std::vector<FactorRule>> rules =
        parseFactors(reader, *out.factors);
    if (!rules)
      return rules.takeError();
    out.rules = std::move(*rules);
  }
  if (out.permutationValue) {
    Expected<std::vector<DimName>> dims =
        parsePermutation(reader, *out.permutationValue);
    if (!dims)
      return dims.takeError();
    out.permutation = std::move(*dims);
  }
  return out;
}

/// Where a target's keys are: its `attributes` map when it has one.
const Value &body(const Value &target) {
  const Value *attributes = target.find("attributes");
  return attributes && attributes->isMapping() ? *attributes : target;
}

Error respecified(const Reader &reader, const Value &at, StringRef level,
                  const llvm::Twine &what) {
  return reader.error(at, "constraints on '" + level + "' give " + what +
                              " twice (Timeloop refuses this too)");
}

Error addFactors(const Reader &reader, const Value &at, StringRef level,
                 std::vector<FactorRule> &into,
                 const std::vector<FactorRule> &rules) {
  for (const FactorRule &rule : rules) {
    for (const FactorRule &have : into)
      if (have.dim == rule.dim)
        return respecified(reader, at, level,
                           llvm::Twine("a factor of ") +
                               dimNameSpelling(rule.dim));
    into.push_back(rule);
  }
  return Error::success();
}

class TargetReader {
public:
  TargetReader(const Reader &reader, const Arch &arch,
               std::vector<Constraint> &constraints)
      : reader(reader), arch(arch), constraints(constraints) {}

  Error read(const Value &target, StringRef inheritedName);
  /// Places the spatial factors read, once every target has said along
  /// which axis each dim goes (Timeloop merges the targets of a level).
  Error finish();

private:
  /// The constraints at `level`: a Timeloop target holds for every op kind,
  /// so for each of them (one with no kinds when there is none yet).
  std::vector<size_t> constraintsAt(unsigned level);
  Error readTemporal(const Value &target, unsigned level);
  Error readSpatial(const Value &target, unsigned level);
  Error readDatatype(const Value &target, unsigned level);
  Error placeSpatialFactors(const Value &at, unsigned level, Constraint &c,
                            const std::vector<FactorRule> &rules);

  const Reader &reader;
  const Arch &arch;
  std::vector<Constraint> &constraints;
  struct PendingFactors {
    unsigned level;
    std::vector<FactorRule> rules;
    const Value *at;
  };
  std::vector<PendingFactors> pending;
};

std::vector<size_t> TargetReader::constraintsAt(unsigned level) {
  std::vector<size_t> found;
  for (size_t i = 0; i < constraints.size(); ++i)
    if (constraints[i].level == arch.levels[level].name)
      found.push_back(i);
  if (found.empty()) {
    constraints.emplace_back();
    constraints.back().level = arch.levels[level].name;
    found.push_back(constraints.size() - 1);
  }
  return found;
}

Error checkKeys(const Reader &reader, const Value &target, StringRef type,
                std::initializer_list<StringRef> allowed) {
  for (const Value *map : {&target, &body(target)})
    for (const auto &[key, value] : map->entries) {
      if (key == "target" || key == "name" || key == "type" ||
          key == "attributes")
        continue;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        return reader.error(value, "'" + key + "' in a " + type +
                                       " constraint is not supported by "
                                       "marlmap");
    }
  return Error::success();
}

Error TargetReader::readTemporal(const Value &target, unsigned level) {
  if (Error error =
          checkKeys(reader, target, "temporal", {"factors", "permutation"}))
    return error;
  const Value &keys = body(target);
  const Value *factors = keys.find("factors");
  const Value *permutation = keys.find("permutation");
  std::vector<FactorRule> rules;
  if (factors) {
    Expected<std::vector<FactorRule>> parsed = parseFactors(reader, *factors);
    if (!parsed)
      return parsed.takeError();
    rules = *parsed;
  }
  std::optional<std::vector<DimName>> order;
  if (permutation) {
    Expected<std::vector<DimName>> dims =
        parsePermutation(reader, *permutation);
    if (!dims)
      return dims.takeError();
    // Timeloop lists loops innermost first; marlmap outermost first.
    order = std::vector<DimName>(dims->rbegin(), dims->rend());
  }
  for (size_t i : constraintsAt(level)) {
    Constraint &c = constraints[i];
    if (factors)
      if (Error error =
              addFactors(reader, *factors, c.level, c.temporal, rules))
        return error;
    if (order && c.order)
      return respecified(reader, *permutation, c.level, "a permutation");
    if (order)
      c.order = order;
  }
  return Error::success();
}

Error TargetReader::readSpatial(const Value &target, unsigned level) {
  if (Error error = checkKeys(reader, target, "spatial",
                              {"factors", "permutation", "split"}))
    return error;
  int64_t fanoutX = arch.fanoutX(level), fanoutY = arch.fanoutY(level);
  if (fanoutX * fanoutY == 1)
    return reader.error(target, "a spatial constraint on '" +
                                    arch.levels[level].name +
                                    "', which has no fanout below it");
  Expected<LoopKeys> keys = readLoopKeys(reader, body(target));
  if (!keys)
    return keys.takeError();
  const std::optional<std::vector<DimName>> &permutation = keys->permutation;
  const Value *splitValue = body(target).find("split");
  if (!splitValue)
    splitValue = target.find("split");
  std::optional<int64_t> split;
  if (splitValue) {
    Expected<int64_t> parsed = reader.integer(*splitValue, "split");
    if (!parsed)
      return parsed.takeError();
    if (*parsed < 0)
      return reader.error(*splitValue, "'split' must not be negative");
    split = *parsed;
  }
  bool twoD = fanoutX > 1 && fanoutY > 1;
  if ((permutation || split) && !(permutation && split) && twoD)
    return reader.error(target,
                        std::string("a spatial ") +
                            (permutation ? "permutation without 'split'"
                                         : "'split' without a permutation") +
                            " on a level that fans out along X and Y: Timeloop "
                            "then searches the split, which marlmap cannot "
                            "represent; give both");
  for (size_t i : constraintsAt(level)) {
    Constraint &c = constraints[i];
    if (!(permutation && split))
      break;
    if (c.spatialXDims || c.spatialYDims)
      return respecified(reader, target, c.level, "a spatial permutation");
    // Positions below the split go along X. Dims the permutation leaves
    // out stand after it: along X when the split passes every listed dim
    // (as it passes the problem's dims: `split: 999`), else along Y.
    size_t cut = std::min<size_t>(*split, permutation->size());
    std::vector<DimName> unlisted;
    for (unsigned d = 0; d < kNumDimNames; ++d)
      if (std::find(permutation->begin(), permutation->end(), DimName(d)) ==
          permutation->end())
        unlisted.push_back(DimName(d));
    c.spatialXDims =
        std::vector<DimName>(permutation->begin(), permutation->begin() + cut);
    c.spatialYDims =
        std::vector<DimName>(permutation->begin() + cut, permutation->end());
    std::vector<DimName> &rest =
        cut == permutation->size() ? *c.spatialXDims : *c.spatialYDims;
    rest.insert(rest.end(), unlisted.begin(), unlisted.end());
  }
  if (!keys->rules.empty())
    pending.push_back({level, keys->rules, keys->factors});
  return Error::success();
}

Error TargetReader::placeSpatialFactors(const Value &at, unsigned level,
                                        Constraint &c,
                                        const std::vector<FactorRule> &rules) {
  int64_t fanoutX = arch.fanoutX(level), fanoutY = arch.fanoutY(level);
  bool twoD = fanoutX > 1 && fanoutY > 1;
  // A factor goes with the axis the split gives its dim; otherwise along
  // the only axis that fans out.
  for (const FactorRule &rule : rules) {
    bool onY = c.spatialYDims &&
               std::find(c.spatialYDims->begin(), c.spatialYDims->end(),
                         rule.dim) != c.spatialYDims->end();
    bool alongY = onY || (!c.spatialXDims && fanoutX == 1);
    std::vector<FactorRule> one{rule};
    if (twoD && !c.spatialXDims) {
      if (rule.bound != FactorRule::Bound::Exact || rule.value != 1)
        return reader.error(at, "'" + rule.str() +
                                    "' on a level that fans out along X and "
                                    "Y without a split: which axis it "
                                    "concerns is the mapper's choice");
      // Factor 1: on both axes.
      if (Error error = addFactors(reader, at, c.level, c.spatialX, one))
        return error;
      if (Error error = addFactors(reader, at, c.level, c.spatialY, one))
        return error;
      continue;
    }
    if (Error error = addFactors(reader, at, c.level,
                                 alongY ? c.spatialY : c.spatialX, one))
      return error;
  }
  return Error::success();
}

Error TargetReader::finish() {
  for (const PendingFactors &factors : pending)
    for (size_t i : constraintsAt(factors.level))
      if (Error error = placeSpatialFactors(*factors.at, factors.level,
                                            constraints[i], factors.rules))
        return error;
  pending.clear();
  return Error::success();
}

Error TargetReader::readDatatype(const Value &target, unsigned level) {
  if (Error error = checkKeys(reader, target, "datatype", {"keep", "bypass"}))
    return error;
  const Value &keys = body(target);
  for (size_t i : constraintsAt(level)) {
    Constraint &c = constraints[i];
    for (auto [key, into] :
         {std::pair<StringRef, std::vector<TensorRole> *>{"keep", &c.keep},
          {"bypass", &c.bypass}}) {
      const Value *list = keys.find(key);
      if (!list)
        continue;
      Expected<std::vector<TensorRole>> roles =
          parseDataspaces(reader, *list, key);
      if (!roles)
        return roles.takeError();
      for (TensorRole role : *roles) {
        bool seen =
            std::find(c.keep.begin(), c.keep.end(), role) != c.keep.end() ||
            std::find(c.bypass.begin(), c.bypass.end(), role) != c.bypass.end();
        if (seen)
          return respecified(reader, *list, c.level,
                             llvm::Twine("keep or bypass of ") +
                                 tensorRoleName(role));
        into->push_back(role);
      }
    }
    // Timeloop's outermost level keeps everything whatever a target says.
    if (level + 1 == arch.levels.size())
      c.bypass.clear();
  }
  return Error::success();
}

Error TargetReader::read(const Value &target, StringRef inheritedName) {
  if (!target.isMapping())
    return reader.error(target, "a constraint target must be a mapping");
  std::string name = inheritedName.str();
  for (StringRef key : {"target", "name"})
    if (const Value *value = target.find(key)) {
      Expected<std::string> text = reader.string(*value, key);
      if (!text)
        return text.takeError();
      name = *text;
    }
  // `{target: X, constraints: [...]}` nests targets for one level.
  if (const Value *nested = target.find("constraints")) {
    if (!nested->isSequence())
      return reader.error(*nested, "nested 'constraints' must be a list");
    for (const Value &item : nested->items)
      if (Error error = read(item, name))
        return error;
    return Error::success();
  }
  // Timeloop names instances as `Name[0..167]`; a v0.4 container's spatial
  // constraints live at the level its fanout made.
  StringRef bare = StringRef(name).split('[').first;
  std::optional<unsigned> level = arch.levelIndex(bare.str());
  if (!level)
    level = arch.levelIndex(spatialLevelName(bare));
  if (!level)
    return reader.error(target, "constraint target '" + name +
                                    "' is not a storage level of the "
                                    "architecture");
  const Value *typeValue = target.find("type");
  if (!typeValue)
    return reader.error(target, "constraint on '" + name + "' has no 'type'");
  Expected<std::string> type = reader.string(*typeValue, "type");
  if (!type)
    return type.takeError();
  if (*type == "temporal")
    return readTemporal(target, *level);
  if (*type == "spatial")
    return readSpatial(target, *level);
  if (*type == "datatype" || *type == "bypass" || *type == "bypassing" ||
      *type == "dataspace")
    return readDatatype(target, *level);
  return reader.error(*typeValue, "constraint type '" + *type +
                                      "' is not supported by marlmap (it "
                                      "reads temporal, spatial and datatype)");
}

/// The target list under one of the roots Timeloop reads.
Expected<const Value *> targetList(const Reader &reader, const Value &node) {
  if (node.isSequence())
    return &node;
  if (!node.isMapping())
    return reader.error(node, "constraints must be a list or a mapping");
  for (const auto &[key, value] : node.entries)
    if (key != "constraints" && key != "targets" && key != "template" &&
        key != "version" && !StringRef(key).starts_with("constraints_"))
      return reader.error(value, "'" + key +
                                     "' in a constraints section is "
                                     "not supported by marlmap");
  if (const Value *templ = node.find("template"))
    if (!templ->isScalar() || templ->scalar != "uber")
      return reader.error(*templ, "only Timeloop's 'uber' map space template "
                                  "is supported");
  const Value *list = node.find("constraints");
  if (!list)
    list = node.find("targets");
  if (!list)
    return nullptr;
  // `constraints: NAME` picks the sibling `constraints_NAME`.
  if (list->isScalar()) {
    std::string sibling = "constraints_" + list->scalar;
    const Value *named = node.find(sibling);
    if (!named)
      return reader.error(*list, "no '" + sibling + "' to go with it");
    list = named;
  }
  if (!list->isSequence())
    return reader.error(*list, "constraints must be a list of targets");
  return list;
}

} // namespace

std::string spatialLevelName(StringRef node) {
  return ("inter_" + node + "_spatial").str();
}

Error readTargets(const Reader &reader, const std::vector<Value> &list,
                  Arch &arch) {
  std::vector<Constraint> constraints = arch.constraints;
  TargetReader targets(reader, arch, constraints);
  for (const Value &target : list)
    if (Error error = targets.read(target, ""))
      return error;
  if (Error error = targets.finish())
    return error;
  arch.constraints = std::move(constraints);
  return Error::success();
}

Error readConstraintSections(const Reader &reader, const Value &root,
                             Arch &arch) {
  std::vector<Constraint> constraints = arch.constraints;
  TargetReader targets(reader, arch, constraints);
  std::vector<const Value *> sections;
  for (StringRef key : {"mapspace", "mapspace_constraints", "arch_constraints",
                        "architecture_constraints", "constraints"})
    if (const Value *section = root.find(key))
      sections.push_back(section);
  for (StringRef key : {"arch", "architecture"})
    if (const Value *archNode = root.find(key))
      if (archNode->isMapping())
        if (const Value *section = archNode->find("constraints"))
          sections.push_back(section);
  for (const Value *section : sections) {
    Expected<const Value *> list = targetList(reader, *section);
    if (!list)
      return list.takeError();
    if (!*list)
      continue;
    for (const Value &target : (*list)->items)
      if (Error error = targets.read(target, ""))
        return error;
  }
  if (Error error = targets.finish())
    return error;
  arch.constraints = std::move(constraints);
  return Error::success();
}

llvm::Error checkDimNames(const Problem &problem) {
  std::vector<std::optional<DimName>> names = nameDims(problem);
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    std::optional<DimName> spelled = parseDimName(problem.dims[d].name);
    if (spelled && names[d] != spelled)
      return makeError(
          "dim " + problem.dims[d].name + " answers to " +
          (names[d] ? std::string(dimNameSpelling(*names[d]))
                    : std::string("no name")) +
          " by the operands that read it, so constraints naming " +
          problem.dims[d].name +
          " would land on another loop; name the problem's dims as "
          "Timeloop's CNN layer does (docs/Constraints.md)");
  }
  return llvm::Error::success();
}

void oneAxisPerDim(Arch &arch) {
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    if (arch.fanoutX(l) == 1 || arch.fanoutY(l) == 1)
      continue;
    bool found = false;
    for (Constraint &c : arch.constraints)
      if (c.level == arch.levels[l].name) {
        c.exclusiveAxes = true;
        found = true;
      }
    if (!found) {
      arch.constraints.emplace_back();
      arch.constraints.back().level = arch.levels[l].name;
      arch.constraints.back().exclusiveAxes = true;
    }
  }
  // Innermost level first, as the levels are.
  std::stable_sort(arch.constraints.begin(), arch.constraints.end(),
                   [&](const Constraint &a, const Constraint &b) {
                     return arch.levelIndex(a.level).value_or(0) <
                            arch.levelIndex(b.level).value_or(0);
                   });
}

} // namespace marlmap::timeloop
