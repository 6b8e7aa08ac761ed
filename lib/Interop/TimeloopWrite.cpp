//===- TimeloopWrite.cpp - Core types -> Timeloop input files -------------===//

#include "marlmap/Core/DimNames.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/LoopConstraints.h"
#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace marlmap::timeloop {

namespace {

/// The letter each dim is written as.
std::vector<std::string> dimLetters(const Problem &problem) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  bool keep = problem.dims.size() <= 26;
  for (const LoopDim &dim : problem.dims)
    keep &= dim.name.size() == 1 && dim.name[0] >= 'A' && dim.name[0] <= 'Z' &&
            seen.insert(dim.name).second;
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    names.push_back(keep ? problem.dims[d].name
                         : std::string(1, char('A' + d % 26)));
  return names;
}

std::string number(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.17g", value);
  return text;
}

} // namespace

std::string writeArch(const Arch &arch) {
  std::string text;
  llvm::raw_string_ostream os(text);
  const ComputeArray &c = arch.compute;
  os << "# " << arch.name << ", written by marlmap\n"
     << "arch:\n  arithmetic:\n    name: MACs\n    instances: " << c.instances
     << "\n    meshX: " << c.meshX << "\n    word-bits: " << c.wordBits
     << "\n    energy: " << number(c.energyPerMac) << "\n  storage:\n";
  for (const StorageLevel &l : arch.levels) {
    os << "  - name: " << l.name << "\n";
    if (l.technology == Technology::DRAM)
      os << "    technology: DRAM\n";
    os << "    instances: " << l.instances << "\n    meshX: " << l.meshX
       << "\n    word-bits: " << l.wordBits << "\n";
    if (l.entries)
      os << "    entries: " << *l.entries << "\n";
    if (l.blockSize != 1)
      os << "    block-size: " << l.blockSize << "\n";
    if (l.readBandwidth)
      os << "    read_bandwidth: " << number(*l.readBandwidth) << "\n";
    if (l.writeBandwidth)
      os << "    write_bandwidth: " << number(*l.writeBandwidth) << "\n";
    if (l.multipleBuffering != 1.0)
      os << "    multiple-buffering: " << number(l.multipleBuffering) << "\n";
    os << "    vector-access-energy: "
       << number(l.readEnergy * double(l.blockSize)) << "\n";
  }
  return text;
}

std::string writeProblem(const Problem &problem) {
  std::vector<std::string> letters = dimLetters(problem);
  std::map<int64_t, std::string> coefficients;
  for (const Operand &operand : problem.operands)
    for (const Coordinate &coordinate : operand.projection)
      for (const ProjectionTerm &term : coordinate.terms)
        if (std::abs(term.coefficient) > 1)
          coefficients.emplace(std::abs(term.coefficient),
                               "k" +
                                   std::to_string(std::abs(term.coefficient)));

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "# " << (problem.name.empty() ? "problem" : problem.name)
     << ", written by marlmap\nproblem:\n  shape:\n    name: "
     << (problem.name.empty() ? "marlmap" : problem.name)
     << "\n    dimensions: [";
  for (unsigned d = 0; d < letters.size(); ++d)
    os << (d ? ", " : "") << letters[d];
  os << "]\n";
  if (!coefficients.empty()) {
    os << "    coefficients:\n";
    for (auto &[value, name] : coefficients)
      os << "    - name: " << name << "\n      default: " << value << "\n";
  }
  os << "    data-spaces:\n";
  for (const Operand &operand : problem.operands) {
    if (operand.access == Access::None)
      continue;
    os << "    - name: " << operand.name << "\n      projection:\n";
    for (const Coordinate &coordinate : operand.projection) {
      // A broadcast axis has size 1 and no term to write.
      if (coordinate.terms.empty())
        continue;
      os << "      - [";
      for (unsigned t = 0; t < coordinate.terms.size(); ++t) {
        const ProjectionTerm &term = coordinate.terms[t];
        os << (t ? ", " : "") << "[" << letters[term.dim];
        if (std::abs(term.coefficient) > 1)
          os << ", " << coefficients[std::abs(term.coefficient)];
        os << "]";
      }
      os << "]\n";
    }
    if (operand.isWritten())
      os << "      read-write: true\n";
  }
  os << "  instance:\n";
  for (unsigned d = 0; d < letters.size(); ++d)
    os << "    " << letters[d] << ": " << problem.dims[d].bound << "\n";
  return text;
}

llvm::Expected<std::string>
writeMapping(const Mapping &mapping, const Problem &problem, const Arch &arch) {
  std::vector<std::string> letters = dimLetters(problem);
  // A partial last tile is Timeloop's residual, `P4,3`: the loop's
  // iterations under the last tiles of the loops outside it.
  std::vector<std::vector<DimLoop>> loops;
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    loops.push_back(loopsOnDim(mapping, problem, d));
  // `values` are the level's factors of one directive: temporal, or
  // spatial (X and Y together, one of them 1 per dim).
  auto factors = [&](unsigned level, bool spatial,
                     const std::vector<int64_t> &values) {
    std::string out;
    for (unsigned d = 0; d < values.size(); ++d) {
      out += (d ? " " : "") + letters[d] + std::to_string(values[d]);
      for (const DimLoop &loop : loops[d])
        if (loop.level == level &&
            (loop.kind != DimLoop::Temporal) == spatial &&
            loop.lastRun != loop.factor)
          out += "," + std::to_string(loop.lastRun);
    }
    return out;
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "mapping:\n";
  for (unsigned l = 0; l < mapping.levels.size(); ++l) {
    const LevelMapping &level = mapping.levels[l];
    const std::string &name = arch.levels[l].name;
    std::string keep, bypass;
    for (unsigned o = 0; o < problem.operands.size(); ++o) {
      if (problem.operands[o].access == Access::None)
        continue;
      std::string &list = level.keep[o] ? keep : bypass;
      list += (list.empty() ? "" : ", ") + problem.operands[o].name;
    }
    os << "  - target: " << name << "\n    type: datatype\n    keep: [" << keep
       << "]\n    bypass: [" << bypass << "]\n";

    // Timeloop's permutation is innermost first.
    std::string permutation;
    for (auto it = level.order.rbegin(); it != level.order.rend(); ++it)
      permutation += letters[*it];
    os << "  - target: " << name << "\n    type: temporal\n    factors: "
       << factors(l, false, level.temporal)
       << "\n    permutation: " << permutation << "\n";

    if (level.spreadX() * level.spreadY() == 1)
      continue;
    // The dims before `split` in the permutation go along X.
    std::string alongX, rest;
    std::vector<int64_t> spatial(level.temporal.size(), 1);
    for (unsigned d = 0; d < level.spatialX.size(); ++d) {
      if (level.spatialX[d] > 1 && level.spatialY[d] > 1)
        return makeError("level '" + name + "' spreads " +
                         problem.dims[d].name +
                         " over both X and Y, which Timeloop cannot express");
      spatial[d] = level.spatialX[d] * level.spatialY[d];
      (level.spatialX[d] > 1 ? alongX : rest) += letters[d];
    }
    os << "  - target: " << name
       << "\n    type: spatial\n    factors: " << factors(l, true, spatial)
       << "\n    permutation: " << alongX << rest
       << "\n    split: " << alongX.size() << "\n";
  }
  return text;
}

} // namespace marlmap::timeloop

namespace marlmap::timeloop {

namespace {

/// `K1 C<=4`: a level's exact and largest factors in Timeloop's spelling.
std::string factorText(const std::vector<std::string> &letters,
                       const std::map<unsigned, int64_t> &exact,
                       const std::map<unsigned, int64_t> &most) {
  std::string out;
  for (auto [dim, value] : exact)
    out += (out.empty() ? "" : " ") + letters[dim] + std::to_string(value);
  for (auto [dim, value] : most)
    if (!exact.count(dim))
      out += (out.empty() ? "" : " ") + letters[dim] +
             "<=" + std::to_string(value);
  return out;
}

bool allowedOn(const std::optional<std::vector<unsigned>> &dims, unsigned dim) {
  return !dims || std::find(dims->begin(), dims->end(), dim) != dims->end();
}

/// Level `l`'s keeps: its constraints, and what it may not hold.
void writeKeeps(llvm::raw_ostream &os, const Arch &arch, const Problem &problem,
                unsigned l, const LevelConstraints &c) {
  if (l + 1 == arch.levels.size())
    return; // the outermost keeps everything
  std::string keep, bypass;
  for (unsigned o = 0; o < problem.operands.size(); ++o) {
    const Operand &operand = problem.operands[o];
    if (operand.access == Access::None)
      continue;
    auto fixed = c.keep.find(o);
    bool held = arch.levels[l].holds.contains(operand.role);
    if (fixed != c.keep.end() && fixed->second)
      keep += (keep.empty() ? "" : ", ") + operand.name;
    else if (!held || fixed != c.keep.end())
      bypass += (bypass.empty() ? "" : ", ") + operand.name;
  }
  if (!keep.empty() || !bypass.empty())
    os << "  - target: " << arch.levels[l].name
       << "\n    type: datatype\n    keep: [" << keep << "]\n    bypass: ["
       << bypass << "]\n";
}

/// Level `l`'s temporal factors and order; Timeloop lists loops innermost
/// first.
void writeTemporal(llvm::raw_ostream &os, const std::string &name,
                   const std::vector<std::string> &letters,
                   const LevelConstraints &c) {
  std::string factors = factorText(letters, c.temporal, c.maxTemporal);
  std::string permutation;
  const std::vector<unsigned> &inner = c.order ? *c.order : c.innermost;
  for (auto it = inner.rbegin(); it != inner.rend(); ++it)
    permutation += letters[*it];
  if (factors.empty() && permutation.empty())
    return;
  os << "  - target: " << name << "\n    type: temporal\n";
  if (!factors.empty())
    os << "    factors: " << factors << "\n";
  if (!permutation.empty())
    os << "    permutation: " << permutation << "\n";
}

/// Level `l`'s spatial constraints: dims along X, then along Y, split
/// between them; what one Timeloop directive cannot say is an error.
llvm::Error writeSpatial(llvm::raw_ostream &os, const Arch &arch,
                         const Problem &problem, unsigned l,
                         const std::vector<std::string> &letters,
                         const LevelConstraints &c) {
  const std::string &name = arch.levels[l].name;
  if (arch.fanoutX(l) * arch.fanoutY(l) == 1)
    return llvm::Error::success();
  std::map<unsigned, int64_t> exact = c.spatialX, most = c.maxSpatialX;
  for (auto [dim, value] : c.spatialY) {
    auto [it, inserted] = exact.insert({dim, value});
    if (!inserted)
      it->second *= value;
  }
  for (auto [dim, value] : c.maxSpatialY)
    most.insert({dim, value});
  std::string alongX, alongY, neither;
  bool lists = c.spatialXDims || c.spatialYDims;
  for (unsigned d = 0; d < problem.dims.size(); ++d) {
    bool x = arch.fanoutX(l) > 1 && allowedOn(c.spatialXDims, d);
    bool y = arch.fanoutY(l) > 1 && allowedOn(c.spatialYDims, d);
    if (x && y && lists)
      return makeError(
          "level '" + name + "' lets " + problem.dims[d].name +
          " spread along X or Y while it restricts other dims: a Timeloop "
          "spatial constraint cannot say that");
    if (x && y)
      continue;
    (x ? alongX : y ? alongY : neither) += letters[d];
    if (!x && !y)
      exact[d] = 1;
  }
  std::string factors = factorText(letters, exact, most);
  bool twoD = arch.fanoutX(l) > 1 && arch.fanoutY(l) > 1;
  if (twoD && !lists)
    for (auto [dim, value] : exact)
      if (value != 1 || most.count(dim))
        return makeError("level '" + name + "' fixes the spread of " +
                         problem.dims[dim].name +
                         " without saying along which axis: a Timeloop spatial "
                         "constraint cannot say that");
  if (twoD && !lists && !most.empty())
    return makeError(
        "level '" + name +
        "' limits a spread without saying along which axis: a Timeloop "
        "spatial constraint cannot say that");
  if (!factors.empty() || lists) {
    os << "  - target: " << name << "\n    type: spatial\n";
    if (!factors.empty())
      os << "    factors: " << factors << "\n";
    if (lists)
      os << "    permutation: " << alongX << alongY << neither
         << "\n    split: " << alongX.size() << "\n";
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string> writeConstraints(const Arch &arch,
                                             const Problem &problem) {
  Constraints resolved;
  if (llvm::Error error = resolveConstraints(problem, arch, resolved))
    return std::move(error);
  std::vector<std::string> letters = dimLetters(problem);
  // Timeloop reads the letters back as marlmap's dim names: each must be
  // the name its loop answers to.
  std::vector<std::optional<DimName>> names = nameDims(problem);
  if (!arch.constraints.empty())
    for (unsigned d = 0; d < names.size(); ++d)
      if (names[d] && letters[d] != dimNameSpelling(*names[d]))
        return makeError(
            "loop " + problem.dims[d].name + " is written as '" + letters[d] +
            "' but answers to " + dimNameSpelling(*names[d]) +
            ": constraints in the problem's letters would land elsewhere "
            "(name the loops as Timeloop's CNN layer does)");
  std::string text;
  llvm::raw_string_ostream os(text);
  for (unsigned l = 0; l < arch.levels.size(); ++l) {
    const LevelConstraints &c = resolved.levels[l];
    writeKeeps(os, arch, problem, l, c);
    writeTemporal(os, arch.levels[l].name, letters, c);
    if (llvm::Error error = writeSpatial(os, arch, problem, l, letters, c))
      return std::move(error);
  }
  return "# the constraints of " + arch.name + " on " +
         (problem.name.empty() ? "the problem" : problem.name) +
         ", written by marlmap\nmapspace:\n  constraints:" +
         (text.empty() ? " []\n" : "\n" + text);
}

} // namespace marlmap::timeloop
