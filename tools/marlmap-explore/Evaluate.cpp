//===- Evaluate.cpp - The figures of a mapping that is given --------------===//

#include "Explore.h"

#include "marlmap/Report/JsonReport.h"
#include "marlmap/Report/TextView.h"

namespace marlmap::explore {

int evaluate(const Options &options, const Job &job) {
  if (!job.mapping)
    fail("nothing to evaluate: " + job.source +
         " carries no mapping (give --timeloop-mapping, or --searcher)");
  llvm::Expected<CostedMapping> costed =
      costMapping(*job.mapping, job.problem, job.arch);
  if (!costed)
    fail("the mapping " + errorText(costed.takeError()));
  const Evaluation &evaluation = costed->evaluation;
  if (!evaluation.valid)
    fail("the mapping is invalid: " + evaluation.describeInvalid(job.arch));
  emit(options, evaluationToJson(evaluation, job.problem, job.arch),
       job.source + " on " + job.arch.name + "\n" +
           mappedOpText(*job.mapping, job.problem, job.arch, evaluation,
                        costed->bound));
  writeTimeloop(options, job.problem, job.arch, &*job.mapping);
  return 0;
}

} // namespace marlmap::explore
