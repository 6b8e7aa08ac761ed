//===- ThreadExecutor.cpp - Searches on threads of the mapper's own -------===//

#include "marlmap/Mapper/Mapper.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace marlmap {

namespace {

class ThreadExecutor : public Executor {
public:
  explicit ThreadExecutor(unsigned threads) : threads(threads) {}

  unsigned concurrency() const override { return threads; }

  void run(unsigned count, const std::function<void(unsigned)> &task) override {
    // Tasks are few and long (whole searches): a thread per task, at most
    // `threads` at a time, the calling thread one of them.
    unsigned helpers = std::min(threads, count);
    std::atomic<unsigned> next{0};
    auto work = [&] {
      for (unsigned i; (i = next++) < count;)
        task(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < helpers; ++t)
      pool.emplace_back(work);
    work();
    for (std::thread &thread : pool)
      thread.join();
  }

private:
  unsigned threads;
};

} // namespace

std::unique_ptr<Executor> makeThreadExecutor(unsigned threads) {
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  return std::make_unique<ThreadExecutor>(threads);
}

} // namespace marlmap
