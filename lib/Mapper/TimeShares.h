//===- TimeShares.h - A network's time shared among problems ----*- C++ -*-===//
//
// Searchers that take one problem at a time get a share of the network's
// time as each problem starts (docs/Mapper.md): its weight's part of the
// worker-seconds left, those promised to running problems set aside, never
// past the deadline. A problem that ends early leaves its time to those
// after it. A search that can go on where it stopped (Searcher::resume)
// and is stopped by its share waits for a second round: once every problem
// has started, a waiting one going on gets its weight's part of what is
// left among the waiting. Problems still in their first round, which may
// wait later, are not counted: counting them cut the second round into
// shorter runs and proved fewer of ResNet-50's problems (docs/Search.md).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_TIMESHARES_H
#define MARLMAP_LIB_MAPPER_TIMESHARES_H

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>

namespace marlmap {

using Clock = std::chrono::steady_clock;

inline double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

class TimeShares {
public:
  /// `totalWeight`: the weights of every problem to start.
  TimeShares(Clock::time_point deadline, unsigned workers, double totalWeight)
      : deadline(deadline), workers(workers), startWeight(totalWeight) {}

  /// The seconds a problem of `weight` starting now may run; `job` names it
  /// until finish.
  double start(size_t job, double weight) {
    return share(job, weight, startWeight);
  }
  /// The problem stopped at its share and waits to go on.
  void wait(double weight);
  /// The seconds a waiting problem of `weight` going on now may run.
  double resume(size_t job, double weight) {
    return share(job, weight, waitingWeight);
  }
  /// The problem `job` stopped: its promise is void.
  void finish(size_t job);
  /// Seconds to the deadline (negative past it).
  double secondsLeft() const { return secondsBetween(Clock::now(), deadline); }

private:
  /// The seconds of the worker-seconds left, those promised set aside, that
  /// `weight` of `pool` takes (never past the deadline), promised to `job`;
  /// `weight` leaves `pool`.
  double share(size_t job, double weight, double &pool);

  std::mutex mutex;
  Clock::time_point deadline;
  unsigned workers;
  /// The weights of the problems not yet started, and of those waiting.
  double startWeight, waitingWeight = 0.0;
  /// When each running problem's share ends.
  std::map<size_t, Clock::time_point> running;
};

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_TIMESHARES_H
