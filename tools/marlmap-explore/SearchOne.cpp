//===- SearchOne.cpp - The best mapping of one problem --------------------===//

#include "Explore.h"

#include "marlmap/Report/JsonReport.h"
#include "marlmap/Report/TextView.h"
#include "marlmap/Search/Decisions.h"

#include "llvm/Support/FormatVariadic.h"

namespace marlmap::explore {

namespace {

/// Everything about the search as JSON: the figures of what it found, the
/// space, the budget, the curve and, for agents, what each one owned.
llvm::json::Object searchJson(const Job &job, const MapSpace &space,
                              const Mapper &mapper,
                              const ProblemOutcome &outcome) {
  const MapperRequest &request = mapper.request();
  llvm::json::Object report;
  if (outcome.found)
    report = evaluationToJson(outcome.evaluation, job.problem, job.arch);
  else
    report["found"] = false;
  report["searcher"] = describeSearcher(request.searcher);
  report["objective"] = objectiveName(request.objective);
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
  if (outcome.found)
    report["mapping"] = mappingToJson(outcome.mapping, job.problem, job.arch);
  if (!outcome.agents.empty()) {
    llvm::json::Array agents;
    for (const std::vector<std::string> &names : outcome.agents)
      agents.push_back(llvm::json::Array(names));
    report["clusters"] = std::move(agents);
  }
  llvm::json::Array curve;
  for (auto [samples, cost] : outcome.curve)
    curve.push_back(llvm::json::Array{samples, cost});
  report["curve"] = std::move(curve);
  return report;
}

/// The search in a line, then what it found as a loop nest with its
/// breakdown.
std::string searchText(const Job &job, const Mapper &mapper,
                       const ProblemOutcome &outcome) {
  std::string text = llvm::formatv(
      "{0} on {1}: {2} by {3} ({4}), {5} samples ({6} valid) in {7:f2} s\n",
      job.source, job.arch.name,
      outcome.found ? "the best mapping found" : "no valid mapping found",
      describeSearcher(mapper.request().searcher), budgetKey(mapper.request()),
      outcome.samples, outcome.validSamples, outcome.seconds);
  if (!outcome.found)
    return text;
  return text + mappedOpText(outcome.mapping, job.problem, job.arch,
                             outcome.evaluation, outcome.bound);
}

} // namespace

int searchOne(const Options &options, const Job &job) {
  std::string error;
  std::unique_ptr<MapSpace> space =
      MapSpace::create(job.problem, job.arch, {}, error);
  if (!space)
    fail(error);
  std::unique_ptr<Mapper> mapper = mapperFor(options, job.arch);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult result = mapper->map({{job.problem, std::nullopt}}, *executor,
                                    progressPrinter(options));
  const ProblemOutcome &outcome = result.problems.front();
  // A searcher that could not be made spent nothing.
  if (!outcome.error.empty())
    fail(outcome.samples ? "the search failed: " + outcome.error
                         : outcome.error);
  writeReport(options, {{job.source, "", 0, ""}},
              {{&mapper->request(), &result}});
  emit(options, searchJson(job, *space, *mapper, outcome),
       searchText(job, *mapper, outcome));
  writeTimeloop(options, job.problem, job.arch,
                outcome.found ? &outcome.mapping : nullptr);
  return outcome.found ? 0 : 2;
}

} // namespace marlmap::explore
