//===- SearchReport.cpp - One problem's search as JSON --------------------===//

#include "marlmap/Report/SearchReport.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Search/Decisions.h"

namespace marlmap {

llvm::json::Object searchToJson(const Problem &problem, const Arch &arch,
                                const MapSpace &space,
                                const MapperRequest &request,
                                const ProblemOutcome &outcome) {
  llvm::json::Object report;
  if (outcome.found)
    report = evaluationToJson(outcome.evaluation, problem, arch);
  else
    report["found"] = false;
  report["searcher"] = describeSearcher(request.searcher);
  report["objective"] = objectiveName(request.objective);
  // The space searched: under factors=auto, the one chosen for the problem.
  report["factors"] = factorSpaceName(outcome.factors);
  if (request.factorsWhereTheyPay)
    report["factors_option"] = kFactorsAuto;
  report["seed"] = request.seed;
  report["budget"] = request.samples == 0 && request.seconds > 0
                         ? llvm::json::Value(nullptr)
                         : llvm::json::Value(sampleCap(request));
  if (request.seconds > 0)
    report["time_budget"] = request.seconds;
  report["source"] = sourceName(outcome.source);
  report["samples"] = outcome.samples;
  report["valid_samples"] = outcome.validSamples;
  report["stopped_early"] = outcome.stoppedEarly;
  report["seconds"] = outcome.seconds;
  report["space_log10"] = space.log10Size();
  // How the policy searchers see the space: parameters with many choices
  // are split into small decisions (docs/Search.md).
  report["space_parameters"] = int64_t(space.parameters().size());
  report["space_decisions"] = int64_t(DecisionSpace(space).decisions().size());
  report["lower_bound"] = lowerBoundToJson(outcome.bound);
  report["proved_optimal"] = outcome.provedOptimal;
  report["objective_lower_bound"] = outcome.objectiveLowerBound;
  if (std::optional<double> gap = gapToOptimum(outcome, request.objective))
    report["gap_to_optimum"] = *gap;
  else
    report["gap_to_optimum"] = nullptr;
  if (outcome.found)
    report["mapping"] = mappingToJson(outcome.mapping, problem, arch);
  if (!outcome.agents.empty()) {
    llvm::json::Array agents;
    for (const std::vector<std::string> &names : outcome.agents)
      agents.push_back(llvm::json::Array(names));
    report["clusters"] = std::move(agents);
    report["agents_from_weights"] = int64_t(outcome.agentsFromWeights);
  }
  llvm::json::Array curve;
  for (auto [samples, cost] : outcome.curve)
    curve.push_back(llvm::json::Array{samples, cost});
  report["curve"] = std::move(curve);
  return report;
}

} // namespace marlmap
