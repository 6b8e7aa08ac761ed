//===- Transfer.cpp - What one problem's mappings say about another -------===//

#include "marlmap/Core/Transfer.h"
#include "marlmap/Core/Arithmetic.h"

#include <algorithm>
#include <cmath>

namespace marlmap {

namespace {

/// The entry of ProblemFeatures::log2Bounds for a loop's name.
unsigned featureIndex(const std::optional<DimName> &name) {
  return name ? unsigned(*name) : kNumDimNames;
}

/// For every loop of `to`, the loop of `from` with the same name (the k-th
/// of a name to the k-th), or -1.
std::vector<int> matchLoops(const Problem &from, const Problem &to) {
  std::vector<std::optional<DimName>> fromNames = nameDims(from),
                                      toNames = nameDims(to);
  std::vector<int> match(to.dims.size(), -1);
  std::vector<bool> taken(from.dims.size(), false);
  for (unsigned d = 0; d < to.dims.size(); ++d) {
    if (!toNames[d])
      continue;
    for (unsigned f = 0; f < from.dims.size(); ++f)
      if (!taken[f] && fromNames[f] == toNames[d]) {
        taken[f] = true;
        match[d] = int(f);
        break;
      }
  }
  return match;
}

/// A level's temporal (0), X (1) or Y (2) factor of `dim`.
template <typename Level>
auto &factorOf(Level &level, unsigned kind, unsigned dim) {
  return kind == 0 ? level.temporal[dim]
                   : kind == 1 ? level.spatialX[dim] : level.spatialY[dim];
}

/// The factors of a loop of `bound` over the slots whose factors for a
/// loop of `fromBound` are `fromFactors`, each slot taking about the same
/// share of the bound in log: a prime both bounds have is split as
/// `fromFactors` split it (largest remainders, earlier slots first on
/// ties); the others, largest first, go where the loop is furthest below
/// its share. The same factors when the bounds are equal.
std::vector<int64_t> placeFactors(int64_t bound,
                                  const std::vector<int64_t> &fromFactors,
                                  int64_t fromBound) {
  const size_t slots = fromFactors.size();
  std::vector<int64_t> factors(slots, 1);
  std::vector<double> deficit(slots);
  for (size_t s = 0; s < slots; ++s)
    deficit[s] = std::log2(double(bound)) * std::log2(double(fromFactors[s])) /
                 std::log2(double(fromBound));
  // Largest prime first; those `fromFactors` do not have wait until the
  // others are placed.
  const std::vector<std::pair<int64_t, unsigned>> primes = factorize(bound);
  std::vector<int64_t> unmatched;
  for (auto it = primes.rbegin(); it != primes.rend(); ++it) {
    const auto [prime, copies] = *it;
    std::vector<unsigned> had(slots, 0);
    unsigned total = 0;
    for (size_t s = 0; s < slots; ++s)
      total += had[s] = valuation(fromFactors[s], prime);
    if (total == 0) {
      unmatched.insert(unmatched.end(), copies, prime);
      continue;
    }
    // Largest remainders of copies * had / total.
    std::vector<std::pair<unsigned, size_t>> remainders;
    unsigned given = 0;
    for (size_t s = 0; s < slots; ++s) {
      const unsigned share = copies * had[s] / total;
      for (unsigned c = 0; c < share; ++c)
        factors[s] *= prime;
      deficit[s] -= share * std::log2(double(prime));
      given += share;
      remainders.push_back({copies * had[s] % total, s});
    }
    std::stable_sort(remainders.begin(), remainders.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    for (unsigned k = 0; given < copies; ++k, ++given) {
      factors[remainders[k].second] *= prime;
      deficit[remainders[k].second] -= std::log2(double(prime));
    }
  }
  for (int64_t prime : unmatched) {
    const size_t best = size_t(
        std::max_element(deficit.begin(), deficit.end()) - deficit.begin());
    factors[best] *= prime;
    deficit[best] -= std::log2(double(prime));
  }
  return factors;
}

} // namespace

ProblemFeatures problemFeatures(const Problem &problem) {
  std::vector<std::optional<DimName>> names = nameDims(problem);
  ProblemFeatures features;
  features.kind = opKindOf(names, problem);
  for (unsigned d = 0; d < problem.dims.size(); ++d)
    features.log2Bounds[featureIndex(names[d])] +=
        std::log2(double(std::max<int64_t>(problem.dims[d].bound, 1)));
  for (const Operand &operand : problem.operands) {
    if (operand.role != TensorRole::Inputs)
      continue;
    for (const Coordinate &coordinate : operand.projection) {
      if (coordinate.terms.size() < 2)
        continue;
      for (const ProjectionTerm &term : coordinate.terms)
        features.log2Stride =
            std::max(features.log2Stride,
                     std::log2(double(std::max<int64_t>(
                         std::abs(term.coefficient), 1))));
    }
  }
  return features;
}

double problemDistance(const ProblemFeatures &a, const ProblemFeatures &b) {
  double distance = a.kind == b.kind ? 0.0 : kOtherKindDistance;
  for (unsigned i = 0; i < a.log2Bounds.size(); ++i)
    distance += std::abs(a.log2Bounds[i] - b.log2Bounds[i]);
  return distance + std::abs(a.log2Stride - b.log2Stride);
}

std::vector<std::vector<size_t>>
groupSimilarProblems(const std::vector<ProblemFeatures> &features,
                     unsigned most) {
  std::vector<std::vector<size_t>> groups;
  std::vector<char> grouped(features.size(), 0);
  for (size_t first = 0; first < features.size(); ++first) {
    if (grouped[first])
      continue;
    std::vector<std::pair<double, size_t>> others;
    for (size_t other = first + 1; other < features.size(); ++other)
      if (!grouped[other] && features[other].kind == features[first].kind)
        others.push_back(
            {problemDistance(features[first], features[other]), other});
    std::sort(others.begin(), others.end());
    std::vector<size_t> group{first};
    for (const auto &[distance, other] : others) {
      if (group.size() >= std::max(most, 1u))
        break;
      group.push_back(other);
    }
    for (size_t member : group)
      grouped[member] = 1;
    std::sort(group.begin(), group.end());
    groups.push_back(std::move(group));
  }
  return groups;
}

std::optional<Mapping> transferMapping(const Mapping &mapping,
                                       const Problem &from, const Problem &to,
                                       const Arch &arch) {
  if (!isWellFormed(mapping, arch.levels.size(), from.dims.size(),
                    from.operands.size()))
    return std::nullopt;
  const unsigned numLevels = arch.levels.size();
  const std::vector<int> match = matchLoops(from, to);
  Mapping result;
  for (unsigned l = 0; l < numLevels; ++l)
    result.levels.push_back(
        LevelMapping::identity(to.dims.size(), to.operands.size()));

  // Factors: slot s is level numLevels - 1 - s / 3 (outermost first),
  // temporal, X or Y by s % 3.
  for (unsigned d = 0; d < to.dims.size(); ++d) {
    const int f = match[d];
    if (f < 0 || from.dims[unsigned(f)].bound <= 1) {
      result.levels.back().temporal[d] = to.dims[d].bound;
      continue;
    }
    std::vector<int64_t> fromFactors;
    for (unsigned l = numLevels; l-- > 0;)
      for (unsigned kind = 0; kind < 3; ++kind)
        fromFactors.push_back(factorOf(mapping.levels[l], kind, unsigned(f)));
    std::vector<int64_t> factors = placeFactors(
        to.dims[d].bound, fromFactors, from.dims[unsigned(f)].bound);
    for (unsigned slot = 0; slot < factors.size(); ++slot)
      factorOf(result.levels[numLevels - 1 - slot / 3], slot % 3, d) =
          factors[slot];
  }

  // Orders: by the position of each loop's match; unmatched ones first.
  for (unsigned l = 0; l < numLevels; ++l) {
    std::vector<int> position(from.dims.size(), 0);
    for (unsigned i = 0; i < from.dims.size(); ++i)
      position[mapping.levels[l].order[i]] = int(i);
    std::vector<unsigned> &order = result.levels[l].order;
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      int pa = match[a] < 0 ? -1 : position[unsigned(match[a])];
      int pb = match[b] < 0 ? -1 : position[unsigned(match[b])];
      return pa < pb;
    });
  }

  // Keeps: the k-th operand of a role as the k-th of that role.
  for (unsigned o = 0; o < to.operands.size(); ++o) {
    unsigned occurrence = 0;
    for (unsigned i = 0; i < o; ++i)
      occurrence += to.operands[i].role == to.operands[o].role;
    int counterpart = -1;
    for (unsigned i = 0; i < from.operands.size() && counterpart < 0; ++i)
      if (from.operands[i].role == to.operands[o].role && occurrence-- == 0)
        counterpart = int(i);
    for (unsigned l = 0; l < numLevels; ++l)
      result.levels[l].keep[o] =
          counterpart < 0 || mapping.levels[l].keep[unsigned(counterpart)];
  }
  return result;
}

} // namespace marlmap
