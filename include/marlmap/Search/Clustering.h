//===- Clustering.h - Which decisions belong to the same agent --*- C++ -*-===//
//
// The multi-agent searcher gives each agent a cluster of decisions that
// interact, so that an agent learns what goes together and agents need not
// coordinate. Interaction is measured on warm-up samples: two decisions
// interact when the log cost of a pair of values is not the sum of what each
// value does alone (a two-way analysis of variance: the F statistic of the
// interaction term). docs/Search.md explains the choice.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_CLUSTERING_H
#define MARLMAP_SEARCH_CLUSTERING_H

#include "marlmap/Core/Random.h"

#include <cstdint>
#include <vector>

namespace marlmap {

using Clusters = std::vector<std::vector<unsigned>>;

struct ClusteringOptions {
  /// Decisions whose interaction F statistic exceeds this join one cluster
  /// (about 1 when they do not interact).
  double threshold = 4.0;
  /// When non-zero: exactly this many clusters (merging the most associated
  /// first, or keeping the components when there are fewer).
  unsigned clusters = 0;
};

/// The F statistic of the interaction of decisions `i` and `j` on `y` (the
/// log costs of `samples`): near 1 when their effects add, large when they
/// interact; 0 when the samples cannot tell.
double interaction(const std::vector<std::vector<int64_t>> &samples,
                   const std::vector<double> &y, unsigned i, unsigned j);

/// Clusters of decision indices from warm-up `samples` with their `costs`
/// (lower is better; invalid samples carry +infinity and are ignored).
/// Every decision is in exactly one cluster; clusters and their members are
/// sorted.
Clusters clusterDecisions(const std::vector<std::vector<int64_t>> &samples,
                          const std::vector<double> &costs,
                          unsigned numDecisions,
                          const ClusteringOptions &options);

/// How much of the spread of `y` (the log costs of `samples`) the value of
/// decision `i` explains: the correlation ratio, from 0 (the mean log cost
/// is the same whatever its value) to 1; the categorical counterpart of
/// the magnitude of a correlation.
double correlationRatio(const std::vector<std::vector<int64_t>> &samples,
                        const std::vector<double> &y, unsigned i);

/// The method paper's reading of its clustering: decisions whose
/// correlation with the objective is alike share an agent. Sorted by their
/// correlation ratio on the valid warm-up samples, each cluster takes the
/// decisions within the ratio's noise (1 / sqrt(valid samples)) of its
/// lowest, so the count follows from the data; `clusters` non-zero instead
/// splits at the widest gaps into that many. Below kMinCorrelationSamples valid samples
/// nothing can be told apart: one decision per cluster.
Clusters correlationClusters(const std::vector<std::vector<int64_t>> &samples,
                             const std::vector<double> &costs,
                             unsigned numDecisions, unsigned clusters);
constexpr unsigned kMinCorrelationSamples = 8;

/// One decision per cluster: the "no clustering" ablation.
Clusters singletonClusters(unsigned numDecisions);
/// `count` clusters of random members: the "random clustering" ablation.
Clusters randomClusters(unsigned numDecisions, unsigned count, Rng &rng);

} // namespace marlmap

#endif // MARLMAP_SEARCH_CLUSTERING_H
