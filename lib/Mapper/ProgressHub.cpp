//===- ProgressHub.cpp - Progress events from every search ----------------===//

#include "ProgressHub.h"

namespace marlmap {

namespace {

constexpr int64_t kProgressEveryNs = 100'000'000;

} // namespace

ProgressHub::ProgressHub(const ProgressCallback &callback, size_t total,
                         double secondsBudget, int64_t sampleCap)
    : callback(callback), begin(std::chrono::steady_clock::now()), total(total),
      secondsBudget(secondsBudget), sampleCap(sampleCap) {}

MapperEvent ProgressHub::event(MapperEvent::Kind kind) const {
  MapperEvent event;
  event.kind = kind;
  event.total = total;
  event.done = done;
  event.samples = samples;
  event.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
          .count();
  event.secondsBudget = secondsBudget;
  event.sampleCap = sampleCap;
  return event;
}

void ProgressHub::start() {
  std::lock_guard<std::mutex> lock(calling);
  if (callback)
    callback(event(MapperEvent::Kind::Start));
}

void ProgressHub::addSamples(int64_t delta) {
  samples += delta;
  if (!callback)
    return;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now() - begin)
                          .count();
  int64_t last = lastProgress;
  if (now - last < kProgressEveryNs ||
      !lastProgress.compare_exchange_strong(last, now))
    return;
  std::unique_lock<std::mutex> lock(calling, std::try_to_lock);
  if (lock.owns_lock())
    callback(event(MapperEvent::Kind::Progress));
}

void ProgressHub::problemDone(size_t problem, const ProblemOutcome &outcome) {
  std::lock_guard<std::mutex> lock(calling);
  ++done;
  if (!callback)
    return;
  MapperEvent finished = event(MapperEvent::Kind::ProblemDone);
  finished.problem = problem;
  finished.outcome = &outcome;
  callback(finished);
}

void ProgressHub::finish() {
  std::lock_guard<std::mutex> lock(calling);
  if (callback)
    callback(event(MapperEvent::Kind::Finish));
}

} // namespace marlmap
