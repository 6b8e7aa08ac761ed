//===- Transfer.h - What one problem's mappings say about another -*- C++ -*-===//
//
// Problems of a network are alike: ResNet-50's 44 distinct convolutions
// differ mostly in channel counts and image size. A mapping found for one
// says where to look for a similar one: tile each loop by the same share of
// its bound at every level, in the same loop order, keeping the same
// operands. Loops are matched by their names (DimNames.h), so the
// correspondence does not depend on how an op numbers its loops.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_CORE_TRANSFER_H
#define MARLMAP_CORE_TRANSFER_H

#include "marlmap/Core/DimNames.h"
#include "marlmap/Core/Mapping.h"

#include <array>
#include <optional>

namespace marlmap {

/// What makes two problems alike for the mapper, whatever their loops are
/// called: the op kind, log2 of the bound of every dim name (the product
/// over the loops of that name; loops without a name together in the last
/// entry), and log2 of the largest stride of a window.
struct ProblemFeatures {
  OpKind kind = OpKind::Other;
  std::array<double, kNumDimNames + 1> log2Bounds{};
  double log2Stride = 0.0;
};

ProblemFeatures problemFeatures(const Problem &problem);

/// How unlike two problems are: the L1 distance of their log bounds and
/// strides, plus kOtherKindDistance when their op kinds differ (a problem
/// of the same kind is always nearer than one of another).
double problemDistance(const ProblemFeatures &a, const ProblemFeatures &b);
constexpr double kOtherKindDistance = 1e6;

/// The problems (by index into `features`) in groups of at most `most`
/// alike ones of one op kind: each group starts from the first problem not
/// yet grouped and takes the problems nearest to it (problemDistance; the
/// earlier on a tie). Depends on the list alone, so a network's groups are
/// the same however its search is split over threads.
std::vector<std::vector<size_t>>
groupSimilarProblems(const std::vector<ProblemFeatures> &features,
                     unsigned most);

/// `mapping` of problem `from` recast for problem `to` on the same `arch`:
/// for every loop of `to` and the loop of `from` with the same name (the
/// k-th of that name to the k-th), the primes of its bound are placed so
/// that each level's temporal, X and Y factors take about the share (in
/// log) of the bound that they take in `mapping`; loops without a match
/// stay at the outermost level. Each level orders its loops as `mapping`
/// orders their matches (unmatched ones outermost) and keeps the operands
/// of the same role. Factors multiply to `to`'s bounds; the fanouts,
/// capacities and constraints are `to`'s map space's business
/// (MapSpace::encodeNearest). nullopt when `mapping` does not fit `from`'s
/// shape or the arch.
std::optional<Mapping> transferMapping(const Mapping &mapping,
                                       const Problem &from, const Problem &to,
                                       const Arch &arch);

} // namespace marlmap

#endif // MARLMAP_CORE_TRANSFER_H
