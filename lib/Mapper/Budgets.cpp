//===- Budgets.cpp - Sample and time budgets, and their limits ------------===//

#include "marlmap/Mapper/Budgets.h"

#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/Mapper.h"

#include <cmath>
#include <cstdio>

namespace marlmap {

llvm::Error checkBudget(int64_t samples) {
  if (samples >= 1 && samples <= kMaxBudget)
    return llvm::Error::success();
  return llvm::make_error<OptionError>(
      "budget", "must be between 1 and " + std::to_string(kMaxBudget) +
                    " samples, not " + std::to_string(samples));
}

llvm::Error checkSeconds(double seconds) {
  if (seconds > 0 && seconds <= kMaxSeconds)
    return llvm::Error::success();
  char text[64];
  std::snprintf(text, sizeof(text), "%g", seconds);
  return llvm::make_error<OptionError>(
      "time", "must be above 0 and at most " +
                  std::to_string(int64_t(kMaxSeconds)) + " seconds, not " +
                  text);
}

llvm::Error checkThreads(int64_t threads) {
  if (threads >= 0 && threads <= kMaxThreads)
    return llvm::Error::success();
  return llvm::make_error<OptionError>("threads",
                                       "must be between 0 (one per core) and " +
                                           std::to_string(kMaxThreads) +
                                           ", not " + std::to_string(threads));
}

int64_t sampleCap(const MapperRequest &request) {
  if (request.samples > 0)
    return request.samples;
  return request.seconds > 0 ? kMaxBudget : kDefaultBudget;
}

bool scheduleByTime(const MapperRequest &request) {
  return request.seconds > 0 && request.samples == 0;
}

std::string budgetKey(const MapperRequest &request) {
  std::string key;
  if (request.samples > 0 || request.seconds <= 0)
    key = "samples=" + std::to_string(sampleCap(request));
  if (request.seconds > 0)
    key += (key.empty() ? "seconds=" : " seconds=") +
           canonicalNumber(request.seconds);
  if (request.stopAfter > 0)
    key += " stop-after=" + std::to_string(request.stopAfter);
  return key;
}

} // namespace marlmap
