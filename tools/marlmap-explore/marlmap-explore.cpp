//===- marlmap-explore.cpp - One problem, one arch: evaluate or search ----===//
//
// Evaluates a mapping (from Timeloop YAML or an op's accel.mapping) or
// searches the map space of one problem (an op of a .mlir file, Timeloop
// YAML, or a layer shorthand), and prints the figures as JSON.
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
#include "marlmap/Registration.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/Searcher.h"
#include "marlmap/Search/SearcherConfig.h"
#include "marlmap/Support/OutputFile.h"

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
    cl::desc("Preset name or .mlir accelerator description (default: "
             "the module's target, else eyeriss)"),
    cl::cat(category));
/// "Search instead of evaluating: random, exhaustive, ..." from the
/// searchers' own list.
static const std::string &searcherHelp() {
  static const std::string help = [] {
    std::string text = "Search instead of evaluating: ";
    for (const std::string &name : searcherNames())
      text += (&name == &searcherNames().front() ? "" : ", ") + name;
    return text;
  }();
  return help;
}
static cl::opt<std::string> searcherName("searcher", cl::desc(searcherHelp()),
                                         cl::cat(category));
static cl::opt<std::string> agentsOption(
    "agents",
    cl::desc("For marl: auto (clusters of interacting decisions), "
             "per-decision (no clustering), random (random clusters as many "
             "as auto finds), or a number of agents"),
    cl::init("auto"), cl::cat(category));
static cl::opt<double>
    policyLearningRate("policy-lr", cl::desc("marl/sarl: Adam learning rate"),
                       cl::init(PolicyOptions().learningRate),
                       cl::cat(category));
static cl::opt<unsigned> policyEpochs("policy-epochs",
                                      cl::desc("marl/sarl: updates per batch"),
                                      cl::init(PolicyOptions().epochs),
                                      cl::cat(category));
static cl::opt<double> policyEntropy("policy-entropy",
                                     cl::desc("marl/sarl: entropy bonus"),
                                     cl::init(PolicyOptions().entropy),
                                     cl::cat(category));
static cl::opt<unsigned>
    policyWarmup("policy-warmup",
                 cl::desc("marl/sarl: uniform samples before learning"),
                 cl::init(PolicyOptions().warmup), cl::cat(category));
static cl::opt<unsigned>
    policyHidden("policy-hidden", cl::desc("marl: hidden width of each agent"),
                 cl::init(PolicyOptions().hidden), cl::cat(category));
static cl::opt<std::string> policyAdvantage(
    "policy-advantage",
    cl::desc("marl/sarl: how rewards become advantages: utilities (NES-style, "
             "the best pulled up most) or ranks (centred ranks)"),
    cl::init(policyAdvantageName(PolicyOptions().advantage)),
    cl::cat(category));
static cl::opt<std::string> policyHead(
    "policy-head",
    cl::desc("marl/sarl: joint (each agent draws its decisions "
             "autoregressively) or factorised (each decision on its own)"),
    cl::init(policyHeadName(PolicyOptions().autoregressive)),
    cl::cat(category));
static cl::opt<unsigned> policyStall(
    "policy-stall",
    cl::desc("marl/sarl: double the entropy bonus for every this many samples "
             "without a new best, up to 8x (0: off)"),
    cl::init(PolicyOptions().stall), cl::cat(category));
static cl::opt<unsigned> policyReplay(
    "policy-replay",
    cl::desc("marl/sarl: best proposals so far replayed in every update"),
    cl::init(PolicyOptions().replay), cl::cat(category));
static cl::opt<std::string>
    policyLibrary("policy-library",
                  cl::desc("marl/sarl: path of libMarlmapPolicy.so (default: "
                           "$MARLMAP_POLICY_LIBRARY, else beside the tool)"),
                  cl::cat(category));
static cl::opt<int64_t> policyTestThrowAfter(
    "policy-test-throw-after",
    cl::desc("Testing only: make a policy search fail after this many "
             "samples"),
    cl::init(0), cl::Hidden, cl::cat(category));
static cl::opt<int64_t> stopAfter(
    "victory-condition",
    cl::desc("Stop after this many samples in a row without improvement, "
             "as Timeloop's mapper does (0: use the whole budget)"),
    cl::init(0), cl::cat(category));
static cl::opt<int64_t> budget("budget",
                               cl::desc("Samples to evaluate (1 to 10^9)"),
                               cl::init(kDefaultBudget), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"), cl::init(1),
                              cl::cat(category));
static cl::opt<std::string> objectiveOption("objective",
                                            cl::desc("latency, energy or edp"),
                                            cl::init("edp"), cl::cat(category));
static cl::opt<std::string> timeloopOut(
    "timeloop-out",
    cl::desc("Also write PREFIX.arch.yaml, PREFIX.problem.yaml and (for the "
             "evaluated or best mapping) PREFIX.mapping.yaml for "
             "timeloop-model"),
    cl::value_desc("PREFIX"), cl::cat(category));
static cl::opt<std::string>
    jsonOutput("json",
               cl::desc("Write the figures as JSON to this file ('-': stdout)"),
               cl::cat(category));

namespace {

/// What the tool works on.
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

Job fromMlir(mlir::MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = mlir::openInputFile(input, &error);
  if (!file)
    fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    fail("cannot parse '" + input + "'");
  llvm::SmallVector<mlir::linalg::LinalgOp> ops = collectLinalgOps(*module);
  if (opIndex >= ops.size())
    fail("'" + input + "' has " + llvm::Twine(ops.size()) +
         " linalg ops; --op-index " + llvm::Twine(opIndex) + " is not one");
  mlir::linalg::LinalgOp op = ops[opIndex];
  std::string whyNot;
  std::optional<Problem> problem = extractProblem(op, &whyNot);
  if (!problem)
    fail("op #" + llvm::Twine(opIndex) + " cannot be mapped: " + whyNot);
  // The op's own module decides its target (nested modules may differ).
  auto opModule = op->getParentOfType<mlir::ModuleOp>();
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(opModule, archChoice);
  if (mlir::failed(target))
    std::exit(1);
  Job job{std::move(*problem), std::move(target->arch), std::nullopt,
          input + " op #" + std::to_string(opIndex)};
  if (auto attr = op->getAttrOfType<accel::MappingAttr>(
          accel::AccelDialect::kMappingAttrName))
    job.mapping = accel::toCore(attr, job.problem.dims.size(),
                                job.problem.operands.size());
  return job;
}

Job fromLayer(mlir::MLIRContext &context) {
  std::string error;
  std::optional<Problem> problem = parseLayer(layer, error);
  if (!problem)
    fail("--layer: " + error);
  // A layer has no module of its own: --arch or the default decides, as for
  // a module without a target.
  mlir::OwningOpRef<mlir::ModuleOp> empty =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(*empty, archChoice);
  if (mlir::failed(target))
    std::exit(1);
  return {std::move(*problem), std::move(target->arch), std::nullopt, layer};
}

void printProgress(int64_t done, int64_t total) {
  const int width = 40;
  int filled = int(width * done / std::max<int64_t>(total, 1));
  llvm::errs() << "\r[" << std::string(filled, '#')
               << std::string(width - filled, ' ') << "] " << done << "/"
               << total;
  if (done >= total)
    llvm::errs() << "\n";
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

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "marlmap-explore: evaluate a mapping or search the map space of one "
      "problem\n");

  unsigned sources = !timeloopProblem.empty() + !input.empty() + !layer.empty();
  if (sources != 1)
    fail("give one problem: --timeloop-problem (with --timeloop-arch), "
         "--input, or --layer");
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
  std::optional<Objective> objective = parseObjective(objectiveOption);
  if (!objective)
    fail("--objective must be latency, energy or edp, not '" + objectiveOption +
         "'");

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerMarlmapDialects(registry);
  mlir::MLIRContext context(registry);
  Job job = !timeloopProblem.empty() ? fromTimeloop()
            : !input.empty()         ? fromMlir(context)
                                     : fromLayer(context);

  std::vector<std::string> issues = job.problem.check();
  for (const ArchIssue &issue : checkArch(job.arch))
    issues.push_back(issue.message);
  if (!issues.empty())
    fail(issues.front());

  llvm::json::Object report;
  if (searcherName.empty()) {
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
    report = evaluationToJson(evaluation, job.problem, job.arch);
    write(report);
    writeTimeloop(job.problem, job.arch, &*job.mapping);
    return 0;
  }

  std::string error = checkBudget(budget);
  if (!error.empty())
    fail("--" + error);
  std::unique_ptr<MapSpace> space =
      MapSpace::create(job.problem, job.arch, {}, error);
  if (!space)
    fail(error);
  SearcherConfig config;
  config.name = searcherName;
  if (!parseAgents(agentsOption, config.policy, error))
    fail("--" + error);
  config.policy.learningRate = policyLearningRate;
  config.policy.epochs = policyEpochs;
  config.policy.entropy = policyEntropy;
  config.policy.warmup = policyWarmup;
  config.policy.hidden = policyHidden;
  config.policy.replay = policyReplay;
  config.policy.stall = policyStall;
  config.policy.testThrowAfter = policyTestThrowAfter;
  config.policyLibrary = policyLibrary;
  if (!parsePolicyAdvantage(policyAdvantage, config.policy, error) ||
      !parsePolicyHead(policyHead, config.policy, error))
    fail("--" + error);
  std::unique_ptr<Searcher> searcher =
      makeSearcher(config, *space, seed, budget, error);
  if (!searcher)
    fail(error);
  SearchOptions options;
  options.objective = *objective;
  options.budget = budget;
  options.stopAfter = stopAfter;
  if (llvm::errs().is_displayed())
    options.progress = printProgress;
  SearchResult result = runSearch(*space, *searcher, options);
  if (!result.error.empty())
    fail("the search failed: " + result.error);
  if (result.found)
    report = evaluationToJson(result.bestEvaluation, space->problem(),
                              space->arch());
  else
    report["found"] = false;
  report["searcher"] = describeSearcher(config);
  report["objective"] = objectiveOption.getValue();
  report["seed"] = int64_t(seed);
  report["budget"] = int64_t(budget);
  report["samples"] = result.samples;
  report["valid_samples"] = result.validSamples;
  report["stopped_early"] = result.stoppedEarly;
  report["seconds"] = result.seconds;
  report["space_log10"] = space->log10Size();
  // How the policy searchers see the space: parameters with many choices
  // are split into small decisions (docs/Search.md).
  report["space_parameters"] = int64_t(space->parameters().size());
  report["space_decisions"] = int64_t(DecisionSpace(*space).decisions().size());
  LowerBound bound = space->model().lowerBound();
  report["lower_bound"] =
      llvm::json::Object{{"cycles", bound.cycles},
                         {"energy_pJ", bound.energy},
                         {"edp", objectiveBound(bound, Objective::EDP)}};
  if (result.found)
    report["mapping"] =
        mappingToJson(result.best, space->problem(), space->arch());
  if (Clusters clusters = searcher->clusters(); !clusters.empty()) {
    DecisionSpace decisions(*space);
    llvm::json::Array agents;
    for (const std::vector<unsigned> &cluster : clusters) {
      llvm::json::Array names;
      for (unsigned d : cluster)
        names.push_back(decisions.decisions()[d].name);
      agents.push_back(std::move(names));
    }
    report["clusters"] = std::move(agents);
  }
  llvm::json::Array curve;
  for (auto [samples, cost] : result.curve)
    curve.push_back(llvm::json::Array{samples, cost});
  report["curve"] = std::move(curve);
  write(report);
  writeTimeloop(space->problem(), space->arch(),
                result.found ? &result.best : nullptr);
  return result.found ? 0 : 2;
}
