//===- TimeloopRead.cpp - Timeloop input files -> core types --------------===//

#include "TimeloopConstraints.h"
#include "TimeloopV4.h"
#include "YamlTree.h"
#include "marlmap/Interop/TimeloopEnergy.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "marlmap/Core/Arithmetic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <map>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace marlmap::timeloop {

using yaml::Reader;
using yaml::Value;

namespace {

/// The first of `keys` present in `in` (Timeloop accepts several spellings).
const Value *findAny(const Value &in, std::initializer_list<StringRef> keys) {
  for (StringRef key : keys)
    if (const Value *value = in.find(key))
      return value;
  return nullptr;
}

Expected<int64_t> optionalInteger(const Reader &reader, const Value &in,
                                  std::initializer_list<StringRef> keys,
                                  int64_t fallback, const llvm::Twine &path) {
  const Value *value = findAny(in, keys);
  if (!value)
    return fallback;
  return reader.integer(*value, path + "." + *keys.begin());
}

Expected<std::optional<double>> optionalReal(const Reader &reader,
                                             const Value &in, StringRef key,
                                             const llvm::Twine &path) {
  const Value *value = in.find(key);
  if (!value)
    return std::optional<double>();
  Expected<double> real = reader.real(*value, path + "." + key);
  if (!real)
    return real.takeError();
  return std::optional<double>(*real);
}

bool mentionsDram(const Value &level) {
  for (StringRef key : {"technology", "class"})
    if (const Value *value = level.find(key))
      if (value->isScalar() && StringRef(value->scalar).contains("DRAM"))
        return true;
  return false;
}

/// Word bits, block size and instances: counts the figures divide or
/// multiply by, so each must be positive.
Error readCounts(const Reader &reader, const Value &spec, const std::string &at,
                 StorageLevel &level) {
  Expected<int64_t> wordBits = optionalInteger(
      reader, spec, {"word-bits", "word_width", "datawidth"}, 16, at);
  Expected<int64_t> blockSize = optionalInteger(
      reader, spec, {"block-size", "block_size", "n_words"}, 1, at);
  Expected<int64_t> instances =
      optionalInteger(reader, spec, {"instances"}, 1, at);
  if (!wordBits || !blockSize || !instances)
    return llvm::joinErrors(
        llvm::joinErrors(wordBits.takeError(), blockSize.takeError()),
        instances.takeError());
  for (auto [key, value] : {std::pair{"word-bits", *wordBits},
                            {"block-size", *blockSize},
                            {"instances", *instances}})
    if (value < 1)
      return reader.error(spec, at + ": '" + key + "' must be positive, not " +
                                    llvm::Twine(value));
  level.wordBits = *wordBits;
  level.blockSize = *blockSize;
  level.instances = *instances;
  return Error::success();
}

/// Capacity in words: entries, depth in blocks, or a size in KB; none for
/// DRAM.
Error readCapacity(const Reader &reader, const Value &spec,
                   const std::string &at, bool dram, StorageLevel &level) {
  if (const Value *entries = spec.find("entries")) {
    Expected<int64_t> value = reader.integer(*entries, at + ".entries");
    if (!value)
      return value.takeError();
    level.entries = *value;
  } else if (const Value *depth = findAny(spec, {"depth", "memory_depth"})) {
    Expected<int64_t> value = reader.integer(*depth, at + ".depth");
    if (!value)
      return value.takeError();
    if (*value < 0 || *value > kSaturated / level.blockSize)
      return reader.error(*depth, at + ".depth: " + llvm::Twine(*value) +
                                      " blocks cannot be represented");
    level.entries = *value * level.blockSize;
  } else if (const Value *size = spec.find("sizeKB")) {
    Expected<int64_t> value = reader.integer(*size, at + ".sizeKB");
    if (!value)
      return value.takeError();
    if (*value < 0 || *value > kSaturated / (1024 * 8))
      return reader.error(*size, at + ".sizeKB: " + llvm::Twine(*value) +
                                     " cannot be represented");
    level.entries = *value * 1024 * 8 / level.wordBits;
  } else if (!dram) {
    return reader.error(spec, at + " gives no 'entries', 'depth' or 'sizeKB'");
  }
  return Error::success();
}

/// meshX and meshY, which must lay out the instances.
Error readMesh(const Reader &reader, const Value &spec, const std::string &at,
               StorageLevel &level) {
  std::optional<int64_t> meshX, meshY;
  for (auto [key, side] : {std::pair{"meshX", &meshX}, {"meshY", &meshY}})
    if (const Value *value = spec.find(key)) {
      Expected<int64_t> number = reader.integer(*value, at + "." + key);
      if (!number)
        return number.takeError();
      *side = *number;
    }
  if (!deriveMesh(level.instances, meshX, meshY, level.meshX, level.meshY))
    return reader.error(spec, at + ": the mesh does not lay out its " +
                                  llvm::Twine(level.instances) + " instances");
  return Error::success();
}

/// Bandwidths, multiple buffering and the energy per word.
Error readRates(const Reader &reader, const Value &spec, const std::string &at,
                bool dram, StorageLevel &level) {
  for (auto [key, field] : {std::pair{"read_bandwidth", &level.readBandwidth},
                            {"write_bandwidth", &level.writeBandwidth}}) {
    Expected<std::optional<double>> bandwidth =
        optionalReal(reader, spec, key, at);
    if (!bandwidth)
      return bandwidth.takeError();
    *field = *bandwidth;
  }
  Expected<std::optional<double>> buffering =
      optionalReal(reader, spec, "multiple-buffering", at);
  Expected<std::optional<double>> energy =
      optionalReal(reader, spec, "vector-access-energy", at);
  if (!buffering || !energy)
    return llvm::joinErrors(buffering.takeError(), energy.takeError());
  level.multipleBuffering = buffering->value_or(1.0);

  // Timeloop charges whole vectors of block-size words; marlmap's energies
  // are per word, so the vector energy is spread over its words.
  double vector = energy->has_value()
                      ? **energy
                      : vectorAccessEnergy(dram, level.entries.value_or(0),
                                           level.wordBits, level.blockSize);
  level.readEnergy = level.writeEnergy = level.updateEnergy =
      vector / double(level.blockSize);
  return Error::success();
}

Expected<StorageLevel> readStorageLevel(const Reader &reader, const Value &spec,
                                        const llvm::Twine &path) {
  StorageLevel level;
  Expected<const Value *> name = reader.require(spec, "name", path);
  if (!name)
    return name.takeError();
  Expected<std::string> nameText = reader.string(**name, path + ".name");
  if (!nameText)
    return nameText.takeError();
  level.name = *nameText;
  const std::string at = (path + " '" + level.name + "'").str();
  const bool dram = mentionsDram(spec);
  level.technology = dram ? Technology::DRAM : Technology::SRAM;
  if (Error error = readCounts(reader, spec, at, level))
    return std::move(error);
  if (Error error = readCapacity(reader, spec, at, dram, level))
    return std::move(error);
  if (Error error = readMesh(reader, spec, at, level))
    return std::move(error);
  if (Error error = readRates(reader, spec, at, dram, level))
    return std::move(error);
  // Timeloop's constraints, not its architecture, decide what a level keeps;
  // a level without room keeps nothing.
  level.holds = level.entries.value_or(1) == 0 ? RoleSet() : RoleSet::all();
  return level;
}

Expected<ComputeArray> readArithmetic(const Reader &reader, const Value &spec) {
  ComputeArray compute;
  Expected<int64_t> instances =
      optionalInteger(reader, spec, {"instances"}, 1, "arch.arithmetic");
  Expected<int64_t> wordBits = optionalInteger(
      reader, spec, {"word-bits", "datawidth"}, 16, "arch.arithmetic");
  if (!instances || !wordBits)
    return llvm::joinErrors(instances.takeError(), wordBits.takeError());
  compute.instances = *instances;
  compute.wordBits = *wordBits;
  std::optional<int64_t> meshX, meshY;
  for (auto [key, side] : {std::pair{"meshX", &meshX}, {"meshY", &meshY}})
    if (const Value *value = spec.find(key)) {
      Expected<int64_t> number =
          reader.integer(*value, std::string("arch.arithmetic.") + key);
      if (!number)
        return number.takeError();
      *side = *number;
    }
  if (!deriveMesh(compute.instances, meshX, meshY, compute.meshX,
                  compute.meshY))
    return reader.error(spec,
                        "arch.arithmetic: the mesh does not lay out its " +
                            llvm::Twine(compute.instances) + " MACs");
  Expected<std::optional<double>> energy =
      optionalReal(reader, spec, "energy", "arch.arithmetic");
  if (!energy)
    return energy.takeError();
  compute.energyPerMac = energy->value_or(macEnergy(compute.wordBits));
  return compute;
}

/// "Inputs"/"Weights"/"Outputs" by name; otherwise the read-write space is
/// the output, the first read one the input, the others weights.
TensorRole roleOf(StringRef name, bool readWrite, bool firstRead) {
  if (name == "Weights")
    return TensorRole::Weights;
  if (name == "Inputs")
    return TensorRole::Inputs;
  if (name == "Outputs" || readWrite)
    return TensorRole::Outputs;
  return firstRead ? TensorRole::Inputs : TensorRole::Weights;
}

} // namespace

Expected<Arch> readArch(StringRef text, StringRef fileName) {
  Expected<Value> root = yaml::parse(text, fileName);
  if (!root)
    return root.takeError();
  Reader reader(fileName.str());
  if (isV4Spec(*root)) {
    Expected<Arch> v4 = readArchV4(reader, *root, fileName);
    if (!v4)
      return v4.takeError();
    if (Error error = readConstraintSections(reader, *root, *v4))
      return std::move(error);
    oneAxisPerDim(*v4);
    return v4;
  }
  Expected<const Value *> arch = reader.require(*root, "arch", "top level");
  if (!arch)
    return arch.takeError();
  Expected<const Value *> arithmetic =
      reader.require(**arch, "arithmetic", "arch");
  Expected<const Value *> storage = reader.require(**arch, "storage", "arch");
  if (!arithmetic || !storage)
    return llvm::joinErrors(arithmetic.takeError(), storage.takeError());
  if (!(*storage)->isSequence() || (*storage)->items.empty())
    return reader.error(**storage, "'arch.storage' must list storage levels");

  Arch result;
  result.name = fileName.str();
  result.fillRule = FillRule::Timeloop;
  Expected<ComputeArray> compute = readArithmetic(reader, **arithmetic);
  if (!compute)
    return compute.takeError();
  result.compute = *compute;
  for (auto [index, spec] : llvm::enumerate((*storage)->items)) {
    Expected<StorageLevel> level = readStorageLevel(
        reader, spec, "arch.storage[" + std::to_string(index) + "]");
    if (!level)
      return level.takeError();
    result.levels.push_back(std::move(*level));
  }
  // The outermost level backs every tensor.
  result.levels.back().holds = RoleSet::all();
  if (Error error = readConstraintSections(reader, *root, result))
    return std::move(error);
  oneAxisPerDim(result);
  return result;
}

Error readConstraints(StringRef text, StringRef fileName, Arch &arch) {
  Expected<Value> root = yaml::parse(text, fileName);
  if (!root)
    return root.takeError();
  Reader reader(fileName.str());
  if (!root->isMapping())
    return reader.error(*root, "a constraints file is a mapping");
  if (Error error = readConstraintSections(reader, *root, arch))
    return error;
  oneAxisPerDim(arch);
  return Error::success();
}

namespace {

/// A problem's coefficients: the shape's defaults, overridden by the
/// instance.
Expected<std::map<std::string, int64_t>>
readCoefficients(const Reader &reader, const Value &shape,
                 const Value &instance) {
  std::map<std::string, int64_t> coefficients;
  if (const Value *list = shape.find("coefficients"))
    for (const Value &coefficient : list->items) {
      Expected<const Value *> name =
          reader.require(coefficient, "name", "problem.shape.coefficients");
      if (!name)
        return name.takeError();
      Expected<int64_t> value = optionalInteger(
          reader, coefficient, {"default"}, 1, "problem.shape.coefficients");
      Expected<int64_t> given =
          optionalInteger(reader, instance, {(*name)->scalar},
                          value ? *value : 1, "problem.instance");
      if (!value || !given)
        return llvm::joinErrors(value.takeError(), given.takeError());
      coefficients[(*name)->scalar] = *given;
    }
  return coefficients;
}

/// A data space's projection: a list of axes, an axis a list of terms, a
/// term [dim] or [dim, coefficient]; `at` names the data space in errors.
Expected<std::vector<Coordinate>>
readProjection(const Reader &reader, const Value &projection,
               const std::map<std::string, unsigned> &dimIndex,
               const std::map<std::string, int64_t> &coefficients,
               const std::string &at) {
  std::vector<Coordinate> axes;
  for (const Value &axis : projection.items) {
    Coordinate coordinate;
    for (const Value &term : axis.items) {
      ProjectionTerm projected;
      bool haveDim = false;
      for (const Value &part : term.items) {
        auto dim = dimIndex.find(part.scalar);
        auto coefficient = coefficients.find(part.scalar);
        if (dim != dimIndex.end()) {
          projected.dim = dim->second;
          haveDim = true;
        } else if (coefficient != coefficients.end()) {
          projected.coefficient *= coefficient->second;
        } else {
          return reader.error(part, at + ": '" + part.scalar +
                                        "' is neither a dimension nor a "
                                        "coefficient");
        }
      }
      if (!haveDim)
        return reader.error(term, at + ": a projection term names no "
                                       "dimension");
      coordinate.terms.push_back(projected);
    }
    axes.push_back(std::move(coordinate));
  }
  return axes;
}

} // namespace

Expected<Problem> readProblem(StringRef text, StringRef fileName) {
  Expected<Value> root = yaml::parse(text, fileName);
  if (!root)
    return root.takeError();
  Reader reader(fileName.str());
  Expected<const Value *> problemNode =
      reader.require(*root, "problem", "top level");
  if (!problemNode)
    return problemNode.takeError();
  Expected<const Value *> shape =
      reader.require(**problemNode, "shape", "problem");
  Expected<const Value *> instance =
      reader.require(**problemNode, "instance", "problem");
  if (!shape || !instance)
    return llvm::joinErrors(shape.takeError(), instance.takeError());
  Expected<const Value *> dimensions =
      reader.require(**shape, "dimensions", "problem.shape");
  Expected<const Value *> dataSpaces =
      reader.require(**shape, "data-spaces", "problem.shape");
  if (!dimensions || !dataSpaces)
    return llvm::joinErrors(dimensions.takeError(), dataSpaces.takeError());

  Problem problem;
  if (const Value *name = (*shape)->find("name"))
    problem.name = name->scalar;
  std::map<std::string, unsigned> dimIndex;
  for (const Value &dim : (*dimensions)->items) {
    Expected<std::string> name = reader.string(dim, "problem.shape.dimensions");
    if (!name)
      return name.takeError();
    Expected<int64_t> bound =
        optionalInteger(reader, **instance, {*name}, 1, "problem.instance");
    if (!bound)
      return bound.takeError();
    dimIndex[*name] = problem.dims.size();
    problem.dims.push_back({*name, *bound, LoopKind::Parallel});
  }

  Expected<std::map<std::string, int64_t>> coefficients =
      readCoefficients(reader, **shape, **instance);
  if (!coefficients)
    return coefficients.takeError();

  bool sawRead = false;
  for (const Value &space : (*dataSpaces)->items) {
    Expected<const Value *> name =
        reader.require(space, "name", "problem.shape.data-spaces");
    Expected<const Value *> projection =
        reader.require(space, "projection", "problem.shape.data-spaces");
    if (!name || !projection)
      return llvm::joinErrors(name.takeError(), projection.takeError());
    const Value *readWrite = space.find("read-write");
    bool written = readWrite && readWrite->scalar == "true";
    Operand operand;
    operand.name = (*name)->scalar;
    operand.role = roleOf(operand.name, written, !written && !sawRead);
    operand.access = written ? Access::ReadModifyWrite : Access::Read;
    sawRead |= !written;
    Expected<std::vector<Coordinate>> axes =
        readProjection(reader, **projection, dimIndex, *coefficients,
                       "data space '" + operand.name + "'");
    if (!axes)
      return axes.takeError();
    operand.projection = std::move(*axes);
    problem.operands.push_back(std::move(operand));
  }
  // A dim that the output does not depend on is a reduction.
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      if (problem.operands[o].isWritten() && !problem.dependsOn(o, d))
        problem.dims[d].kind = LoopKind::Reduction;
  std::vector<std::string> issues = problem.check();
  if (!issues.empty())
    return reader.error(**problemNode, issues.front());
  return problem;
}

namespace {

/// One directive's factors, and each one's residual: its iterations under
/// the last tiles of the loops outside it (the factor unless written).
struct DirectiveFactors {
  std::vector<int64_t> factors, residuals;
};

/// "R1 S3 P4,3" -> {R: 1, S: 3, P: 4 with residual 3}.
Expected<DirectiveFactors> readFactors(const Reader &reader, const Value &value,
                                       const Problem &problem, StringRef at) {
  DirectiveFactors out;
  out.factors.assign(problem.dims.size(), 1);
  out.residuals.assign(problem.dims.size(), 1);
  llvm::SmallVector<StringRef> tokens;
  StringRef(value.scalar).split(tokens, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef token : tokens) {
    size_t digits = token.find_first_of("0123456789");
    StringRef name = token.take_front(digits);
    auto [number, residualText] = token.drop_front(digits).split(',');
    int64_t factor = 0, residual = 0;
    auto dim = llvm::find_if(problem.dims,
                             [&](const LoopDim &d) { return d.name == name; });
    if (digits == StringRef::npos || dim == problem.dims.end() ||
        number.getAsInteger(10, factor) ||
        (!residualText.empty() && residualText.getAsInteger(10, residual)))
      return reader.error(value, at + ": cannot read factor '" + token + "'");
    if (residualText.empty())
      residual = factor;
    if (residual < 1 || residual > factor)
      return reader.error(value, at + ": the residual of '" + token +
                                     "' must be between 1 and its factor");
    const unsigned d = dim - problem.dims.begin();
    out.factors[d] = factor;
    out.residuals[d] = residual;
  }
  return out;
}

/// "KRSPQCN", innermost first -> dim indices, innermost first. Dims left out
/// go innermost, where a factor-1 loop changes nothing.
Expected<std::vector<unsigned>> readPermutation(const Reader &reader,
                                                const Value &value,
                                                const Problem &problem,
                                                StringRef at) {
  std::vector<unsigned> innerToOuter;
  std::vector<bool> seen(problem.dims.size(), false);
  for (char letter : value.scalar) {
    if (letter == ' ')
      continue;
    auto dim = llvm::find_if(problem.dims, [&](const LoopDim &d) {
      return d.name.size() == 1 && d.name[0] == letter;
    });
    if (dim == problem.dims.end())
      return reader.error(value, at + ": '" + llvm::Twine(letter) +
                                     "' in the permutation is no dimension");
    unsigned index = dim - problem.dims.begin();
    if (!seen[index])
      innerToOuter.push_back(index);
    seen[index] = true;
  }
  std::vector<unsigned> missing;
  for (unsigned d = 0; d < seen.size(); ++d)
    if (!seen[d])
      missing.push_back(d);
  innerToOuter.insert(innerToOuter.begin(), missing.begin(), missing.end());
  return innerToOuter;
}

/// Timeloop's rule for a dim's factors (its Ruby paper's Eq. 4): with each
/// loop at its last iteration under the last tiles outside it, the nest
/// reaches the bound's last point exactly. marlmap derives those last
/// iterations from the bound, so the residuals a file gives must be the
/// ones the bound implies.
Error checkResiduals(
    const Reader &reader, const Value &at, const Mapping &mapping,
    const std::vector<std::array<std::vector<int64_t>, 2>> &residuals,
    const Problem &problem) {
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    int64_t last = 0; // the last point's index, as the file spells it
    for (const DimLoop &loop : loopsOnDim(mapping, problem, d)) {
      if (loop.factor == 1)
        continue;
      const int64_t residual =
          residuals[loop.level][loop.kind != DimLoop::Temporal][d];
      last = saturatingAdd(saturatingMul(last, loop.factor), residual - 1);
    }
    if (last != problem.dims[d].bound - 1)
      return reader.error(at, "the factors and residuals of " +
                                  problem.dims[d].name + " reach " +
                                  (last == kSaturated
                                       ? std::string("more than 2^63")
                                       : std::to_string(last + 1)) +
                                  " points, but its bound is " +
                                  std::to_string(problem.dims[d].bound) +
                                  " (Timeloop needs it exactly)");
  }
  return Error::success();
}

} // namespace

Expected<Mapping> readMapping(StringRef text, StringRef fileName,
                              const Problem &problem, const Arch &arch) {
  Expected<Value> root = yaml::parse(text, fileName);
  if (!root)
    return root.takeError();
  Reader reader(fileName.str());
  Expected<const Value *> entries =
      reader.require(*root, "mapping", "top level");
  if (!entries)
    return entries.takeError();
  if (!(*entries)->isSequence())
    return reader.error(**entries, "'mapping' must be a list of directives");

  Mapping mapping;
  for (const StorageLevel &level : arch.levels) {
    LevelMapping l =
        LevelMapping::identity(problem.dims.size(), problem.operands.size());
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      l.keep[o] = level.holds.contains(problem.operands[o].role);
    mapping.levels.push_back(std::move(l));
  }
  auto operandIndex = [&](StringRef name) -> std::optional<unsigned> {
    for (unsigned o = 0; o < problem.operands.size(); ++o)
      if (problem.operands[o].name == name)
        return o;
    return std::nullopt;
  };

  // Per level, the temporal [0] and spatial [1] directives' residuals.
  std::vector<std::array<std::vector<int64_t>, 2>> residuals(
      arch.levels.size(), {std::vector<int64_t>(problem.dims.size(), 1),
                           std::vector<int64_t>(problem.dims.size(), 1)});
  for (const Value &entry : (*entries)->items) {
    Expected<const Value *> target = reader.require(entry, "target", "mapping");
    Expected<const Value *> type = reader.require(entry, "type", "mapping");
    if (!target || !type)
      return llvm::joinErrors(target.takeError(), type.takeError());
    std::optional<unsigned> levelIndex = arch.levelIndex((*target)->scalar);
    if (!levelIndex)
      return reader.error(**target, "mapping target '" + (*target)->scalar +
                                        "' is not a storage level of the "
                                        "architecture");
    LevelMapping &level = mapping.levels[*levelIndex];
    std::string at = "mapping of '" + (*target)->scalar + "'";
    StringRef kind = (*type)->scalar;

    if (kind == "datatype" || kind == "bypass") {
      for (auto [key, keep] : {std::pair{"keep", true}, {"bypass", false}}) {
        const Value *list = entry.find(key);
        if (!list)
          continue;
        for (const Value &name : list->items) {
          std::optional<unsigned> operand = operandIndex(name.scalar);
          if (!operand)
            return reader.error(name, at + ": '" + name.scalar +
                                          "' is not a data space");
          level.keep[*operand] = keep;
        }
      }
      continue;
    }
    if (kind != "temporal" && kind != "spatial")
      return reader.error(**type,
                          at + ": unknown directive type '" + kind + "'");
    // Absent factors are all 1; an absent permutation keeps the dims' order.
    const Value none;
    const Value *factorText = entry.find("factors");
    const Value *permutationText = entry.find("permutation");
    Expected<DirectiveFactors> read =
        readFactors(reader, factorText ? *factorText : none, problem, at);
    Expected<std::vector<unsigned>> innerToOuter = readPermutation(
        reader, permutationText ? *permutationText : none, problem, at);
    if (!read || !innerToOuter)
      return llvm::joinErrors(read.takeError(), innerToOuter.takeError());
    const std::vector<int64_t> *factors = &read->factors;
    residuals[*levelIndex][kind == "spatial"] = read->residuals;

    if (kind == "temporal") {
      level.temporal = *factors;
      level.order.assign(innerToOuter->rbegin(), innerToOuter->rend());
      continue;
    }
    // Spatial: the first `split` dims of the permutation go along X.
    Expected<int64_t> split = optionalInteger(reader, entry, {"split"},
                                              int64_t(problem.dims.size()), at);
    if (!split)
      return split.takeError();
    for (auto [position, dim] : llvm::enumerate(*innerToOuter)) {
      bool alongX = int64_t(position) < *split;
      level.spatialX[dim] = alongX ? (*factors)[dim] : 1;
      level.spatialY[dim] = alongX ? 1 : (*factors)[dim];
    }
  }
  if (Error error =
          checkResiduals(reader, **entries, mapping, residuals, problem))
    return std::move(error);
  return mapping;
}

} // namespace marlmap::timeloop
