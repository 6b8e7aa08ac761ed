//===- Mapper.cpp - Map a network's problems onto an accelerator ----------===//

#include "marlmap/Mapper/Mapper.h"

#include "ProvenOptima.h"
#include "Searches.h"

#include "marlmap/Cache/MappingCache.h"
#include "marlmap/Core/ArrayFloor.h"
#include "marlmap/Core/Error.h"
#include "marlmap/Core/Hash.h"
#include "marlmap/Mapper/Errors.h"
#include "marlmap/Mapper/FrontEnd.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "llvm/Support/FormatVariadic.h"

namespace marlmap {

namespace {

/// A seed per problem that depends on its content only, so that results do
/// not depend on the order or the thread problems are searched in.
uint64_t seedFor(uint64_t seed, const std::string &key) {
  return fnv1a(key) ^ (seed * 0x9e3779b97f4a7c15ull);
}

/// Takes `mapping` as `outcome`'s when it fits the problem and is valid on
/// `arch`; else the reason.
llvm::Error adoptMapping(ProblemOutcome &outcome, const Mapping &mapping,
                         const Arch &arch, Objective objective) {
  llvm::Expected<CostedMapping> costed =
      costMapping(mapping, outcome.problem, arch);
  if (!costed)
    return costed.takeError();
  if (!costed->evaluation.valid)
    return makeError("is invalid: " + costed->evaluation.describeInvalid(arch));
  outcome.found = true;
  outcome.mapping = mapping;
  outcome.evaluation = costed->evaluation;
  outcome.bound = costed->bound;
  outcome.boundRatio = boundRatio(outcome.evaluation, outcome.bound, objective);
  outcome.objectiveLowerBound = objectiveBound(outcome.bound, objective);
  return llvm::Error::success();
}

/// What identifies a network for a time budget: its distinct problems. A
/// problem's share of the time, and so its result, depends on them.
std::string networkFingerprint(const MapperResult &result) {
  std::vector<std::string> keys;
  // Each problem's space too (the perfect one as before it was chosen per
  // problem): under factors=auto the others' spaces shape a search's pack.
  for (const ProblemOutcome &outcome : result.problems)
    keys.push_back(outcome.problem.key() + "*" +
                   std::to_string(outcome.inputs.size()) +
                   (outcome.factors == FactorSpace::Perfect
                        ? std::string()
                        : std::string("@") + factorSpaceName(outcome.factors)));
  std::sort(keys.begin(), keys.end());
  uint64_t hash = kFnvOffset;
  for (const std::string &key : keys)
    hash = fnv1a(key + "\n", hash);
  return hexText(hash);
}

/// A warning for each problem a bounding searcher ran out of budget on:
/// never a silent "optimal".
void warnOnUnprovedOptima(const std::vector<SearchJob> &jobs,
                          Objective objective, MapperResult &result) {
  for (const SearchJob &job : jobs) {
    const ProblemOutcome &outcome = *job.outcome;
    std::string optimum = optimumText(outcome, objective);
    if (optimum.empty() || outcome.provedOptimal)
      continue;
    result.warnings.push_back(llvm::formatv(
        "{0} ({1}) {2} within the budget ({3} {4:e4})", outcome.problem.name,
        outcome.problem.boundsText(), optimum, objectiveName(objective),
        objectiveValue(outcome.evaluation, objective)));
  }
}

/// The network's objective over its ops' proven optima's, minus 1; nullopt
/// unless every mapped op has one.
std::optional<double> networkGap(const MapperResult &result,
                                 Objective objective) {
  // The network as one evaluation: energy and cycles summed over its ops.
  Evaluation network, optimal;
  bool any = false;
  for (const ProblemOutcome &outcome : result.problems) {
    if (!outcome.found)
      continue;
    if (!outcome.optimum)
      return std::nullopt;
    any = true;
    const int64_t ops = int64_t(outcome.inputs.size());
    network.energy += double(ops) * outcome.evaluation.energy;
    network.cycles += ops * outcome.evaluation.cycles;
    optimal.energy += double(ops) * outcome.optimum->energy;
    optimal.cycles += ops * outcome.optimum->cycles;
  }
  if (!any)
    return std::nullopt;
  network.edp = network.energy * double(network.cycles);
  optimal.edp = optimal.energy * double(optimal.cycles);
  return objectiveValue(network, objective) /
             objectiveValue(optimal, objective) -
         1.0;
}

NetworkTotals totalsOf(const MapperResult &result, const Arch &arch,
                       Objective objective) {
  NetworkTotals totals;
  totals.distinctProblems = result.problems.size();
  for (const ProblemOutcome &outcome : result.problems) {
    const int64_t ops = int64_t(outcome.inputs.size());
    totals.searched += outcome.source == Source::Searched;
    totals.cacheHits += outcome.source == Source::Cached;
    totals.given += outcome.source == Source::Given;
    if (outcome.source == Source::Searched)
      totals.samples += outcome.samples;
    if (!outcome.found) {
      totals.opsNotMapped += outcome.inputs.size();
      continue;
    }
    totals.opsMapped += outcome.inputs.size();
    totals.energy += double(ops) * outcome.evaluation.energy;
    totals.cycles += ops * outcome.evaluation.cycles;
    totals.macs += ops * outcome.evaluation.macs;
  }
  totals.edp = totals.energy * double(totals.cycles);
  totals.latencySeconds = double(totals.cycles) / (arch.clockMHz * 1e6);
  totals.gapToOptimum = networkGap(result, objective);
  return totals;
}

/// A warning when the searcher was given saved agents to start from
/// (an input file: `policy-weights`) and none of the problems searched
/// could use any: a file for another accelerator, say, would otherwise
/// change nothing without a word.
void warnOnUnusedFiles(const SearcherConfig &config, const OptionValues &values,
                       MapperResult &result) {
  size_t agents = 0, started = 0;
  for (const ProblemOutcome &outcome : result.problems) {
    agents += outcome.agents.size();
    started += outcome.agentsFromWeights;
  }
  if (agents == 0 || started > 0)
    return;
  for (const SearcherOption &option : findSearcher(config.name)->options)
    if (option.role == SearcherOption::Role::InputFile &&
        !values.text(option.name).empty())
      result.warnings.push_back(
          option.name + "=" + values.text(option.name) +
          ": none of the agents searched started from it (it holds none "
          "for this accelerator, these op kinds and these decisions)");
}

/// The distinct problems of `problems` in `result`, in the order they first
/// appear (a given mapping is its own problem), and the first input of each.
std::vector<const MapperProblem *>
collectDistinct(const std::vector<MapperProblem> &problems,
                const MapperRequest &request, Executor &executor,
                MapperResult &result) {
  std::map<std::string, size_t> distinct;
  std::vector<const MapperProblem *> firstOf;
  for (size_t i = 0; i < problems.size(); ++i) {
    const MapperProblem &input = problems[i];
    std::string key = input.problem.key();
    if (input.given)
      key += "\ngiven " + mappingText(*input.given);
    auto [it, inserted] = distinct.emplace(key, result.problems.size());
    if (inserted) {
      result.problems.emplace_back();
      result.problems.back().problem = input.problem;
      firstOf.push_back(&input);
    }
    result.problems[it->second].inputs.push_back(i);
    result.distinctOf.push_back(it->second);
  }
  std::vector<Problem> distinctProblems;
  std::vector<int64_t> counts;
  for (const ProblemOutcome &outcome : result.problems) {
    distinctProblems.push_back(outcome.problem);
    counts.push_back(int64_t(outcome.inputs.size()));
  }
  const std::vector<FactorSpace> spaces =
      factorSpacesFor(request, distinctProblems, counts, executor);
  for (size_t d = 0; d < spaces.size(); ++d)
    result.problems[d].factors = spaces[d];
  // A given mapping is costed, not searched: under auto no space is chosen
  // for it (its floor still counts in the network's).
  if (request.factorsWhereTheyPay)
    for (size_t d = 0; d < firstOf.size(); ++d)
      if (firstOf[d]->given)
        result.problems[d].factors = FactorSpace::Perfect;
  return firstOf;
}

/// A problem's key in the mapping cache under `request`. Under a time
/// budget a problem's result depends on the network it was searched in:
/// the key names the network too.
class CacheKeys {
public:
  CacheKeys(const MapperRequest &request, const MapperResult &result)
      : request(request), searcher(searcherKey(request.searcher)),
        archText(cacheText(request.arch)),
        budget(budgetKey(request) +
               (request.seconds > 0 ? " network=" + networkFingerprint(result)
                                    : std::string())) {}

  CacheKey operator()(const ProblemOutcome &outcome) const {
    return CacheKey{outcome.problem.key(),
                    archText,
                    objectiveName(request.objective),
                    searcher,
                    budget,
                    request.seed,
                    factorSpaceName(outcome.factors)};
  }

private:
  const MapperRequest &request;
  const std::string searcher, archText, budget;
};

/// `request`'s mapping cache, or none. A cache that cannot be read is a
/// warning; the mapping goes on without it.
std::unique_ptr<MappingCache> openCache(const MapperRequest &request,
                                        MapperResult &result) {
  if (request.cache.empty())
    return nullptr;
  llvm::Expected<std::unique_ptr<MappingCache>> cache =
      MappingCache::open(request.cache);
  if (!cache) {
    result.warnings.push_back(errorText(cache.takeError()) +
                              "; searching without the cache");
    return nullptr;
  }
  if ((*cache)->readOnly())
    result.warnings.push_back("the mapping cache '" +
                              MappingCache::displayName(request.cache) +
                              "' cannot be written: its entries are used, "
                              "new results are not stored");
  return std::move(*cache);
}

/// Takes each distinct problem's given mapping, or the cache's, and returns
/// the searches left, each with its seed and its share of a time budget.
std::vector<SearchJob>
planSearches(const std::vector<const MapperProblem *> &firstOf,
             const MapperRequest &request, const CacheKeys &keys,
             MappingCache *cache, MapperResult &result) {
  std::vector<SearchJob> jobs;
  double networkMacs = 0;
  for (size_t d = 0; d < result.problems.size(); ++d) {
    ProblemOutcome &outcome = result.problems[d];
    if (firstOf[d]->given) {
      outcome.source = Source::Given;
      if (llvm::Error why = adoptMapping(outcome, *firstOf[d]->given,
                                         request.arch, request.objective))
        outcome.error = "the mapping it carries " + errorText(std::move(why));
      continue;
    }
    if (cache) {
      std::optional<CacheEntry> entry =
          takeOrWarn(cache->find(keys(outcome)), result.warnings);
      // An entry that no longer fits, or whose mapping does not cost what
      // it says, is searched again.
      if (entry &&
          !llvm::errorToBool(adoptMapping(outcome, entry->mapping, request.arch,
                                          request.objective))) {
        double cost = objectiveValue(outcome.evaluation, request.objective);
        if (std::fabs(cost - entry->cost) <= 1e-9 * std::fabs(entry->cost)) {
          outcome.source = Source::Cached;
          outcome.samples = entry->samples;
          continue;
        }
        result.warnings.push_back(
            "an entry of the mapping cache does not cost what it says; "
            "searching again");
        outcome =
            ProblemOutcome{outcome.problem, outcome.factors, outcome.inputs};
      }
    }
    SearchJob job;
    job.index = d;
    job.seed = seedFor(request.seed, outcome.problem.key());
    job.macs =
        double(outcome.problem.iterations()) * double(outcome.inputs.size());
    job.outcome = &outcome;
    networkMacs += job.macs;
    jobs.push_back(job);
  }
  for (SearchJob &job : jobs)
    job.weight =
        0.5 / double(jobs.size()) + 0.5 * job.macs / std::max(networkMacs, 1.0);
  return jobs;
}

/// Every search's mapping into a cache that can be written.
void storeFound(const std::vector<SearchJob> &jobs,
                const MapperRequest &request, const CacheKeys &keys,
                MappingCache *cache, MapperResult &result) {
  if (!cache || cache->readOnly())
    return;
  for (const SearchJob &job : jobs) {
    const ProblemOutcome &outcome = *job.outcome;
    if (!outcome.found)
      continue;
    if (llvm::Error error =
            cache->store(keys(outcome), outcome.mapping,
                         objectiveValue(outcome.evaluation, request.objective),
                         outcome.samples))
      result.warnings.push_back(errorText(std::move(error)));
  }
}

} // namespace

std::string optimumText(const ProblemOutcome &outcome, Objective objective) {
  if (!outcome.bounded || !outcome.found)
    return "";
  if (outcome.provedOptimal)
    return "proved optimal";
  double cost = objectiveValue(outcome.evaluation, objective);
  return llvm::formatv("not proved optimal: {0} lower bound {1:e4}, at most "
                       "{2:f1}% above the optimum",
                       objectiveName(objective), outcome.objectiveLowerBound,
                       100.0 * (cost / outcome.objectiveLowerBound - 1.0));
}

const char *sourceName(Source source) {
  switch (source) {
  case Source::Searched:
    return "searched";
  case Source::Cached:
    return "cached";
  case Source::Given:
    return "given";
  }
  return "?";
}

const char *factorsOptionName(const MapperRequest &request) {
  return request.factorsWhereTheyPay ? kFactorsAuto
                                     : factorSpaceName(request.factors);
}

std::vector<FactorSpace> factorSpacesFor(const MapperRequest &request,
                                         const std::vector<Problem> &problems,
                                         const std::vector<int64_t> &counts,
                                         Executor &executor) {
  std::vector<FactorSpace> spaces(problems.size(), request.factors);
  if (!request.factorsWhereTheyPay)
    return spaces;
  // A searcher that walks whole factors only keeps to them.
  const SearcherEntry *entry = findSearcher(request.searcher.name);
  if (entry && entry->perfectFactorsOnly)
    return std::vector<FactorSpace>(problems.size(), FactorSpace::Perfect);
  // A problem without a perfect space has no floors: it counts for nothing,
  // and takes partial tiles if they give it a space (a prime loop whose
  // whole tile overflows a buffer, say).
  // Each problem's floors are its own (a char per flag: no shared bits), so
  // they are computed on the executor, inside the time budget.
  std::vector<ArrayFloors> floors(problems.size());
  std::vector<char> noPerfectSpace(problems.size(), 0);
  executor.run(unsigned(problems.size()), [&](unsigned i) {
    llvm::Expected<std::unique_ptr<MapSpace>> perfect =
        MapSpace::create(problems[i], request.arch, {}, FactorSpace::Perfect);
    if (perfect) {
      floors[i] = arrayFloors(**perfect);
      return;
    }
    llvm::consumeError(perfect.takeError());
    noPerfectSpace[i] = 1;
  });
  const std::vector<bool> pay = partialTilesPay(floors, counts);
  for (size_t i = 0; i < problems.size(); ++i) {
    spaces[i] = FactorSpace::Perfect;
    if (!pay[i] && !noPerfectSpace[i])
      continue;
    llvm::Expected<std::unique_ptr<MapSpace>> partial =
        MapSpace::create(problems[i], request.arch, {}, request.factors);
    if (partial)
      spaces[i] = request.factors;
    else
      llvm::consumeError(partial.takeError());
  }
  return spaces;
}

llvm::Expected<std::unique_ptr<Mapper>> Mapper::create(MapperRequest request) {
  for (const ArchIssue &issue : checkArch(request.arch))
    return makeError(issue.message);
  if (request.samples != 0)
    if (llvm::Error refused = checkBudget(request.samples))
      return std::move(refused);
  if (request.seconds != 0)
    if (llvm::Error refused = checkSeconds(request.seconds))
      return std::move(refused);
  if (request.stopAfter < 0)
    return llvm::make_error<OptionError>("stop-after",
                                         "must not be negative, not " +
                                             std::to_string(request.stopAfter));
  if (llvm::Error invalid = checkSearcherConfig(request.searcher))
    return std::move(invalid);
  if (request.factors != FactorSpace::Perfect && !request.factorsWhereTheyPay &&
      findSearcher(request.searcher.name)->perfectFactorsOnly)
    return llvm::make_error<OptionError>(
        "factors",
        std::string("must be perfect for searcher '") + request.searcher.name +
            "', which walks the space of factors that divide their loops, "
            "not '" +
            factorSpaceName(request.factors) + "'");
  // Read once here, shared by every search of every compile after.
  if (llvm::Error unread = readSearcherInputs(request.searcher))
    return std::move(unread);
  return std::unique_ptr<Mapper>(new Mapper(std::move(request)));
}

MapperResult Mapper::map(const std::vector<MapperProblem> &problems,
                         Executor &executor,
                         const ProgressCallback &progress) const {
  const MapperRequest &request = request_;
  auto start = std::chrono::steady_clock::now();
  MapperResult result;
  const std::vector<const MapperProblem *> firstOf =
      collectDistinct(problems, request, executor, result);
  const CacheKeys keys(request, result);
  std::unique_ptr<MappingCache> cache = openCache(request, result);
  std::vector<SearchJob> jobs =
      planSearches(firstOf, request, keys, cache.get(), result);

  const SearcherEntry &entry = *findSearcher(request.searcher.name);
  ProgressHub hub(progress, jobs.size(), request.seconds,
                  scheduleByTime(request) ? 0 : sampleCap(request));
  hub.start();
  // Mapper::create checked the config: it resolves.
  std::optional<OptionValues> values;
  if (llvm::Expected<OptionValues> resolved = resolveSearcher(request.searcher))
    values = std::move(*resolved);
  else
    llvm::consumeError(resolved.takeError());
  const bool keepLearnt =
      values && entry.keepsLearnt && entry.keepsLearnt(*values);
  std::vector<PolicyWeights> learnt;
  // The policy library loads only when a problem is left to search (a
  // compile the cache answers needs none), inside the time budget.
  if (llvm::Error unloaded = searchJobs(jobs, request, start, executor, hub,
                                        keepLearnt ? &learnt : nullptr)) {
    result.error = errorText(std::move(unloaded));
    result.errorIsSetting = true;
    hub.finish();
    return result;
  }
  if (values)
    warnOnUnusedFiles(request.searcher, *values, result);
  measureAgainstOptima(result, request, cache.get());
  warnOnUnprovedOptima(jobs, request.objective, result);
  if (keepLearnt) {
    // Each agent from the first problem, in the network's order, that has
    // it: the same whatever the thread count.
    PolicyWeights network;
    for (const PolicyWeights &problem : learnt)
      network.addMissing(problem);
    if (llvm::Error unkept =
            entry.keepLearnt(*values, request.searcher, network))
      result.error = errorText(std::move(unkept));
  }
  if (values && result.error.empty())
    if (llvm::Error misuse = values->misuse(request.searcher.name))
      result.error = errorText(std::move(misuse));
  storeFound(jobs, request, keys, cache.get(), result);

  result.totals = totalsOf(result, request.arch, request.objective);
  result.totals.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  hub.finish();
  return result;
}

} // namespace marlmap
