//===- ProgressHub.h - Progress events from every search --------*- C++ -*-===//
//
// Searches on several threads report here; the hub counts, and calls the
// caller's callback one call at a time, with Progress events at most ten
// times a second.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_MAPPER_PROGRESSHUB_H
#define MARLMAP_LIB_MAPPER_PROGRESSHUB_H

#include "marlmap/Mapper/Mapper.h"

#include <chrono>
#include <mutex>

namespace marlmap {

class ProgressHub {
public:
  ProgressHub(const ProgressCallback &callback, size_t total,
              double secondsBudget);
  void start();
  /// `delta` more samples spent by some search.
  void addSamples(int64_t delta);
  void problemDone(size_t problem, const ProblemOutcome &outcome);
  void finish();

private:
  MapperEvent event(MapperEvent::Kind kind) const;

  const ProgressCallback &callback;
  std::mutex mutex;
  std::chrono::steady_clock::time_point begin, lastProgress;
  size_t total, done = 0;
  int64_t samples = 0;
  double secondsBudget;
};

} // namespace marlmap

#endif // MARLMAP_LIB_MAPPER_PROGRESSHUB_H
