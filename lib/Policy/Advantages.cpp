//===- Advantages.cpp - Shaping a batch's rewards into advantages ---------===//

#include "Advantages.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace marlmap {

std::vector<float> shapeAdvantages(const std::vector<float> &rewards,
                                   PolicyOptions::Advantage shaping) {
  const size_t n = rewards.size();
  std::vector<size_t> bestFirst(n);
  std::iota(bestFirst.begin(), bestFirst.end(), 0);
  std::sort(bestFirst.begin(), bestFirst.end(),
            [&](size_t a, size_t b) { return rewards[a] > rewards[b]; });
  auto weightOfRank = [&](size_t i) {
    if (shaping == PolicyOptions::Advantage::Ranks)
      return double(n - 1 - i);
    return std::max(0.0, std::log(n / 2.0 + 1.0) - std::log(i + 1.0));
  };
  std::vector<double> advantages(n);
  for (size_t first = 0; first < n;) {
    size_t last = first;
    while (last + 1 < n &&
           rewards[bestFirst[last + 1]] == rewards[bestFirst[first]])
      ++last;
    double sum = 0.0;
    for (size_t i = first; i <= last; ++i)
      sum += weightOfRank(i);
    for (size_t i = first; i <= last; ++i)
      advantages[bestFirst[i]] = sum / double(last - first + 1);
    first = last + 1;
  }
  const double mean =
      std::accumulate(advantages.begin(), advantages.end(), 0.0) / double(n);
  double squares = 0.0;
  for (double a : advantages)
    squares += (a - mean) * (a - mean);
  const double spread = std::sqrt(squares / double(n)) + 1e-6;
  std::vector<float> centred(n);
  for (size_t i = 0; i < n; ++i)
    centred[i] = float((advantages[i] - mean) / spread);
  return centred;
}

} // namespace marlmap
