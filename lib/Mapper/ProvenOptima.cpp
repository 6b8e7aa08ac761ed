//===- ProvenOptima.cpp - Outcomes measured against proven optima ---------===//

#include "ProvenOptima.h"

#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/FrontEnd.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

namespace marlmap {

namespace {

/// Equal up to the rounding of a stored double.
bool sameCost(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

/// The cache's optimum for `outcome`'s problem, costed by the model as it
/// is now; nullopt (with a warning when it is damaged or stale) when there
/// is none to trust.
std::optional<Evaluation> cachedOptimum(const ProblemOutcome &outcome,
                                        const MapperRequest &request,
                                        const OptimumKey &key,
                                        MappingCache &cache,
                                        MapperResult &result) {
  std::optional<ProvenOptimum> kept =
      takeOrWarn(cache.findOptimum(key), result.warnings);
  if (!kept)
    return std::nullopt;
  llvm::Expected<CostedMapping> costed =
      costMapping(kept->mapping, outcome.problem, request.arch);
  if (costed && costed->evaluation.valid &&
      sameCost(objectiveValue(costed->evaluation, request.objective),
               kept->cost))
    return costed->evaluation;
  if (!costed)
    llvm::consumeError(costed.takeError());
  result.warnings.push_back(
      "a proven optimum in the mapping cache for " + outcome.problem.name +
      " no longer fits or no longer costs what it says; ignored");
  return std::nullopt;
}

} // namespace

void measureAgainstOptima(MapperResult &result, const MapperRequest &request,
                          MappingCache *cache) {
  const std::string archText = cache ? cacheText(request.arch) : "";
  const Objective objective = request.objective;
  for (ProblemOutcome &outcome : result.problems) {
    if (!outcome.found)
      continue;
    const double cost = objectiveValue(outcome.evaluation, objective);
    OptimumKey key{outcome.problem.key(), archText, objectiveName(objective),
                   factorSpaceName(outcome.factors)};
    if (outcome.provedOptimal && outcome.source == Source::Searched) {
      outcome.optimum = outcome.evaluation;
      if (cache && !cache->readOnly())
        if (llvm::Error error = cache->storeOptimum(key, outcome.mapping, cost))
          result.warnings.push_back(errorText(std::move(error)));
      continue;
    }
    if (!cache)
      continue;
    std::optional<Evaluation> optimum =
        cachedOptimum(outcome, request, key, *cache, result);
    if (!optimum)
      continue;
    const double best = objectiveValue(*optimum, objective);
    // Below a proven optimum is a contradiction: trust neither claim.
    if (cost < best && !sameCost(cost, best)) {
      result.warnings.push_back(llvm::formatv(
          "{0} ({1}): the mapping found ({2} {3:e6}) beats the proven "
          "optimum in the mapping cache ({4:e6}); the optimum is ignored",
          outcome.problem.name, outcome.problem.boundsText(),
          objectiveName(objective), cost, best));
      continue;
    }
    outcome.optimum = optimum;
    outcome.objectiveLowerBound = std::max(outcome.objectiveLowerBound, best);
    if (sameCost(cost, best))
      outcome.provedOptimal = true;
  }
}

std::optional<double> gapToOptimum(const ProblemOutcome &outcome,
                                   Objective objective) {
  if (!outcome.found || !outcome.optimum)
    return std::nullopt;
  return objectiveValue(outcome.evaluation, objective) /
             objectiveValue(*outcome.optimum, objective) -
         1.0;
}

} // namespace marlmap
