//===- Clustering.cpp - Which decisions belong to the same agent ----------===//

#include "marlmap/Search/Clustering.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace marlmap {

double interaction(const std::vector<std::vector<int64_t>> &samples,
                   const std::vector<double> &y, unsigned i, unsigned j) {
  const double n = double(samples.size());
  if (samples.size() < 4)
    return 0.0;
  double mean = 0.0;
  for (double v : y)
    mean += v;
  mean /= n;
  // Cell and margin sums of the two-way layout.
  std::map<int64_t, std::pair<double, double>> rows, columns; // sum, count
  std::map<std::pair<int64_t, int64_t>, std::pair<double, double>> cells;
  for (size_t s = 0; s < samples.size(); ++s) {
    auto add = [&](std::pair<double, double> &acc) {
      acc.first += y[s];
      acc.second += 1;
    };
    add(rows[samples[s][i]]);
    add(columns[samples[s][j]]);
    add(cells[{samples[s][i], samples[s][j]}]);
  }
  // Interaction: what the cell means keep beyond the two main effects;
  // residual: the spread within cells.
  double interactionSS = 0.0, residualSS = 0.0;
  for (auto &[cell, acc] : cells) {
    double cellMean = acc.first / acc.second;
    double rowEffect = rows[cell.first].first / rows[cell.first].second - mean;
    double columnEffect =
        columns[cell.second].first / columns[cell.second].second - mean;
    double excess = cellMean - mean - rowEffect - columnEffect;
    interactionSS += acc.second * excess * excess;
  }
  for (size_t s = 0; s < samples.size(); ++s) {
    const auto &acc = cells[{samples[s][i], samples[s][j]}];
    double d = y[s] - acc.first / acc.second;
    residualSS += d * d;
  }
  double interactionDf = double(rows.size() - 1) * double(columns.size() - 1);
  double residualDf = n - double(cells.size());
  if (interactionDf <= 0 || residualDf <= 0)
    return 0.0;
  if (residualSS <= 0)
    return interactionSS > 0 ? INFINITY : 0.0;
  return (interactionSS / interactionDf) / (residualSS / residualDf);
}

namespace {

/// Union-find over decision indices.
struct Groups {
  explicit Groups(unsigned n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0u);
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  }
  Clusters clusters() {
    std::map<unsigned, std::vector<unsigned>> byRoot;
    for (unsigned x = 0; x < parent.size(); ++x)
      byRoot[find(x)].push_back(x);
    Clusters out;
    for (auto &[root, members] : byRoot)
      out.push_back(std::move(members));
    return out;
  }
  std::vector<unsigned> parent;
};

} // namespace

Clusters clusterDecisions(const std::vector<std::vector<int64_t>> &samples,
                          const std::vector<double> &costs,
                          unsigned numDecisions,
                          const ClusteringOptions &options) {
  // The analysis reads the valid samples' log costs.
  std::vector<std::vector<int64_t>> valid;
  std::vector<double> y;
  for (size_t s = 0; s < samples.size(); ++s)
    if (std::isfinite(costs[s]) && costs[s] > 0) {
      valid.push_back(samples[s]);
      y.push_back(std::log(costs[s]));
    }

  std::vector<std::vector<double>> strength(
      numDecisions, std::vector<double>(numDecisions, 0.0));
  Groups groups(numDecisions);
  for (unsigned i = 0; i < numDecisions; ++i)
    for (unsigned j = i + 1; j < numDecisions; ++j) {
      strength[i][j] = strength[j][i] = interaction(valid, y, i, j);
      if (options.clusters == 0 && strength[i][j] > options.threshold)
        groups.join(i, j);
    }
  if (options.clusters == 0)
    return groups.clusters();

  // A forced count: agglomerate by average linkage from singletons.
  Clusters clusters = singletonClusters(numDecisions);
  while (clusters.size() > std::max(1u, options.clusters)) {
    double best = -1.0;
    size_t a = 0, b = 1;
    for (size_t x = 0; x < clusters.size(); ++x)
      for (size_t y = x + 1; y < clusters.size(); ++y) {
        double total = 0.0;
        for (unsigned i : clusters[x])
          for (unsigned j : clusters[y])
            total += strength[i][j];
        double average =
            total / double(clusters[x].size() * clusters[y].size());
        if (average > best) {
          best = average;
          a = x;
          b = y;
        }
      }
    clusters[a].insert(clusters[a].end(), clusters[b].begin(),
                       clusters[b].end());
    std::sort(clusters[a].begin(), clusters[a].end());
    clusters.erase(clusters.begin() + b);
  }
  std::sort(clusters.begin(), clusters.end());
  return clusters;
}

double correlationRatio(const std::vector<std::vector<int64_t>> &samples,
                        const std::vector<double> &y, unsigned i) {
  if (samples.size() < 2)
    return 0.0;
  double mean = 0.0;
  for (double v : y)
    mean += v;
  mean /= double(y.size());
  std::map<int64_t, std::pair<double, double>> groups; // sum, count
  double total = 0.0;
  for (size_t s = 0; s < samples.size(); ++s) {
    auto &group = groups[samples[s][i]];
    group.first += y[s];
    group.second += 1;
    total += (y[s] - mean) * (y[s] - mean);
  }
  if (total <= 0)
    return 0.0;
  double between = 0.0;
  for (const auto &[value, group] : groups) {
    const double d = group.first / group.second - mean;
    between += group.second * d * d;
  }
  return std::sqrt(std::min(1.0, between / total));
}

Clusters correlationClusters(const std::vector<std::vector<int64_t>> &samples,
                             const std::vector<double> &costs,
                             unsigned numDecisions, unsigned clusters) {
  if (numDecisions == 0)
    return {};
  // The objective as ranks, invalid samples tied below every valid one:
  // a warm-up that is mostly invalid still says which decisions make a
  // mapping fit.
  std::vector<size_t> order(samples.size());
  std::iota(order.begin(), order.end(), size_t(0));
  auto costOf = [&](size_t s) {
    return std::isfinite(costs[s]) && costs[s] > 0 ? costs[s] : INFINITY;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return costOf(a) < costOf(b); });
  std::vector<double> y(samples.size());
  for (size_t k = 0; k < order.size();) {
    size_t tied = k;
    while (tied < order.size() && costOf(order[tied]) == costOf(order[k]))
      ++tied;
    for (size_t t = k; t < tied; ++t)
      y[order[t]] = 0.5 * double(k + tied - 1);
    k = tied;
  }
  size_t valid = 0;
  for (size_t s = 0; s < samples.size(); ++s)
    valid += std::isfinite(costOf(s));
  if (samples.size() < kMinCorrelationSamples || valid == 0)
    return singletonClusters(numDecisions);
  std::vector<std::pair<double, unsigned>> ratios;
  for (unsigned i = 0; i < numDecisions; ++i)
    ratios.push_back({correlationRatio(samples, y, i), i});
  std::sort(ratios.begin(), ratios.end());
  // Where the sorted ratios are cut: a cluster spans no more than the
  // noise from its lowest ratio, or the widest gaps.
  std::vector<size_t> cuts;
  if (clusters == 0) {
    const double noise = 1.0 / std::sqrt(double(samples.size()));
    double start = ratios.front().first;
    for (size_t k = 1; k < ratios.size(); ++k)
      if (ratios[k].first - start > noise) {
        cuts.push_back(k);
        start = ratios[k].first;
      }
  } else {
    std::vector<std::pair<double, size_t>> gaps;
    for (size_t k = 1; k < ratios.size(); ++k)
      gaps.push_back({ratios[k].first - ratios[k - 1].first, k});
    std::stable_sort(gaps.begin(), gaps.end(), [](const auto &a, const auto &b) {
      return a.first > b.first;
    });
    for (size_t k = 0; k + 1 < clusters && k < gaps.size(); ++k)
      cuts.push_back(gaps[k].second);
    std::sort(cuts.begin(), cuts.end());
  }
  Clusters out(1);
  for (size_t k = 0, next = 0; k < ratios.size(); ++k) {
    if (next < cuts.size() && cuts[next] == k) {
      out.emplace_back();
      ++next;
    }
    out.back().push_back(ratios[k].second);
  }
  for (std::vector<unsigned> &cluster : out)
    std::sort(cluster.begin(), cluster.end());
  std::sort(out.begin(), out.end());
  return out;
}

Clusters singletonClusters(unsigned numDecisions) {
  Clusters clusters;
  for (unsigned i = 0; i < numDecisions; ++i)
    clusters.push_back({i});
  return clusters;
}

Clusters randomClusters(unsigned numDecisions, unsigned count, Rng &rng) {
  count = std::max(1u, std::min(count, numDecisions));
  std::vector<unsigned> order(numDecisions);
  std::iota(order.begin(), order.end(), 0u);
  for (unsigned i = numDecisions; i > 1; --i)
    std::swap(order[i - 1], order[rng.below(i)]);
  Clusters clusters(count);
  for (unsigned k = 0; k < numDecisions; ++k)
    clusters[k % count].push_back(order[k]);
  for (std::vector<unsigned> &cluster : clusters)
    std::sort(cluster.begin(), cluster.end());
  std::sort(clusters.begin(), clusters.end());
  return clusters;
}

} // namespace marlmap
