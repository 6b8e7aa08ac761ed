//===- ProgressHub.h - Progress events from every search --------*- C++ -*-===//
//
// Searches on several threads report here. The hub counts, and calls the
// caller's callback one call at a time: Start, each ProblemDone and Finish
// always; Progress at most ten times a second, and skipped rather than
// waited for while another call is running, so that a slow display holds
// no search up in the middle of its work.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_PROGRESSHUB_H
#define MARLMAP_LIB_MAPPER_PROGRESSHUB_H

#include "marlmap/Mapper/Mapper.h"

#include <atomic>
#include <chrono>
#include <mutex>

namespace marlmap {

class ProgressHub {
public:
  /// `total` problems to search, each with `sampleCap` samples (0: no cap)
  /// under `secondsBudget` (0: none).
  ProgressHub(const ProgressCallback &callback, size_t total,
              double secondsBudget, int64_t sampleCap);
  void start();
  /// `delta` more samples spent by some search.
  void addSamples(int64_t delta);
  void problemDone(size_t problem, const ProblemOutcome &outcome);
  void finish();

private:
  MapperEvent event(MapperEvent::Kind kind) const;

  const ProgressCallback &callback;
  /// Held while the callback runs.
  std::mutex calling;
  const std::chrono::steady_clock::time_point begin;
  /// Nanoseconds since `begin` of the last Progress event.
  std::atomic<int64_t> lastProgress{0};
  const size_t total;
  std::atomic<size_t> done{0};
  std::atomic<int64_t> samples{0};
  const double secondsBudget;
  const int64_t sampleCap;
};

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_PROGRESSHUB_H
