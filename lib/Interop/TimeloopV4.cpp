//===- TimeloopV4.cpp - Timeloop's v0.4 architecture specs -> core --------===//
//
// `architecture: {version: 0.4, nodes: [...]}`, as timeloopfe flattens it for
// Timeloop: nodes in document order, outermost first; `!Hierarchical`,
// `!Parallel` and `!Pipelined` group nodes without a scope of their own;
// a `spatial: {meshX, meshY}` on a node multiplies the instances of every
// node after it and puts its fanout in a level of its own,
// `inter_<node>_spatial`, which keeps nothing, iterates nothing and carries
// the node's spatial constraints; `!Component`s are storage levels or the
// compute array; a `!Container` is only its fanout. Constraints sit in the
// nodes (`constraints: {temporal, spatial, dataspace}`), in v0.4's list
// syntax. What marlmap does not model is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "TimeloopV4.h"
#include "TimeloopConstraints.h"
#include "marlmap/Core/Arithmetic.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Interop/TimeloopEnergy.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace marlmap::timeloop {

using yaml::Reader;
using yaml::Value;

namespace {

bool classIs(const Value &node, std::initializer_list<StringRef> kinds) {
  const Value *kind = node.find("class");
  if (!kind || !kind->isScalar())
    return false;
  for (StringRef k : kinds)
    if (StringRef(kind->scalar).contains_insensitive(k))
      return true;
  return false;
}

Value scalar(std::string text, unsigned line) {
  Value value;
  value.kind = Value::Kind::Scalar;
  value.scalar = std::move(text);
  value.line = line;
  return value;
}

/// timeloopfe puts the dims a spatial target fixes at 1 in front of its
/// permutation (innermost), which moves its split: so does marlmap. (It
/// also puts there the dims whose bound is 1 in the problem, which a
/// description for every problem cannot.)
void prependUnitDims(Value &spatial) {
  Value *permutation = nullptr, *factors = nullptr;
  for (auto &[key, value] : spatial.entries) {
    if (key == "permutation" && value.isSequence())
      permutation = &value;
    if (key == "factors" && value.isSequence())
      factors = &value;
  }
  if (!permutation || !factors || !spatial.find("split"))
    return;
  std::vector<Value> unit;
  for (const Value &item : factors->items) {
    StringRef text = StringRef(item.scalar).trim();
    auto [dim, value] = text.split('=');
    dim = dim.trim();
    bool listed = false;
    for (const Value &name : permutation->items)
      listed |= StringRef(name.scalar).trim() == dim;
    if (!listed && value.trim() == "1" && !dim.empty())
      unit.push_back(scalar(dim.str(), item.line));
  }
  permutation->items.insert(permutation->items.begin(), unit.begin(),
                            unit.end());
}

class Flattener {
public:
  Flattener(const Reader &reader, StringRef fileName)
      : reader(reader), fileName(fileName) {}

  Error walk(const Value &nodes, bool inParallel);
  Expected<Arch> finish();

private:
  Error leaf(const Value &node, bool inParallel);
  Error storage(const Value &node, const std::string &name);
  Error compute(const Value &node);
  Error constraintsOf(const Value &node, const std::string &level,
                      const std::string &spatialLevel, const std::string &name);
  Expected<int64_t> integer(const Value &attributes, StringRef key,
                            int64_t fallback, const std::string &at);

  const Reader &reader;
  StringRef fileName;
  int64_t meshX = 1, meshY = 1;
  /// Outermost first, as the nodes come.
  std::vector<StorageLevel> levels;
  std::optional<ComputeArray> macs;
  std::vector<Value> targets;
  /// The levels a `!Parallel` made, to bypass what each branch leaves to
  /// the others.
  std::vector<std::vector<std::string>> parallelGroups;
};

Expected<int64_t> Flattener::integer(const Value &attributes, StringRef key,
                                     int64_t fallback, const std::string &at) {
  const Value *value = attributes.find(key);
  if (!value)
    return fallback;
  return reader.integer(*value, at + "." + key);
}

Error Flattener::walk(const Value &nodes, bool inParallel) {
  if (!nodes.isSequence())
    return reader.error(nodes, "'nodes' must be a list");
  size_t before = levels.size();
  for (const Value &node : nodes.items) {
    if (macs)
      return reader.error(node, "nodes after the compute component: it must "
                                "come last");
    StringRef tag = node.tag;
    if (tag == "!Nothing")
      continue;
    if (const Value *enabled = node.find("enabled"))
      if (enabled->isScalar() && enabled->scalar == "false")
        continue;
    if (tag == "!Hierarchical" || tag == "!Parallel" || tag == "!Pipelined") {
      const Value *children = node.find("nodes");
      if (!children)
        return reader.error(node, tag + " has no 'nodes'");
      if (Error error = walk(*children, tag == "!Parallel"))
        return error;
      continue;
    }
    if (tag != "!Component" && tag != "!Container")
      return reader.error(
          node, "a v0.4 node is !Component, !Container, "
                "!Hierarchical, !Parallel, !Pipelined or "
                "!Nothing, not '" +
                    (tag.empty() ? StringRef("untagged") : tag) + "'");
    if (Error error = leaf(node, inParallel))
      return error;
  }
  if (inParallel) {
    std::vector<std::string> group;
    for (size_t i = before; i < levels.size(); ++i)
      group.push_back(levels[i].name);
    parallelGroups.push_back(group);
  }
  return Error::success();
}

Error Flattener::leaf(const Value &node, bool inParallel) {
  Expected<const Value *> nameValue = reader.require(node, "name", "node");
  if (!nameValue)
    return nameValue.takeError();
  Expected<std::string> name = reader.string(**nameValue, "name");
  if (!name)
    return name.takeError();
  // Its fanout: a level of its own, before (outside) the node.
  int64_t fanoutX = 1, fanoutY = 1;
  if (const Value *spatial = node.find("spatial")) {
    if (inParallel)
      return reader.error(*spatial, "a fanout inside !Parallel");
    Expected<int64_t> x = integer(*spatial, "meshX", 1, *name + ".spatial");
    Expected<int64_t> y = integer(*spatial, "meshY", 1, *name + ".spatial");
    if (!x || !y)
      return llvm::joinErrors(x.takeError(), y.takeError());
    if (*x < 1 || *y < 1)
      return reader.error(*spatial, *name + ": meshX and meshY must be "
                                            "positive");
    // Instances multiply down the nodes: keep them representable.
    if (saturatingMul(saturatingMul(meshX, *x), saturatingMul(meshY, *y)) >=
        kSaturated)
      return reader.error(*spatial, *name + ": too many instances");
    fanoutX = *x;
    fanoutY = *y;
  }
  if (fanoutX * fanoutY > 1) {
    StorageLevel dummy;
    dummy.name = spatialLevelName(*name);
    dummy.entries = 0;
    dummy.instances = meshX * meshY;
    dummy.meshX = meshX;
    dummy.meshY = meshY;
    levels.push_back(dummy);
    // It iterates nothing: all its loops are 1.
    Value target;
    target.kind = Value::Kind::Mapping;
    target.line = node.line;
    target.entries = {
        {"target", scalar(dummy.name, node.line)},
        {"type", scalar("temporal", node.line)},
        {"factors", scalar("N1 K1 C1 P1 Q1 R1 S1 G1", node.line)}};
    targets.push_back(std::move(target));
    meshX *= fanoutX;
    meshY *= fanoutY;
  }
  // Spatial constraints go to the fanout's level; the rest to the node's.
  std::string spatialLevel =
      fanoutX * fanoutY > 1 ? spatialLevelName(*name) : "";
  std::string level;
  if (node.tag == "!Component") {
    if (classIs(node, {"DRAM", "SRAM", "regfile", "smartbuffer", "storage"})) {
      if (Error error = storage(node, *name))
        return error;
      level = *name;
    } else if (classIs(node, {"mac", "compute"})) {
      if (Error error = compute(node))
        return error;
    } else {
      const Value *kind = node.find("class");
      return reader.error(node, "component '" + *name + "' of class '" +
                                    (kind ? kind->scalar : "") +
                                    "' is not storage or compute, which is "
                                    "all marlmap models");
    }
  }
  return constraintsOf(node, level, spatialLevel, *name);
}

Error Flattener::storage(const Value &node, const std::string &name) {
  const Value empty;
  const Value *found = node.find("attributes");
  const Value &attributes = found ? *found : empty;
  std::string at = name + ".attributes";
  StorageLevel level;
  level.name = name;
  bool dram = classIs(node, {"DRAM"});
  level.technology = dram ? Technology::DRAM : Technology::SRAM;
  Expected<int64_t> wordBits = integer(attributes, "datawidth", 16, at);
  if (!wordBits)
    return wordBits.takeError();
  Expected<int64_t> width = integer(attributes, "width", *wordBits, at);
  if (!width)
    return width.takeError();
  if (*wordBits < 1 || *width < *wordBits)
    return reader.error(node, at + ": datawidth must be positive and width "
                                   "at least the datawidth");
  const Value *blockValue = attributes.find("block_size");
  if (!blockValue)
    blockValue = attributes.find("cluster_size");
  Expected<int64_t> block =
      blockValue ? reader.integer(*blockValue, at + ".block_size")
                 : Expected<int64_t>(*width / *wordBits);
  if (!block)
    return block.takeError();
  if (*block < 1)
    return reader.error(node, at + ": block_size must be positive");
  level.wordBits = *wordBits;
  level.blockSize = *block;
  if (const Value *entries = attributes.find("entries")) {
    Expected<int64_t> value = reader.integer(*entries, at + ".entries");
    if (!value)
      return value.takeError();
    level.entries = *value;
  } else if (const Value *depth = attributes.find("depth")) {
    Expected<int64_t> value = reader.integer(*depth, at + ".depth");
    if (!value)
      return value.takeError();
    if (*value < 0 || *value > kSaturated / level.blockSize)
      return reader.error(*depth, at + ".depth cannot be represented");
    level.entries = *value * level.blockSize;
  } else if (const Value *size = attributes.find("sizeKB")) {
    Expected<int64_t> value = reader.integer(*size, at + ".sizeKB");
    if (!value)
      return value.takeError();
    if (*value < 0 || *value > kSaturated / 8192)
      return reader.error(*size, at + ".sizeKB cannot be represented");
    level.entries = *value * 8192 / level.wordBits;
  } else if (!dram) {
    return reader.error(node, at + " gives no 'entries', 'depth' or 'sizeKB'");
  }
  for (auto [key, field] : {std::pair{"read_bandwidth", &level.readBandwidth},
                            {"write_bandwidth", &level.writeBandwidth}})
    if (const Value *value = attributes.find(key)) {
      Expected<double> real = reader.real(*value, at + "." + key);
      if (!real)
        return real.takeError();
      *field = *real;
    }
  if (const Value *value = attributes.find("multiple_buffering")) {
    Expected<double> real = reader.real(*value, at + ".multiple_buffering");
    if (!real)
      return real.takeError();
    level.multipleBuffering = *real;
  }
  level.instances = meshX * meshY;
  level.meshX = meshX;
  level.meshY = meshY;
  // PAT's energies, as for a v0.3 spec: v0.4 leaves them to Accelergy.
  level.readEnergy = level.writeEnergy = level.updateEnergy =
      vectorAccessEnergy(dram, level.entries.value_or(0), level.wordBits,
                         level.blockSize) /
      double(level.blockSize);
  level.holds = level.entries.value_or(1) == 0 ? RoleSet() : RoleSet::all();
  levels.push_back(level);
  return Error::success();
}

Error Flattener::compute(const Value &node) {
  const Value empty;
  const Value *found = node.find("attributes");
  const Value &attributes = found ? *found : empty;
  ComputeArray array;
  Expected<int64_t> bits = integer(attributes, "datawidth",
                                   attributes.find("multiplier_width") ? 0 : 16,
                                   "compute.attributes");
  if (!bits)
    return bits.takeError();
  if (*bits == 0) {
    Expected<int64_t> multiplier =
        integer(attributes, "multiplier_width", 16, "compute.attributes");
    if (!multiplier)
      return multiplier.takeError();
    bits = *multiplier;
  }
  array.wordBits = *bits;
  array.instances = meshX * meshY;
  array.meshX = meshX;
  array.meshY = meshY;
  array.energyPerMac = macEnergy(array.wordBits);
  macs = array;
  return Error::success();
}

Error Flattener::constraintsOf(const Value &node, const std::string &level,
                               const std::string &spatialLevel,
                               const std::string &name) {
  const Value *constraints = node.find("constraints");
  if (!constraints)
    return Error::success();
  if (!constraints->isMapping())
    return reader.error(*constraints, "'constraints' must be a mapping");
  for (const auto &[kind, body] : constraints->entries) {
    if (kind != "temporal" && kind != "spatial" && kind != "dataspace")
      return reader.error(body, "'" + kind +
                                    "' constraints are not "
                                    "supported by marlmap");
    std::string target = kind == "spatial" ? spatialLevel : level;
    if (target.empty() && kind == "spatial")
      return reader.error(body, "spatial constraints on '" + name +
                                    "', which has no fanout of its own");
    if (target.empty())
      return reader.error(body, "'" + name + "' is a container: its " + kind +
                                    " constraints apply to no level "
                                    "(Timeloop drops them)");
    if (!body.isMapping())
      return reader.error(body, "'" + kind + "' must be a mapping");
    Value entry = body;
    if (kind == "spatial")
      prependUnitDims(entry);
    entry.entries.insert(entry.entries.begin(),
                         {{"target", scalar(target, body.line)},
                          {"type", scalar(kind, body.line)}});
    targets.push_back(std::move(entry));
  }
  return Error::success();
}

Expected<Arch> Flattener::finish() {
  if (!macs)
    return makeError(fileName + ": no compute component (class mac, "
                                "intmac, ...) ends the nodes");
  if (levels.empty())
    return makeError(fileName + ": no storage level");
  Arch arch;
  arch.name = fileName.str();
  arch.fillRule = FillRule::Timeloop;
  arch.compute = *macs;
  arch.levels.assign(levels.rbegin(), levels.rend());
  arch.levels.back().holds = RoleSet::all();
  if (Error error = readTargets(reader, targets, arch))
    return std::move(error);
  // Each branch of a !Parallel keeps what no other branch keeps.
  for (const std::vector<std::string> &group : parallelGroups)
    for (const std::string &name : group)
      for (Constraint &c : arch.constraints)
        if (c.level == name && c.ops.empty() && !c.keep.empty())
          for (unsigned r = 0; r < kNumTensorRoles; ++r) {
            TensorRole role = TensorRole(r);
            if (std::find(c.keep.begin(), c.keep.end(), role) == c.keep.end() &&
                std::find(c.bypass.begin(), c.bypass.end(), role) ==
                    c.bypass.end())
              c.bypass.push_back(role);
          }
  return arch;
}

} // namespace

bool isV4Spec(const Value &root) {
  const Value *architecture = root.find("architecture");
  return architecture && architecture->isMapping() &&
         architecture->find("nodes");
}

Expected<Arch> readArchV4(const Reader &reader, const Value &root,
                          StringRef fileName) {
  const Value &architecture = *root.find("architecture");
  const Value *version = architecture.find("version");
  if (!version || !version->isScalar() ||
      (version->scalar != "0.4" && version->scalar != "'0.4'"))
    return reader.error(architecture,
                        "an architecture with 'nodes' is version 0.4");
  Flattener flattener(reader, fileName);
  if (Error error = flattener.walk(*architecture.find("nodes"), false))
    return std::move(error);
  return flattener.finish();
}

} // namespace marlmap::timeloop
