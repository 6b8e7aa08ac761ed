//===- ProgressHub.cpp - Progress events from every search ----------------===//

#include "ProgressHub.h"

namespace marlmap {

ProgressHub::ProgressHub(const ProgressCallback &callback, size_t total,
                         double secondsBudget)
    : callback(callback), begin(std::chrono::steady_clock::now()),
      lastProgress(begin), total(total), secondsBudget(secondsBudget) {}

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
  return event;
}

void ProgressHub::start() {
  std::lock_guard<std::mutex> lock(mutex);
  if (callback)
    callback(event(MapperEvent::Kind::Start));
}

void ProgressHub::addSamples(int64_t delta) {
  std::lock_guard<std::mutex> lock(mutex);
  samples += delta;
  auto now = std::chrono::steady_clock::now();
  if (!callback || now - lastProgress < std::chrono::milliseconds(100))
    return;
  lastProgress = now;
  callback(event(MapperEvent::Kind::Progress));
}

void ProgressHub::problemDone(size_t problem, const ProblemOutcome &outcome) {
  std::lock_guard<std::mutex> lock(mutex);
  ++done;
  if (!callback)
    return;
  MapperEvent done = event(MapperEvent::Kind::ProblemDone);
  done.problem = problem;
  done.outcome = &outcome;
  callback(done);
}

void ProgressHub::finish() {
  std::lock_guard<std::mutex> lock(mutex);
  if (callback)
    callback(event(MapperEvent::Kind::Finish));
}

} // namespace marlmap
