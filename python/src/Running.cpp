//===- Running.cpp - The cost model, the searchers and the pass -----------===//
//
// evaluate() and search() call the core model and the Mapper as
// marlmap-explore does; map_module() runs --marl-map itself. The GIL is
// released while a search or the pass runs.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "PyMarlmap.h"

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Mapper/Budgets.h"
#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Mapper/SearchReport.h"
#include "marlmap/Report/JsonReport.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

namespace marlmap::python {

namespace {

/// The Mapper's request for `settings`, or a ValueError.
MapperRequest requestFor(const Arch &arch, const SearchSettings &settings) {
  MapperRequest request;
  request.arch = arch;
  std::optional<Objective> objective = parseObjective(settings.objective);
  if (!objective)
    throw py::value_error("objective must be " + objectiveNameList() +
                          ", not '" + settings.objective + "'");
  request.objective = *objective;
  request.searcher.name = settings.searcher;
  request.searcher.options = settings.options;
  request.searcher.policyLibrary = policyLibraryFor(settings.policyLibrary);
  // Given, a budget must be one: 0 is not "the default" here.
  if (settings.budget) {
    if (std::string error = checkBudget(*settings.budget); !error.empty())
      throw py::value_error(error);
    request.samples = *settings.budget;
  }
  if (settings.time) {
    if (std::string error = checkSeconds(*settings.time);
        !error.empty() || *settings.time <= 0)
      throw py::value_error(error.empty() ? "time must be positive" : error);
    request.seconds = *settings.time;
  }
  request.seed = settings.seed;
  return request;
}

/// `value` as a pass option's value: quoted when it holds what would end
/// it, refused when it cannot be quoted.
std::string optionValue(const std::string &name, const std::string &value) {
  if (value.find('"') != std::string::npos)
    throw py::value_error("option '" + name + "' cannot hold a '\"'");
  if (value.find_first_of(" {}=") == std::string::npos && !value.empty())
    return value;
  return "\"" + value + "\"";
}

/// A fresh file name for the pass's report, removed when done.
struct TemporaryFile {
  TemporaryFile() {
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("marlmap-report", "json", path))
      throw Failure{"cannot make a temporary file: " + error.message()};
  }
  ~TemporaryFile() { llvm::sys::fs::remove(path); }
  llvm::SmallString<128> path;
};

} // namespace

py::object evaluate(const BoundMapping &bound) {
  std::vector<std::string> misfits =
      checkMappingShape(bound.mapping, bound.problem, bound.arch);
  if (!misfits.empty())
    throw py::value_error("the mapping does not fit: " + misfits.front());
  CostModel model(bound.problem, bound.arch);
  Evaluation evaluation = model.evaluate(bound.mapping);
  if (!evaluation.valid) {
    py::dict invalid;
    invalid["valid"] = false;
    invalid["invalid_reason"] = evaluation.describeInvalid(bound.arch);
    return std::move(invalid);
  }
  llvm::json::Object figures =
      evaluationToJson(evaluation, bound.problem, bound.arch);
  figures["valid"] = true;
  figures["lower_bound"] = lowerBoundToJson(model.lowerBound());
  return toPython(std::move(figures));
}

SearchOutcome search(const Problem &problem, const Arch &arch,
                     const SearchSettings &settings, int64_t stopAfter) {
  MapperRequest request = requestFor(arch, settings);
  request.stopAfter = stopAfter;
  std::string error;
  std::unique_ptr<MapSpace> space = MapSpace::create(problem, arch, {}, error);
  if (!space)
    throw py::value_error(error);
  std::unique_ptr<Mapper> mapper = Mapper::create(request, error);
  if (!mapper)
    throw py::value_error(error);

  MapperResult result;
  {
    py::gil_scoped_release released;
    std::unique_ptr<Executor> executor = makeThreadExecutor(1);
    result = mapper->map({{problem, std::nullopt}}, *executor);
  }
  if (!result.error.empty())
    throw Failure{result.error};
  const ProblemOutcome &outcome = result.problems.front();
  if (!outcome.error.empty())
    throw Failure{outcome.samples ? "the search failed: " + outcome.error
                                  : outcome.error};
  SearchOutcome found;
  found.found = outcome.found;
  if (outcome.found)
    found.mapping = BoundMapping{outcome.mapping, problem, arch};
  found.figures =
      toPython(searchToJson(problem, arch, *space, mapper->request(), outcome));
  found.curve = outcome.curve;
  found.samples = outcome.samples;
  found.validSamples = outcome.validSamples;
  found.seconds = outcome.seconds;
  found.notFound = outcome.notFound;
  return found;
}

MappedModule mapModule(const std::string &text, const std::string &arch,
                       const std::string &constraints,
                       const SearchSettings &settings, unsigned threads,
                       const std::string &name) {
  // Arguments first, as ValueErrors; what the pass then refuses is about
  // the module.
  if (!arch.empty())
    loadArch(arch, constraints);
  requestFor(Arch(), settings);
  if (std::string error = checkThreads(threads); !error.empty())
    throw py::value_error(error);
  Context context(/*threads=*/true);
  mlir::OwningOpRef<mlir::ModuleOp> module = context.parse(text, name);
  TemporaryFile report;

  std::string options = "progress=none";
  auto add = [&](const std::string &option, const std::string &value) {
    options += " " + option + "=" + optionValue(option, value);
  };
  if (!arch.empty())
    add("arch", arch);
  if (!constraints.empty())
    add("constraints", constraints);
  add("searcher", settings.searcher);
  add("objective", settings.objective);
  if (settings.budget)
    add("budget", std::to_string(*settings.budget));
  if (settings.time)
    add("time", llvm::formatv("{0}", *settings.time).str());
  add("seed", std::to_string(settings.seed));
  add("threads", std::to_string(threads));
  add("report", report.path.str().str());
  if (std::string library = policyLibraryFor(settings.policyLibrary);
      !library.empty())
    add("policy-library", library);
  for (const auto &[option, value] : settings.options)
    add(option, value);

  mlir::PassManager pm(&context.mlir);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (mlir::failed(mlir::parsePassPipeline("marl-map{" + options + "}", pm,
                                           errorStream)))
    throw py::value_error(errors);
  mlir::LogicalResult ran = mlir::failure();
  {
    py::gil_scoped_release released;
    ran = pm.run(*module);
  }
  if (mlir::failed(ran))
    throw Failure{context.diagnostics.errorText()};

  MappedModule mapped;
  llvm::raw_string_ostream os(mapped.text);
  module->print(os);
  mapped.diagnostics = context.diagnostics.lines();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(report.path);
  if (!buffer)
    throw Failure{"cannot read the pass's report: " +
                  buffer.getError().message()};
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    throw Failure{"the pass's report is not JSON: " +
                  llvm::toString(json.takeError())};
  mapped.report = toPython(*json);
  return mapped;
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
    described["options"] = std::move(options);
    list.append(std::move(described));
  }
  return list;
}

} // namespace marlmap::python
