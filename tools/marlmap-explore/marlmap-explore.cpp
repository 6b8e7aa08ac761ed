//===- marlmap-explore.cpp - Evaluate, search, map and compare ------------===//
//
// A command line on the Mapper (Mapper.h), with the pass's defaults:
// evaluates a mapping (from Timeloop YAML or an op's accel.mapping) or
// searches the map space of one problem (an op of a .mlir file, Timeloop
// YAML, or a layer shorthand) and prints its figures as JSON; maps a whole
// .mlir network and prints the per-op table and the totals; compares
// several accelerators on one network (--arch a,b).
//
//===----------------------------------------------------------------------===//

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Core/MapSpace.h"
#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Dialect/Accel/Target.h"
#include "marlmap/Interop/TimeloopYaml.h"
#include "marlmap/Mapper/Mapper.h"
#include "marlmap/Mapper/Progress.h"
#include "marlmap/Mapper/Report.h"
#include "marlmap/Registration.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Support/OutputFile.h"
#include "marlmap/Transforms/ModuleProblems.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

#include <cmath>

using namespace marlmap;
namespace cl = llvm::cl;

static cl::OptionCategory category("marlmap-explore options");
static cl::opt<std::string> timeloopArch("timeloop-arch",
                                         cl::desc("Timeloop architecture YAML"),
                                         cl::cat(category));
static cl::opt<std::string> timeloopProblem("timeloop-problem",
                                            cl::desc("Timeloop problem YAML"),
                                            cl::cat(category));
static cl::opt<std::string> timeloopMapping("timeloop-mapping",
                                            cl::desc("Timeloop mapping YAML"),
                                            cl::cat(category));
static cl::opt<std::string> input("input", cl::desc("A .mlir file"),
                                  cl::cat(category));
static cl::opt<unsigned>
    opIndex("op-index",
            cl::desc("Which linalg op of --input (as marl-describe numbers "
                     "them)"),
            cl::init(0), cl::cat(category));
static cl::opt<std::string>
    layer("layer",
          cl::desc("A layer: conv:N=..,K=..,C=..,P=..,Q=..,R=..,S=.., "
                   "dwconv:..., gemm:M=..,N=..,K=.."),
          cl::cat(category));
static cl::opt<std::string> archChoice(
    "arch",
    cl::desc("Preset names or .mlir accelerator descriptions, separated by "
             "commas to compare them (default: the module's target, else "
             "eyeriss)"),
    cl::cat(category));
/// Help texts that name what the registry holds; cl::desc keeps a
/// reference, so they live as long as the flags.
static const std::string &searcherHelp() {
  static const std::string help =
      "Search instead of evaluating (a whole --input network is always "
      "searched, with genetic by default): " +
      searcherNameList();
  return help;
}
static const std::string &objectiveHelp() {
  static const std::string help = "What to minimise: " + objectiveNameList();
  return help;
}
static cl::opt<std::string> searcherName("searcher", cl::desc(searcherHelp()),
                                         cl::cat(category));
static cl::opt<std::string>
    policyLibrary("policy-library",
                  cl::desc("marl/sarl: path of libMarlmapPolicy.so (default: "
                           "$MARLMAP_POLICY_LIBRARY, else beside the tool)"),
                  cl::cat(category));
static cl::opt<int64_t> stopAfter(
    "victory-condition",
    cl::desc("Stop after this many samples in a row without improvement, "
             "as Timeloop's mapper does (0: use the whole budget)"),
    cl::init(0), cl::cat(category));
static cl::opt<int64_t> budget(
    "budget",
    cl::desc("Samples per distinct problem (1 to 10^9; default 2000, or no "
             "cap with --time alone)"),
    cl::init(kDefaultBudget), cl::cat(category));
static cl::opt<double> timeBudget(
    "time",
    cl::desc("Wall-clock seconds for all the searches, shared among the "
             "problems (results then depend on the machine's speed)"),
    cl::init(0), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"), cl::init(1),
                              cl::cat(category));
static cl::opt<std::string> objectiveOption("objective",
                                            cl::desc(objectiveHelp()),
                                            cl::init("edp"), cl::cat(category));
static cl::opt<bool> listSearchers(
    "list-searchers",
    cl::desc("Print every searcher and its options (Markdown) and exit"),
    cl::cat(category));
// Not `threads`: LLVM registers that name itself.
static cl::opt<unsigned>
    jobs("jobs",
         cl::desc("Searches run at once, as marl-map's threads= (0: one per "
                  "core; at most 1024)"),
         cl::init(0), cl::cat(category));
static cl::opt<std::string> progressOption(
    "progress",
    cl::desc("Progress on stderr: auto (a bar on a terminal, else a line "
             "every 2 s and a last line), bar, lines, json or none"),
    cl::init("auto"), cl::cat(category));
static cl::opt<std::string>
    cachePath("cache",
              cl::desc("SQLite file of finished searches (as marl-map's)"),
              cl::cat(category));
static cl::opt<std::string> timeloopOut(
    "timeloop-out",
    cl::desc("Also write PREFIX.arch.yaml, PREFIX.problem.yaml and (for the "
             "evaluated or best mapping) PREFIX.mapping.yaml for "
             "timeloop-model"),
    cl::value_desc("PREFIX"), cl::cat(category));
static cl::opt<std::string> jsonOutput(
    "json",
    cl::desc("Write the figures as JSON to this file ('-': stdout); a "
             "network's report (docs/Report.md) instead of its table"),
    cl::cat(category));

/// Every registered searcher option as a flag of its own.
static std::vector<std::unique_ptr<cl::opt<std::string>>> &searcherFlags() {
  static std::vector<std::unique_ptr<cl::opt<std::string>>> flags = [] {
    std::vector<std::unique_ptr<cl::opt<std::string>>> made;
    for (const SharedOption &shared : searcherOptions())
      made.push_back(std::make_unique<cl::opt<std::string>>(
          llvm::StringRef(shared.option->name), cl::desc(shared.help),
          cl::init(shared.option->defaultValue), cl::cat(category),
          shared.option->hidden ? cl::ReallyHidden : cl::NotHidden));
    return made;
  }();
  return flags;
}

namespace {

/// One problem the tool works on.
struct Job {
  Problem problem;
  Arch arch;
  std::optional<Mapping> mapping;
  std::string source;
};

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "marlmap-explore") << message << "\n";
  std::exit(1);
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    fail("cannot read '" + path + "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

template <typename T> T orFail(llvm::Expected<T> value) {
  if (!value)
    fail(llvm::toString(value.takeError()));
  return std::move(*value);
}

/// The accelerator `choice` names (a preset or a file; empty: the
/// module's target, else the default), for ops of `module`.
Arch archFor(mlir::ModuleOp module, const std::string &choice) {
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(module, choice);
  if (mlir::failed(target))
    std::exit(1);
  return std::move(target->arch);
}

/// --arch as a list (one empty name when not given).
std::vector<std::string> archChoices() {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(archChoice).split(names, ',');
  std::vector<std::string> choices;
  for (llvm::StringRef name : names) {
    if (name.trim().empty() && names.size() > 1)
      fail("--arch '" + archChoice + "' names an empty accelerator");
    choices.push_back(name.trim().str());
  }
  return choices;
}

Job fromTimeloop() {
  if (timeloopArch.empty() || timeloopProblem.empty())
    fail("--timeloop-arch and --timeloop-problem go together");
  Job job;
  job.arch = orFail(timeloop::readArch(readFile(timeloopArch), timeloopArch));
  job.problem =
      orFail(timeloop::readProblem(readFile(timeloopProblem), timeloopProblem));
  if (!timeloopMapping.empty())
    job.mapping = orFail(timeloop::readMapping(
        readFile(timeloopMapping), timeloopMapping, job.problem, job.arch));
  job.source = timeloopProblem;
  return job;
}

/// --input parsed, or the tool fails with the parser's diagnostics.
mlir::OwningOpRef<mlir::ModuleOp> parseInput(mlir::MLIRContext &context,
                                             llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto file = mlir::openInputFile(input, &error);
  if (!file)
    fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    fail("cannot parse '" + input + "'");
  return module;
}

/// The op --op-index picks, on the accelerator `choice` names.
Job fromMlir(mlir::ModuleOp module, const std::string &choice) {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops = collectLinalgOps(module);
  if (opIndex >= ops.size())
    fail("'" + input + "' has " + llvm::Twine(ops.size()) +
         " linalg ops; --op-index " + llvm::Twine(opIndex) + " is not one");
  mlir::linalg::LinalgOp op = ops[opIndex];
  std::string whyNot;
  std::optional<Problem> problem = extractProblem(op, &whyNot);
  if (!problem)
    fail("op #" + llvm::Twine(opIndex) + " cannot be mapped: " + whyNot);
  // The op's own module decides its target (nested modules may differ).
  Job job{std::move(*problem),
          archFor(op->getParentOfType<mlir::ModuleOp>(), choice), std::nullopt,
          input + " op #" + std::to_string(opIndex)};
  if (auto attr = op->getAttrOfType<accel::MappingAttr>(
          accel::AccelDialect::kMappingAttrName))
    job.mapping = accel::toCore(attr, job.problem.dims.size(),
                                job.problem.operands.size());
  return job;
}

Job fromLayer(mlir::MLIRContext &context, const std::string &choice) {
  std::string error;
  std::optional<Problem> problem = parseLayer(layer, error);
  if (!problem)
    fail("--layer: " + error);
  // A layer has no module of its own: --arch or the default decides, as for
  // a module without a target.
  mlir::OwningOpRef<mlir::ModuleOp> empty =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  return {std::move(*problem), archFor(*empty, choice), std::nullopt, layer};
}

void writeText(const std::string &path, const std::string &text) {
  std::string error;
  if (!writeOutputFile(
          path, [&](llvm::raw_ostream &os) { os << text; }, error))
    fail(error);
}

/// The Timeloop inputs for `mapping` (if any) of `problem` on `arch`.
void writeTimeloop(const Problem &problem, const Arch &arch,
                   const Mapping *mapping) {
  if (timeloopOut.empty())
    return;
  writeText(timeloopOut + ".arch.yaml", timeloop::writeArch(arch));
  writeText(timeloopOut + ".problem.yaml", timeloop::writeProblem(problem));
  if (!mapping)
    return;
  llvm::Expected<std::string> text =
      timeloop::writeMapping(*mapping, problem, arch);
  if (!text) {
    llvm::WithColor::warning(llvm::errs(), "marlmap-explore")
        << "no " << timeloopOut
        << ".mapping.yaml: " << llvm::toString(text.takeError()) << "\n";
    return;
  }
  writeText(timeloopOut + ".mapping.yaml", *text);
}

/// The report as JSON to --json, or to stdout without it.
void write(const llvm::json::Object &report) {
  writeText(
      jsonOutput.empty() ? "-" : jsonOutput.getValue(),
      llvm::formatv("{0:2}\n", llvm::json::Value(llvm::json::Object(report)))
          .str());
}

/// The searcher the flags name, with the searcher options given.
SearcherConfig searcherFromFlags() {
  SearcherConfig config;
  if (!searcherName.empty())
    config.name = searcherName;
  config.policyLibrary = policyLibrary;
  for (const auto &flag : searcherFlags())
    if (flag->getNumOccurrences())
      config.options[flag->ArgStr.str()] = flag->getValue();
  return config;
}

/// Flags that only a search reads, given without one.
void refuseSearchFlags() {
  std::vector<std::string> given;
  for (cl::Option *flag : std::initializer_list<cl::Option *>{
           &budget, &timeBudget, &stopAfter, &cachePath, &seed, &jobs})
    if (flag->getNumOccurrences())
      given.push_back(flag->ArgStr.str());
  for (const auto &flag : searcherFlags())
    if (flag->getNumOccurrences())
      given.push_back(flag->ArgStr.str());
  if (!given.empty())
    fail("--" + given.front() +
         " is for searching: give --searcher (without it the mapping is "
         "evaluated)");
}

/// A Mapper for `arch` with the flags' searcher, budgets and objective.
std::unique_ptr<Mapper> mapperFor(const Arch &arch, Objective objective) {
  MapperRequest request;
  request.arch = arch;
  request.objective = objective;
  request.searcher = searcherFromFlags();
  // Not given: the default, or no cap under a time budget.
  request.samples = budget.getNumOccurrences() ? int64_t(budget) : 0;
  request.seconds = timeBudget;
  request.seed = seed;
  request.stopAfter = stopAfter;
  request.cache = cachePath;
  std::string error;
  std::unique_ptr<Mapper> mapper = Mapper::create(std::move(request), error);
  if (!mapper)
    fail(error);
  return mapper;
}

ProgressCallback progressPrinter() {
  std::optional<ProgressStyle> style = parseProgressStyle(progressOption);
  if (!style)
    fail("--progress must be " + llvm::Twine(kProgressStyles) + ", not '" +
         progressOption + "'");
  return makeProgressPrinter(*style, llvm::errs(), llvm::errs().is_displayed(),
                             "marlmap-explore");
}

/// Fails when a distinct problem's search failed or a given mapping was
/// refused.
void failOnErrors(const MapperResult &result, const std::vector<OpRow> &rows) {
  for (const OpRow &row : rows)
    if (row.input)
      if (const std::string &error =
              result.problems[result.distinctOf[*row.input]].error;
          !error.empty())
        fail(row.location + ": " + row.op + ": " + error);
}

/// Evaluates the mapping `job` carries.
int evaluate(const Job &job) {
  refuseSearchFlags();
  if (!job.mapping)
    fail("nothing to evaluate: " + job.source +
         " carries no mapping (give --timeloop-mapping, or --searcher)");
  for (const std::string &issue :
       checkMappingShape(*job.mapping, job.problem, job.arch))
    fail("the mapping does not fit: " + issue);
  CostModel model(job.problem, job.arch);
  Evaluation evaluation = model.evaluate(*job.mapping);
  if (!evaluation.valid)
    fail("the mapping is invalid: " + evaluation.describeInvalid(job.arch));
  write(evaluationToJson(evaluation, job.problem, job.arch));
  writeTimeloop(job.problem, job.arch, &*job.mapping);
  return 0;
}

/// Searches the map space of `job` and prints what was found as JSON.
int searchOne(const Job &job, Objective objective) {
  std::string error;
  std::unique_ptr<MapSpace> space =
      MapSpace::create(job.problem, job.arch, {}, error);
  if (!space)
    fail(error);
  std::unique_ptr<Mapper> mapper = mapperFor(job.arch, objective);
  std::unique_ptr<Executor> executor = makeThreadExecutor(1);
  MapperResult result =
      mapper->map({{job.problem, std::nullopt}}, *executor, progressPrinter());
  const ProblemOutcome &outcome = result.problems.front();
  // A searcher that could not be made spent nothing.
  if (!outcome.error.empty())
    fail(outcome.samples ? "the search failed: " + outcome.error
                         : outcome.error);
  llvm::json::Object report;
  if (outcome.found)
    report = evaluationToJson(outcome.evaluation, job.problem, job.arch);
  else
    report["found"] = false;
  report["searcher"] = describeSearcher(mapper->request().searcher);
  report["objective"] = objectiveName(objective);
  report["seed"] = int64_t(seed);
  report["budget"] = sampleCap(mapper->request());
  if (timeBudget > 0)
    report["time_budget"] = double(timeBudget);
  report["source"] = sourceName(outcome.source);
  report["samples"] = outcome.samples;
  report["valid_samples"] = outcome.validSamples;
  report["stopped_early"] = outcome.stoppedEarly;
  report["seconds"] = outcome.seconds;
  report["space_log10"] = space->log10Size();
  // How the policy searchers see the space: parameters with many choices
  // are split into small decisions (docs/Search.md).
  report["space_parameters"] = int64_t(space->parameters().size());
  report["space_decisions"] = int64_t(DecisionSpace(*space).decisions().size());
  report["lower_bound"] = llvm::json::Object{
      {"cycles", outcome.bound.cycles},
      {"energy_pJ", outcome.bound.energy},
      {"edp", objectiveBound(outcome.bound, Objective::EDP)}};
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
  write(report);
  writeTimeloop(job.problem, job.arch,
                outcome.found ? &outcome.mapping : nullptr);
  return outcome.found ? 0 : 2;
}

/// Maps a network (a whole --input module, or one problem) onto every
/// accelerator --arch names; prints the table, or the report as JSON.
int mapNetworks(mlir::MLIRContext &context, Objective objective) {
  if (!timeloopOut.empty())
    fail("--timeloop-out writes one problem's files: give --op-index, "
         "--layer or --timeloop-problem, and one accelerator");
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!input.empty())
    module = parseInput(context, sourceMgr);
  std::unique_ptr<Executor> executor = makeThreadExecutor(jobs);
  ProgressCallback progress = progressPrinter();

  std::vector<std::unique_ptr<Mapper>> mappers;
  std::vector<MapperResult> results;
  std::vector<OpRow> rows;
  for (const std::string &choice : archChoices()) {
    std::vector<MapperProblem> problems;
    Arch arch;
    if (module && !opIndex.getNumOccurrences()) {
      arch = archFor(*module, choice);
      ModuleProblems loaded =
          loadModuleProblems(*module, arch, /*remarks=*/false);
      if (loaded.failed)
        return 1;
      problems = std::move(loaded.problems);
      rows = std::move(loaded.rows);
    } else {
      Job job = module           ? fromMlir(*module, choice)
                : !layer.empty() ? fromLayer(context, choice)
                                 : fromTimeloop();
      arch = job.arch;
      rows = {{job.source, "", 0, ""}};
      problems.push_back({std::move(job.problem), std::move(job.mapping)});
    }
    mappers.push_back(mapperFor(arch, objective));
    results.push_back(mappers.back()->map(problems, *executor, progress));
    for (const std::string &warning : results.back().warnings)
      llvm::WithColor::warning(llvm::errs(), "marlmap-explore")
          << warning << "\n";
    failOnErrors(results.back(), rows);
  }

  std::vector<MappedNetwork> networks;
  for (size_t a = 0; a < mappers.size(); ++a)
    networks.push_back({&mappers[a]->request(), &results[a]});
  if (!jsonOutput.empty()) {
    write(networks.size() == 1
              ? reportToJson(rows, *networks[0].request, *networks[0].result)
              : comparisonToJson(rows, networks));
    return 0;
  }
  if (networks.size() == 1)
    printSummary(llvm::outs(), rows, *networks[0].request, *networks[0].result,
                 "total");
  else
    printComparison(llvm::outs(), rows, networks);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  searcherFlags();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "marlmap-explore: evaluate a mapping, search the map space of one "
      "problem, map a whole network, or compare accelerators on it\n");

  if (listSearchers) {
    llvm::outs() << searcherReference();
    return 0;
  }
  unsigned sources = !timeloopProblem.empty() + !input.empty() + !layer.empty();
  if (sources != 1)
    fail("give one problem or network: --timeloop-problem (with "
         "--timeloop-arch), --input, or --layer");
  // Flags that would be ignored, or contradict each other, are errors.
  if (!timeloopArch.empty() && !archChoice.empty())
    fail("give the accelerator once: --arch or --timeloop-arch");
  if (!timeloopMapping.empty() && !searcherName.empty())
    fail("--timeloop-mapping is evaluated and --searcher searches: give one");
  if (opIndex.getNumOccurrences() && input.empty())
    fail("--op-index picks an op of --input");
  if (stopAfter < 0)
    fail("--victory-condition must not be negative, got " +
         llvm::Twine(int64_t(stopAfter)));
  if (std::string error = checkThreads(jobs); !error.empty())
    fail("--jobs: " + error);
  if (budget.getNumOccurrences())
    if (std::string error = checkBudget(budget); !error.empty())
      fail("--" + error);
  std::optional<Objective> objective = parseObjective(objectiveOption);
  if (!objective)
    fail("--objective must be " + llvm::Twine(objectiveNameList()) + ", not '" +
         objectiveOption + "'");

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerMarlmapDialects(registry);
  mlir::MLIRContext context(registry);
  bool wholeNetwork = !input.empty() && !opIndex.getNumOccurrences();
  std::vector<std::string> archs = archChoices();
  if (wholeNetwork || archs.size() > 1)
    return mapNetworks(context, *objective);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!input.empty())
    module = parseInput(context, sourceMgr);
  Job job = module           ? fromMlir(*module, archs.front())
            : !layer.empty() ? fromLayer(context, archs.front())
                             : fromTimeloop();
  std::vector<std::string> issues = job.problem.check();
  for (const ArchIssue &issue : checkArch(job.arch))
    issues.push_back(issue.message);
  if (!issues.empty())
    fail(issues.front());
  if (searcherName.empty())
    return evaluate(job);
  return searchOne(job, *objective);
}
