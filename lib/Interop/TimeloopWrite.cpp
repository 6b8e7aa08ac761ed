//===- TimeloopWrite.cpp - Core types -> Timeloop input files -------------===//

#include "marlmap/Interop/TimeloopYaml.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

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
  auto factors = [&](const std::vector<int64_t> &values) {
    std::string out;
    for (unsigned d = 0; d < values.size(); ++d)
      out += (d ? " " : "") + letters[d] + std::to_string(values[d]);
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
    os << "  - target: " << name
       << "\n    type: temporal\n    factors: " << factors(level.temporal)
       << "\n    permutation: " << permutation << "\n";

    if (level.spreadX() * level.spreadY() == 1)
      continue;
    // The dims before `split` in the permutation go along X.
    std::string alongX, rest;
    std::vector<int64_t> spatial(level.temporal.size(), 1);
    for (unsigned d = 0; d < level.spatialX.size(); ++d) {
      if (level.spatialX[d] > 1 && level.spatialY[d] > 1)
        return llvm::createStringError(
            "level '" + name + "' spreads " + problem.dims[d].name +
            " over both X and Y, which Timeloop cannot express");
      spatial[d] = level.spatialX[d] * level.spatialY[d];
      (level.spatialX[d] > 1 ? alongX : rest) += letters[d];
    }
    os << "  - target: " << name
       << "\n    type: spatial\n    factors: " << factors(spatial)
       << "\n    permutation: " << alongX << rest
       << "\n    split: " << alongX.size() << "\n";
  }
  return text;
}

} // namespace marlmap::timeloop
