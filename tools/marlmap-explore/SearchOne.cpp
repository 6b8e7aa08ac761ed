//===- SearchOne.cpp - The best mapping of one problem --------------------===//

#include "Explore.h"

#include "marlmap/Report/SearchReport.h"
#include "marlmap/Report/TextView.h"

#include "llvm/Support/FormatVariadic.h"

namespace marlmap::explore {

namespace {

/// The search in a line, where its result stands when the searcher
/// bounds the space, then what it found as a loop nest with its
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
  std::string optimum = optimumText(outcome, mapper.request().objective);
  if (!optimum.empty())
    text += optimum + "\n";
  return text + mappedOpText(outcome.mapping, job.problem, job.arch,
                             outcome.evaluation, outcome.bound);
}

} // namespace

int searchOne(const Options &options, const Job &job) {
  std::unique_ptr<Mapper> mapper = mapperFor(options, job.arch);
  llvm::Expected<SearchedProblem> searched =
      searchProblem(*mapper, job.problem, progressPrinter(options));
  if (!searched)
    fail(searched.takeError());
  printWarnings(searched->result);
  const ProblemOutcome &outcome = searched->outcome();
  writeReport(options, {{job.source, "", 0, ""}},
              {{&mapper->request(), &searched->result}});
  emit(options,
       searchToJson(job.problem, job.arch, *searched->space, mapper->request(),
                    outcome),
       searchText(job, *mapper, outcome));
  writeTimeloop(options, job.problem, job.arch,
                outcome.found ? &outcome.mapping : nullptr);
  return outcome.found ? 0 : 2;
}

} // namespace marlmap::explore
