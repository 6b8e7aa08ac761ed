//===- TimeShares.cpp - A network's time shared among its problems --------===//

#include "TimeShares.h"

#include <algorithm>

namespace marlmap {

namespace {

double secondsBetween(TimeShares::Clock::time_point from,
                      TimeShares::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

} // namespace

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

double TimeShares::secondsLeft() const {
  return secondsBetween(Clock::now(), deadline);
}

} // namespace marlmap
