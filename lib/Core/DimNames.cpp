//===- DimNames.cpp - Which loop of a problem a constraint names ----------===//

#include "marlmap/Core/DimNames.h"

#include <algorithm>

namespace marlmap {

namespace {

/// Which roles read a loop, and whether it slides in a window.
struct Usage {
  bool inputs = false, weights = false, outputs = false;
  bool windowed = false;
  /// The innermost Outputs axis that reads it (-1: none).
  int outputAxis = -1;
};

std::vector<Usage> usages(const Problem &problem) {
  std::vector<Usage> usage(problem.dims.size());
  for (const Operand &operand : problem.operands) {
    if (operand.access == Access::None)
      continue;
    for (size_t axis = 0; axis < operand.projection.size(); ++axis) {
      const Coordinate &coordinate = operand.projection[axis];
      unsigned moving = 0;
      for (const ProjectionTerm &term : coordinate.terms)
        moving += term.coefficient != 0;
      for (const ProjectionTerm &term : coordinate.terms) {
        if (term.coefficient == 0 || term.dim >= usage.size())
          continue;
        Usage &u = usage[term.dim];
        switch (operand.role) {
        case TensorRole::Inputs:
          u.inputs = true;
          u.windowed |= moving > 1;
          break;
        case TensorRole::Weights:
          u.weights = true;
          break;
        case TensorRole::Outputs:
          u.outputs = true;
          u.outputAxis = std::max(u.outputAxis, int(axis));
          break;
        }
      }
    }
  }
  return usage;
}

/// Loops read by the Inputs and the Outputs only, innermost Outputs axis
/// first, with or without a window.
std::vector<unsigned> outputSide(const std::vector<Usage> &usage,
                                 bool windowed) {
  std::vector<unsigned> dims;
  for (unsigned d = 0; d < usage.size(); ++d)
    if (usage[d].inputs && usage[d].outputs && !usage[d].weights &&
        usage[d].windowed == windowed)
      dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](unsigned a, unsigned b) {
    return usage[a].outputAxis > usage[b].outputAxis;
  });
  return dims;
}

} // namespace

std::vector<std::optional<DimName>> nameDims(const Problem &problem) {
  std::vector<Usage> usage = usages(problem);
  std::vector<std::optional<DimName>> names(problem.dims.size());

  // Output columns and rows: the innermost windowed output loops.
  std::vector<unsigned> window = outputSide(usage, true);
  for (size_t i = 0; i < window.size() && i < 2; ++i)
    names[window[i]] = i == 0 ? DimName::P : DimName::Q;
  // Filter columns and rows: the loops sliding with P and Q.
  for (const Operand &operand : problem.operands) {
    if (operand.role != TensorRole::Inputs || operand.access == Access::None)
      continue;
    for (const Coordinate &coordinate : operand.projection) {
      std::optional<DimName> slide;
      for (const ProjectionTerm &term : coordinate.terms)
        if (term.dim < names.size() && usage[term.dim].outputs)
          slide = names[term.dim];
      if (slide != DimName::P && slide != DimName::Q)
        continue;
      for (const ProjectionTerm &term : coordinate.terms)
        if (term.dim < names.size() && !usage[term.dim].outputs &&
            usage[term.dim].windowed)
          names[term.dim] = *slide == DimName::P ? DimName::R : DimName::S;
    }
  }

  bool hasReduction = false;
  for (unsigned d = 0; d < usage.size(); ++d) {
    const Usage &u = usage[d];
    if (u.weights && u.outputs && !u.inputs) {
      names[d] = DimName::K;
    } else if (u.inputs && !u.outputs && !u.windowed) {
      names[d] = DimName::C;
      hasReduction = true;
    }
  }
  // A channel every tensor reads is a depthwise channel (C, as Timeloop's
  // depthwise layer names it), or the groups of a grouped op.
  for (unsigned d = 0; d < usage.size(); ++d) {
    const Usage &u = usage[d];
    if (u.inputs && u.weights && u.outputs && !u.windowed)
      names[d] = hasReduction ? DimName::G : DimName::C;
  }
  // Batch; without a window, the innermost one is a GEMM's rows, which a
  // GEMM written as a 1x1 convolution puts in P.
  std::vector<unsigned> batch = outputSide(usage, false);
  for (size_t i = 0; i < batch.size(); ++i)
    names[batch[i]] = i == 0 && window.empty() ? DimName::P : DimName::N;
  return names;
}

OpKind opKindOf(const std::vector<std::optional<DimName>> &names,
                const Problem &problem) {
  auto has = [&](DimName name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  bool window = has(DimName::R) || has(DimName::S);
  if (window && has(DimName::K))
    return OpKind::Conv;
  if (window && !has(DimName::K)) {
    // Depthwise: a channel the output keeps, read by every tensor.
    for (unsigned d = 0; d < names.size(); ++d)
      for (unsigned o = 0; o < problem.operands.size(); ++o)
        if (names[d] == DimName::C &&
            problem.operands[o].role == TensorRole::Outputs &&
            problem.dependsOn(o, d))
          return OpKind::Depthwise;
  }
  if (!window && has(DimName::K) && has(DimName::C))
    return OpKind::Gemm;
  return OpKind::Other;
}

} // namespace marlmap
