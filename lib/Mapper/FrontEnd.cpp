//===- FrontEnd.cpp - What the pass, the tools and Python share -----------===//

#include "marlmap/Mapper/FrontEnd.h"
#include "marlmap/Core/Error.h"

namespace marlmap {

llvm::Expected<MapperRequest> makeRequest(const MapperOptions &options) {
  MapperRequest request;
  std::optional<Objective> objective = parseObjective(options.objective);
  if (!objective)
    return llvm::make_error<OptionError>(
        "objective",
        "must be " + objectiveNameList() + ", not '" + options.objective + "'");
  request.objective = *objective;
  if (options.factors == kFactorsAuto) {
    // Partial tiles where they pay are spatial ones: the gain auto looks
    // for is a fuller array, and the smaller space searches faster
    // (docs/MapSpace.md).
    request.factors = FactorSpace::SpatialImperfect;
    request.factorsWhereTheyPay = true;
  } else if (std::optional<FactorSpace> factors =
                 parseFactorSpace(options.factors)) {
    request.factors = *factors;
  } else {
    return llvm::make_error<OptionError>("factors",
                                         "must be " + factorSpaceNameList() +
                                             ", not '" + options.factors + "'");
  }
  if (llvm::Error refused = checkThreads(options.threads))
    return std::move(refused);
  // Given, a budget must be one: 0 is not "the default" (Mapper::create
  // checks the rest of the request).
  if (options.budget) {
    if (llvm::Error refused = checkBudget(*options.budget))
      return std::move(refused);
    request.samples = *options.budget;
  }
  if (options.seconds) {
    if (llvm::Error refused = checkSeconds(*options.seconds))
      return std::move(refused);
    request.seconds = *options.seconds;
  }
  request.stopAfter = options.stopAfter;
  if (!options.searcher.empty())
    request.searcher.name = options.searcher;
  request.searcher.options = options.searcherOptions;
  request.searcher.policyLibrary = options.policyLibrary;
  request.seed = options.seed;
  request.cache = options.cache;
  return request;
}

llvm::Expected<std::unique_ptr<Mapper>> makeMapper(const MapperOptions &options,
                                                   const Arch &arch) {
  llvm::Expected<MapperRequest> request = makeRequest(options);
  if (!request)
    return request.takeError();
  request->arch = arch;
  return Mapper::create(std::move(*request));
}

llvm::Expected<CostedMapping>
costMapping(const Mapping &mapping, const Problem &problem, const Arch &arch) {
  std::vector<std::string> misfits = checkMappingShape(mapping, problem, arch);
  if (!misfits.empty())
    return makeError("does not fit '" + arch.name + "': " + misfits.front());
  CostModel model(problem, arch);
  return CostedMapping{model.evaluate(mapping), model.lowerBound()};
}

llvm::Expected<SearchedProblem>
searchProblem(const Mapper &mapper, const Problem &problem,
              const ProgressCallback &progress) {
  SearchedProblem searched;
  std::unique_ptr<Executor> caller = makeThreadExecutor(1);
  searched.result = mapper.map({{problem, std::nullopt}}, *caller, progress);
  if (!searched.result.error.empty()) {
    if (searched.result.errorIsSetting)
      return makeError(searched.result.error);
    return llvm::make_error<SearchError>(searched.result.error);
  }
  const ProblemOutcome &outcome = searched.outcome();
  if (outcome.noMapSpace)
    return makeError(outcome.notFound);
  // The space the Mapper chose for it (under factors=auto, by its floors).
  llvm::Expected<std::unique_ptr<MapSpace>> space =
      MapSpace::create(problem, mapper.request().arch, {}, outcome.factors);
  if (!space)
    return space.takeError();
  searched.space = std::move(*space);
  // A searcher that could not be made spent nothing: its options are wrong.
  if (!outcome.error.empty()) {
    if (!outcome.samples)
      return makeError(outcome.error);
    return llvm::make_error<SearchError>("the search failed: " + outcome.error);
  }
  return searched;
}

} // namespace marlmap
