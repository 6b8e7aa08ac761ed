//===- Running.cpp - The cost model, the searchers and the Mapper ---------===//
//
// evaluate(), search() and map_module() call the front end (FrontEnd.h,
// ModuleMapping.h) as the pass and marlmap-explore do. The GIL is released
// while a search runs.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "PyMarlmap.h"

#include "marlmap/Report/JsonReport.h"
#include "marlmap/Report/SearchReport.h"
#include "marlmap/Transforms/ModuleMapping.h"

#include <algorithm>

namespace marlmap::python {

namespace {

/// The error's text, options spelt as Python's keywords.
std::string pythonText(llvm::Error error) {
  return errorText(std::move(error), [](const std::string &option) {
    std::string keyword = option;
    std::replace(keyword.begin(), keyword.end(), '-', '_');
    return keyword;
  });
}

/// A failure underneath as marlmap.Error, bad input as ValueError.
[[noreturn]] void raise(llvm::Error error) {
  bool underneath = error.isA<SearchError>();
  std::string text = pythonText(std::move(error));
  if (underneath)
    throw Failure{text};
  throw py::value_error(text);
}

} // namespace

py::object evaluate(const BoundMapping &bound) {
  llvm::Expected<CostedMapping> costed =
      costMapping(bound.mapping, bound.problem, bound.arch);
  if (!costed)
    throw py::value_error("the mapping " + pythonText(costed.takeError()));
  const Evaluation &evaluation = costed->evaluation;
  if (!evaluation.valid) {
    py::dict invalid;
    invalid["valid"] = false;
    invalid["invalid_reason"] = evaluation.describeInvalid(bound.arch);
    return std::move(invalid);
  }
  llvm::json::Object figures =
      evaluationToJson(evaluation, bound.problem, bound.arch);
  figures["valid"] = true;
  figures["lower_bound"] = lowerBoundToJson(costed->bound);
  return toPython(std::move(figures));
}

SearchOutcome search(const Problem &problem, const Arch &arch,
                     const MapperOptions &options) {
  llvm::Expected<std::unique_ptr<Mapper>> mapper = makeMapper(options, arch);
  if (!mapper)
    raise(mapper.takeError());
  llvm::Expected<SearchedProblem> searched = [&] {
    py::gil_scoped_release released;
    return searchProblem(**mapper, problem, {});
  }();
  if (!searched)
    raise(searched.takeError());
  const ProblemOutcome &outcome = searched->outcome();
  SearchOutcome found;
  found.found = outcome.found;
  if (outcome.found)
    found.mapping = BoundMapping{outcome.mapping, problem, arch};
  found.figures = toPython(searchToJson(problem, arch, *searched->space,
                                        (*mapper)->request(), outcome));
  found.curve = outcome.curve;
  found.samples = outcome.samples;
  found.validSamples = outcome.validSamples;
  found.seconds = outcome.seconds;
  found.notFound = outcome.notFound;
  return found;
}

MappedText mapModule(const std::string &text, const std::string &arch,
                     const std::string &constraints,
                     const MapperOptions &options, const std::string &name) {
  // Arguments first, as ValueErrors; what is then refused is about the
  // module.
  if (!arch.empty())
    loadArch(arch, constraints);
  if (llvm::Expected<MapperRequest> request = makeRequest(options); !request)
    raise(request.takeError());
  Context context(/*threads=*/true);
  mlir::OwningOpRef<mlir::ModuleOp> module = context.parse(text, name);
  mlir::FailureOr<MappedModule> mapped = [&] {
    py::gil_scoped_release released;
    return marlmap::mapModule(*module, {arch, constraints, options}, {});
  }();
  if (mlir::failed(mapped) || mapped->failed)
    throw Failure{context.diagnostics.errorText()};

  MappedText result;
  llvm::raw_string_ostream os(result.text);
  module->print(os);
  result.diagnostics = context.diagnostics.lines();
  result.report = toPython(reportToJson(
      mapped->loaded.rows, mapped->mapper->request(), mapped->result));
  return result;
}

py::list searchers() {
  py::list list;
  for (const SearcherEntry &entry : searcherRegistry()) {
    py::list options;
    for (const SearcherOption &option : entry.options) {
      if (option.hidden)
        continue;
      py::dict described;
      described["name"] = option.name;
      described["help"] = option.help;
      described["default"] = option.defaultValue;
      described["accepted"] = option.accepted;
      options.append(std::move(described));
    }
    py::dict described;
    described["name"] = entry.name;
    described["help"] = entry.help;
    described["learns"] = entry.learns;
    described["perfect_factors_only"] = entry.perfectFactorsOnly;
    described["options"] = std::move(options);
    list.append(std::move(described));
  }
  return list;
}

py::list factorSpaces() {
  py::list names;
  for (FactorSpace space : kFactorSpaces)
    names.append(factorSpaceName(space));
  return names;
}

py::list factorsOptions() {
  py::list names;
  for (const std::string &name : factorsOptionValues())
    names.append(name);
  return names;
}

} // namespace marlmap::python
