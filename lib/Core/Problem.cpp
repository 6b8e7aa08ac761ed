//===- Problem.cpp - A tensor operation as loops and projections ----------===//

#include "marlmap/Core/Problem.h"

#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cstdlib>

namespace marlmap {

const char *accessName(Access access) {
  switch (access) {
  case Access::None:
    return "none";
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadModifyWrite:
    return "read-modify-write";
  }
  return "?";
}

int64_t Problem::iterations() const {
  int64_t product = 1;
  for (const LoopDim &dim : dims)
    product = saturatingMul(product, dim.bound);
  return product;
}

int64_t Problem::extent(const Coordinate &coordinate,
                        const std::vector<int64_t> &tile) {
  int64_t span = 1;
  for (const ProjectionTerm &term : coordinate.terms)
    span = saturatingAdd(
        span, saturatingMul(std::abs(term.coefficient), tile[term.dim] - 1));
  return span;
}

int64_t Problem::footprint(unsigned operand,
                           const std::vector<int64_t> &tile) const {
  int64_t words = 1;
  for (const Coordinate &coordinate : operands[operand].projection)
    words = saturatingMul(words, extent(coordinate, tile));
  return words;
}

int64_t Problem::footprint(unsigned operand) const {
  return footprint(operand, bounds());
}

namespace {

/// Distinct values of one axis over the whole problem (the sums of its
/// terms over every point), or a smaller count when there are too many to
/// list: the largest bound among its terms, each of which alone takes that
/// many values.
int64_t distinctValues(const Coordinate &axis,
                       const std::vector<LoopDim> &dims) {
  int64_t lo = 0, hi = 0, largest = 1, work = 0;
  for (const ProjectionTerm &term : axis.terms) {
    const int64_t bound = dims[term.dim].bound;
    const int64_t reach = term.coefficient * (bound - 1);
    (reach < 0 ? lo : hi) += reach;
    largest = std::max(largest, term.coefficient ? bound : 1);
    work += bound;
  }
  const int64_t span = hi - lo + 1;
  if (span > (int64_t(1) << 22) || span * work > (int64_t(1) << 27))
    return largest;
  std::vector<char> reached(span, 0), next(span);
  reached[-lo] = 1;
  for (const ProjectionTerm &term : axis.terms) {
    std::fill(next.begin(), next.end(), 0);
    for (int64_t at = 0; at < span; ++at)
      if (reached[at])
        for (int64_t x = 0; x < dims[term.dim].bound; ++x)
          next[at + term.coefficient * x] = 1;
    reached.swap(next);
  }
  return std::count(reached.begin(), reached.end(), 1);
}

} // namespace

bool Problem::isGapless(unsigned operand) const {
  std::vector<unsigned> axesOfDim(dims.size(), 0);
  for (const Coordinate &axis : operands[operand].projection)
    for (const ProjectionTerm &term : axis.terms) {
      if (term.coefficient == 0 || dims[term.dim].bound == 1)
        continue;
      if (std::abs(term.coefficient) != 1 || ++axesOfDim[term.dim] > 1)
        return false;
    }
  return true;
}

int64_t Problem::touchedWords(unsigned operand) const {
  if (isGapless(operand))
    return footprint(operand);
  const std::vector<Coordinate> &axes = operands[operand].projection;
  bool sharedDims = false;
  std::vector<unsigned> axesOfDim(dims.size(), 0);
  for (const Coordinate &axis : axes)
    for (const ProjectionTerm &term : axis.terms)
      if (term.coefficient != 0 && dims[term.dim].bound > 1)
        sharedDims |= ++axesOfDim[term.dim] > 1;
  // Axes that share no dim vary independently: their counts multiply.
  // Otherwise the words are at least as many as any one axis has values.
  int64_t words = 1;
  for (const Coordinate &axis : axes) {
    const int64_t values = distinctValues(axis, dims);
    words = sharedDims ? std::max(words, values) : saturatingMul(words, values);
  }
  return words;
}

std::vector<int64_t> Problem::bounds() const {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (const LoopDim &dim : dims)
    out.push_back(dim.bound);
  return out;
}

bool Problem::dependsOn(unsigned operand, unsigned dim) const {
  for (const Coordinate &coordinate : operands[operand].projection)
    for (const ProjectionTerm &term : coordinate.terms)
      if (term.dim == dim && term.coefficient != 0)
        return true;
  return false;
}

std::string Problem::boundsText() const {
  std::string text;
  for (const LoopDim &dim : dims)
    text += (text.empty() ? "" : "x") + std::to_string(dim.bound);
  return text;
}

std::string Problem::key() const {
  std::string text;
  for (const LoopDim &dim : dims)
    text += std::to_string(dim.bound) +
            (dim.kind == LoopKind::Reduction ? "r," : "p,");
  for (const Operand &operand : operands) {
    text += "|" + std::to_string(int(operand.role)) + ":" +
            std::to_string(int(operand.access)) + ":";
    for (const Coordinate &coordinate : operand.projection) {
      for (const ProjectionTerm &term : coordinate.terms)
        text += std::to_string(term.coefficient) + "*" +
                std::to_string(term.dim) + "+";
      text += std::to_string(coordinate.offset) + ";";
    }
  }
  return text;
}

std::string Problem::format(const Coordinate &coordinate) const {
  std::string text;
  for (const ProjectionTerm &term : coordinate.terms) {
    int64_t c = term.coefficient;
    if (!text.empty())
      text += c < 0 ? " - " : " + ";
    else if (c < 0)
      text += "-";
    if (std::abs(c) != 1)
      text += std::to_string(std::abs(c)) + "*";
    text += term.dim < dims.size() ? dims[term.dim].name
                                   : "#" + std::to_string(term.dim);
  }
  if (coordinate.offset != 0 || text.empty()) {
    if (text.empty())
      text = std::to_string(coordinate.offset);
    else
      text += (coordinate.offset < 0 ? " - " : " + ") +
              std::to_string(std::abs(coordinate.offset));
  }
  return text;
}

std::vector<std::string> Problem::check() const {
  std::vector<std::string> issues;
  if (dims.empty())
    issues.push_back("the problem has no loops");
  for (const LoopDim &dim : dims)
    if (dim.bound <= 0)
      issues.push_back("loop '" + dim.name + "' has bound " +
                       std::to_string(dim.bound) + "; bounds must be positive");
  for (const Operand &operand : operands)
    for (const Coordinate &coordinate : operand.projection)
      for (const ProjectionTerm &term : coordinate.terms)
        if (term.dim >= dims.size())
          issues.push_back("operand '" + operand.name + "' projects loop #" +
                           std::to_string(term.dim) + ", which does not exist");
  if (std::none_of(operands.begin(), operands.end(),
                   [](const Operand &o) { return o.isWritten(); }))
    issues.push_back("no operand is written");
  // A written operand's elements are counted as a range: each axis must
  // follow one loop one-to-one (no stride, no window, no diagonal).
  for (const Operand &operand : operands) {
    if (!operand.isWritten())
      continue;
    for (const Coordinate &coordinate : operand.projection)
      if (coordinate.terms.size() > 1 ||
          (coordinate.terms.size() == 1 &&
           std::abs(coordinate.terms[0].coefficient) != 1)) {
        issues.push_back("operand '" + operand.name + "' is written through '" +
                         format(coordinate) +
                         "'; only written axes that follow one loop are "
                         "modelled");
        break;
      }
  }
  if (issues.empty() && iterations() == kSaturated)
    issues.push_back("the loops iterate more than 2^63 times");
  for (unsigned o = 0; issues.empty() && o < operands.size(); ++o)
    if (footprint(o) == kSaturated)
      issues.push_back("operand '" + operands[o].name +
                       "' has more than 2^63 words");
  return issues;
}

} // namespace marlmap
