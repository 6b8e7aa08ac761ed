//===- Advantages.h - Shaping a batch's rewards into advantages -*- C++ -*-===//
//
// Every agent learns from one advantage per proposal, derived from the
// proposals' rewards by rank only: how a proposal places among the others,
// not by how many orders of magnitude, so one outlier or a batch of invalid
// proposals cannot swamp the rest.
//
// Private to libMarlmapPolicy.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_POLICY_ADVANTAGES_H
#define MARLMAP_LIB_POLICY_ADVANTAGES_H

#include "marlmap/Search/Searcher.h"

#include <vector>

namespace marlmap {

/// Advantages of `rewards` (higher is better; -inf for invalid proposals),
/// centred and scaled to unit spread. Ranks: linear in the rank. Utilities
/// (the fitness shaping of natural evolution strategies, Wierstra et al.
/// 2014): the proposal ranked i-th best (from 1) of n weighs
/// max(0, ln(n/2 + 1) - ln i), so the better half is pulled up, the best
/// most, and the worse half is pushed down evenly. Tied rewards share the
/// mean weight of their ranks.
std::vector<float> shapeAdvantages(const std::vector<float> &rewards,
                                   PolicyOptions::Advantage shaping);

} // namespace marlmap

#endif // MARLMAP_LIB_POLICY_ADVANTAGES_H
