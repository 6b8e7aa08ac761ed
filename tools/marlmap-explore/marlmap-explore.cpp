//===- marlmap-explore.cpp - Evaluate, search, map and compare ------------===//
//
// A command line on the Mapper (Mapper.h), with the pass's defaults:
// evaluates a mapping (from Timeloop YAML or an op's accel.mapping) or
// searches the map space of one problem (an op of a .mlir file, Timeloop
// YAML, or a layer shorthand) and shows it as a loop nest with its
// breakdown, or as JSON; maps a whole .mlir network into the per-op table
// and the totals; compares several accelerators on one network
// (--arch a,b). This file turns the flags into Options (Explore.h).
//
//===----------------------------------------------------------------------===//

#include "Explore.h"

#include "marlmap/Mapper/Registry.h"
#include "marlmap/Registration.h"

#include "mlir/InitAllDialects.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

using namespace marlmap;
namespace cl = llvm::cl;

static cl::OptionCategory category("marlmap-explore options");
static cl::opt<std::string>
    timeloopArch("timeloop-arch",
                 cl::desc("Timeloop architecture YAML (the same as --arch "
                          "FILE.yaml)"),
                 cl::cat(category));
static cl::opt<std::string> timeloopConstraints(
    "timeloop-constraints",
    cl::desc("Timeloop mapspace constraints YAML for the accelerator"),
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
      "searched, with marl by default): " +
      searcherNameList();
  return help;
}
static const std::string &objectiveHelp() {
  static const std::string help = "What to minimise: " + objectiveNameList();
  return help;
}
static cl::opt<std::string> searcherName("searcher", cl::desc(searcherHelp()),
                                         cl::cat(category));
static cl::opt<std::string> policyLibrary(
    "policy-library",
    cl::desc("Searchers that learn: path of libMarlmapPolicy.so (default: "
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
    cl::desc("Wall-clock seconds for all the searches of a network (of "
             "each, with several accelerators), shared among its problems "
             "(results then depend on the machine's speed)"),
    cl::init(0), cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Random seed"), cl::init(1),
                              cl::cat(category));
static cl::opt<std::string> objectiveOption("objective",
                                            cl::desc(objectiveHelp()),
                                            cl::init("edp"), cl::cat(category));
static cl::opt<std::string> factorsOption(
    "factors",
    cl::desc("The factors a loop may take: perfect (they divide it), "
             "spatial-imperfect (a loop spread over the array may leave PEs "
             "idle in its last step), imperfect (any loop's last tile may "
             "be partial) or auto (imperfect for each problem whose arrays "
             "only partial tiles fill well, perfect for the others)"),
    cl::init(marlmap::kFactorsAuto), cl::cat(category));
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
              cl::desc("SQLite file or postgresql:// database of finished "
                       "searches (as marl-map's)"),
              cl::cat(category));
static cl::opt<std::string> timeloopOut(
    "timeloop-out",
    cl::desc("Also write PREFIX.arch.yaml, PREFIX.problem.yaml, "
             "PREFIX.constraints.yaml (for timeloop-mapper) and (for the "
             "evaluated or best mapping) PREFIX.mapping.yaml for "
             "timeloop-model"),
    cl::value_desc("PREFIX"), cl::cat(category));
static cl::opt<std::string> jsonOutput(
    "json",
    cl::desc("Also write the figures as JSON to this file ('-': stdout); a "
             "network's report (docs/Report.md)"),
    cl::cat(category));
static cl::opt<std::string> reportPath(
    "report",
    cl::desc("Write the report to this file: a self-contained page when it "
             "ends in .html (the loop nests, the breakdowns, the search "
             "curves), else JSON"),
    cl::cat(category));
static cl::opt<std::string> formatOption(
    "format",
    cl::desc("What stdout gets: text (the loop nest and its breakdown, or a "
             "network's table) or json (default: text on a terminal, else "
             "json; nothing when --json names a file)"),
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

using explore::fail;

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

/// The searcher, its options, the budgets and the rest of what a search
/// reads, as the flags give them.
MapperOptions mapperOptionsFromFlags() {
  MapperOptions mapper;
  mapper.objective = objectiveOption;
  mapper.factors = factorsOption;
  mapper.searcher = searcherName;
  for (const auto &flag : searcherFlags())
    if (flag->getNumOccurrences())
      mapper.searcherOptions[flag->ArgStr.str()] = flag->getValue();
  mapper.policyLibrary = policyLibrary;
  // Not given: the default, or no cap under a time budget.
  if (budget.getNumOccurrences())
    mapper.budget = budget;
  // 0, the flag's default, is no time budget.
  if (timeBudget != 0)
    mapper.seconds = timeBudget;
  mapper.seed = seed;
  mapper.stopAfter = stopAfter;
  mapper.cache = cachePath;
  mapper.threads = jobs;
  return mapper;
}

/// Flags that only a search reads, given where nothing is searched.
void refuseSearchFlags() {
  std::vector<std::string> given;
  for (cl::Option *flag : std::initializer_list<cl::Option *>{
           &budget, &timeBudget, &stopAfter, &cachePath, &seed, &jobs,
           &reportPath})
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

/// The flags, checked and gathered. Flags that would be ignored, or
/// contradict each other, are errors.
explore::Options optionsFromFlags() {
  explore::Options options;
  options.timeloopConstraints = timeloopConstraints;
  options.timeloopProblem = timeloopProblem;
  options.timeloopMapping = timeloopMapping;
  options.input = input;
  options.layer = layer;
  if (opIndex.getNumOccurrences())
    options.opIndex = opIndex;
  if (!timeloopArch.empty() && !archChoice.empty())
    fail("give the accelerator once: --arch or --timeloop-arch");
  if (!timeloopArch.empty() &&
      !llvm::StringRef(timeloopArch).ends_with(".yaml") &&
      !llvm::StringRef(timeloopArch).ends_with(".yml"))
    fail("--timeloop-arch takes a Timeloop .yaml or .yml file, not '" +
         timeloopArch + "'");
  options.archs = timeloopArch.empty() ? archChoices()
                                       : std::vector<std::string>{timeloopArch};
  options.search = !searcherName.empty();
  options.timeloopOut = timeloopOut;
  options.jsonOutput = jsonOutput;
  options.report = reportPath;

  unsigned sources = !timeloopProblem.empty() + !input.empty() + !layer.empty();
  if (sources != 1)
    fail("give one problem or network: --timeloop-problem, --input, or "
         "--layer");
  if (!timeloopMapping.empty() && options.search)
    fail("--timeloop-mapping is evaluated and --searcher searches: give one");
  if (options.opIndex && input.empty())
    fail("--op-index picks an op of --input");
  options.mapper = mapperOptionsFromFlags();
  // Checked here, before anything is loaded; each accelerator's Mapper is
  // made from them later.
  if (llvm::Expected<MapperRequest> request = makeRequest(options.mapper);
      !request)
    fail(request.takeError());
  std::optional<ProgressStyle> progress = parseProgressStyle(progressOption);
  if (!progress)
    fail("--progress must be " + llvm::Twine(kProgressStyles) + ", not '" +
         progressOption + "'");
  options.progress = *progress;
  if (formatOption == "text")
    options.format = explore::Format::Text;
  else if (formatOption == "json")
    options.format = explore::Format::Json;
  else if (!formatOption.empty())
    fail("--format must be text or json, not '" + formatOption + "'");
  // A network is always searched; one problem only with --searcher.
  if (!options.search && !options.network())
    refuseSearchFlags();

  return options;
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
  explore::Options options = optionsFromFlags();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registerMarlmapDialects(registry);
  mlir::MLIRContext context(registry);
  if (options.network())
    return explore::mapNetworks(options, context);

  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (!options.input.empty())
    module = explore::parseInput(options, context, sourceMgr);
  explore::Job job =
      explore::loadJob(options, context, module ? *module : mlir::ModuleOp(),
                       options.archs.front());
  return options.search ? explore::searchOne(options, job)
                        : explore::evaluate(options, job);
}
