//===- Budgets.h - What a mapping may spend ---------------------*- C++ -*-===//
//
// A network is mapped under a sample budget per distinct problem, a
// wall-clock budget for all its searches, or both (docs/Mapper.md).
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_BUDGETS_H
#define MARLMAP_MAPPER_BUDGETS_H

#include "marlmap/Mapper/Defaults.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace marlmap {

struct MapperRequest;

/// The largest sample budget per problem, time budget, and thread count
/// the passes and the tools accept.
constexpr int64_t kMaxBudget = 1'000'000'000;
constexpr double kMaxSeconds = 1'000'000;
constexpr int64_t kMaxThreads = 1024;

/// A sample budget, a time budget or a thread count (0: one per core)
/// checked: an OptionError (Errors.h) names the option when it is refused.
llvm::Error checkBudget(int64_t samples);
llvm::Error checkSeconds(double seconds);
llvm::Error checkThreads(int64_t threads);

/// The sample cap per distinct problem `request` implies: its samples,
/// else kDefaultBudget, or kMaxBudget (no cap) under a time budget alone.
int64_t sampleCap(const MapperRequest &request);
/// Whether the searchers' schedules follow the clock: only when time alone
/// limits the search (with a sample cap too, they follow the samples and
/// the time only stops them, so the two budgets give what the samples
/// alone give when the time suffices).
bool scheduleByTime(const MapperRequest &request);
/// How the budget reads in reports and cache keys: "samples=2000",
/// "seconds=10", "samples=500 seconds=10", with " stop-after=N" for
/// Timeloop's victory condition.
std::string budgetKey(const MapperRequest &request);

} // namespace marlmap

#endif // MARLMAP_MAPPER_BUDGETS_H
