//===- TimeShares.cpp - A network's time shared among problems ------------===//

#include "TimeShares.h"

#include <algorithm>

namespace marlmap {

double TimeShares::share(size_t job, double weight, double &pool) {
  std::lock_guard<std::mutex> lock(mutex);
  Clock::time_point now = Clock::now();
  double left = secondsBetween(now, deadline);
  double promised = 0;
  for (const auto &[other, end] : running)
    promised += std::max(0.0, secondsBetween(now, end));
  double seconds = std::max(0.0, left * workers - promised) * weight /
                   std::max(pool, weight);
  pool = std::max(0.0, pool - weight);
  seconds = std::clamp(seconds, 0.0, std::max(left, 0.0));
  running[job] = now + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(seconds));
  return seconds;
}

void TimeShares::wait(double weight) {
  std::lock_guard<std::mutex> lock(mutex);
  waitingWeight += weight;
}

void TimeShares::finish(size_t job) {
  std::lock_guard<std::mutex> lock(mutex);
  running.erase(job);
}

} // namespace marlmap
