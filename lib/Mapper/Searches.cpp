//===- Searches.cpp - The distinct problems searched on an executor -------===//

#include "Searches.h"
#include "MappingExchange.h"
#include "TimeShares.h"
#include "marlmap/Mapper/Defaults.h"
#include "marlmap/Mapper/Errors.h"

#include "marlmap/Core/Transfer.h"
#include "marlmap/Search/Clustering.h"
#include "marlmap/Search/Decisions.h"
#include "marlmap/Search/PolicyLibrary.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <optional>

namespace marlmap {

namespace {

/// The network's deadline under a time budget.
Clock::time_point deadlineOf(const MapperRequest &request,
                             Clock::time_point start) {
  return start + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(request.seconds));
}

/// A search's options with `seconds` to run (0: no time limit), reporting
/// its samples to `hub`.
SearchOptions searchOptions(const MapperRequest &request, double seconds,
                            ProgressHub &hub, int64_t &reported) {
  SearchOptions options;
  options.objective = request.objective;
  options.budget = sampleCap(request);
  options.seconds = seconds;
  options.stopAfter = request.stopAfter;
  options.progress = [&hub, &reported](int64_t samples, int64_t) {
    hub.addSamples(samples - reported);
    reported = samples;
  };
  return options;
}

/// What the searcher is made with: the samples it schedules by (none when
/// time alone limits it) and its seconds.
SearchBudget searcherBudget(const MapperRequest &request, double seconds) {
  return SearchBudget(scheduleByTime(request) ? 0 : sampleCap(request),
                      seconds);
}

/// The outcome's figures from a finished search.
void record(ProblemOutcome &outcome, SearchResult result, const MapSpace &space,
            Objective objective, const AgentView *agents) {
  outcome.agentsFromWeights = agents ? agents->agentsFromWeights() : 0;
  outcome.found = result.found && result.error.empty();
  outcome.error = result.error;
  outcome.mapping = std::move(result.best);
  outcome.evaluation = result.bestEvaluation;
  outcome.bound = space.model().lowerBound();
  outcome.objectiveLowerBound = objectiveBound(outcome.bound, objective);
  if (result.certificate) {
    outcome.bounded = true;
    outcome.provedOptimal = outcome.found && result.certificate->complete;
    if (outcome.found)
      outcome.objectiveLowerBound =
          std::max(outcome.objectiveLowerBound, result.certificate->lowerBound);
  }
  if (outcome.found)
    outcome.boundRatio =
        boundRatio(outcome.evaluation, outcome.bound, objective);
  else if (outcome.error.empty())
    outcome.notFound =
        "no valid mapping among " + std::to_string(result.samples) + " samples";
  outcome.samples = result.samples;
  outcome.validSamples = result.validSamples;
  outcome.stoppedEarly = result.stoppedEarly;
  outcome.seconds = result.seconds;
  outcome.curve = std::move(result.curve);
  if (agents) {
    const std::vector<std::string> names = agents->decisionNames();
    for (const std::vector<unsigned> &cluster : agents->clusters()) {
      outcome.agents.emplace_back();
      for (unsigned d : cluster)
        outcome.agents.back().push_back(names[d]);
    }
  }
}

std::unique_ptr<MapSpace> spaceFor(const SearchJob &job, const Arch &arch) {
  llvm::Expected<std::unique_ptr<MapSpace>> space =
      MapSpace::create(job.outcome->problem, arch, {}, job.outcome->factors);
  if (space)
    return std::move(*space);
  job.outcome->notFound = llvm::toString(space.takeError());
  job.outcome->noMapSpace = true;
  return nullptr;
}

/// One problem's search between its rounds: what it needs to go on.
struct ProblemSearch {
  const SearchJob *job = nullptr;
  /// Its place in the start order, which names it to TimeShares.
  size_t slot = 0;
  std::unique_ptr<MapSpace> space;
  std::unique_ptr<Searcher> searcher;
  SearchResult result;
  /// The samples its runs have reported to the hub.
  int64_t reported = 0;
};

/// The least time worth a second round: less and a search is left as it
/// stopped.
constexpr double kLeastResumedSeconds = 0.5;

/// Whether `search`, stopped by its share of the time, could prove more
/// with more of it: a searcher that can resume, no proof yet, no failure,
/// samples left and time left before the deadline.
bool worthResuming(const ProblemSearch &search, const MapperRequest &request,
                   const TimeShares &shares) {
  const SearchResult &result = search.result;
  return request.seconds > 0 && search.searcher->canResume() &&
         result.certificate && !result.certificate->complete &&
         result.error.empty() && !result.stoppedEarly &&
         result.samples < sampleCap(request) &&
         shares.secondsLeft() >= kLeastResumedSeconds;
}

/// Records a finished search in its job's outcome.
void finishSearch(ProblemSearch &search, const MapperRequest &request,
                  const std::vector<SearchJob> &jobs, ProgressHub &hub,
                  std::vector<PolicyWeights> *learnt) {
  const SearchJob &job = *search.job;
  if (search.searcher) {
    const AgentView *agents = search.searcher->agentView();
    record(*job.outcome, std::move(search.result), *search.space,
           request.objective, agents);
    if (learnt && agents)
      agents->learntWeights((*learnt)[size_t(&job - jobs.data())]);
  }
  hub.problemDone(job.index, *job.outcome);
}

void searchOneByOne(const std::vector<SearchJob> &jobs,
                    const MapperRequest &request, Clock::time_point start,
                    Executor &executor, ProgressHub &hub,
                    std::vector<PolicyWeights> *learnt) {
  // Under a time budget the heaviest start first, so that the time left at
  // the end goes to the small ones; the order changes nothing else.
  std::vector<const SearchJob *> order;
  double totalWeight = 0;
  for (const SearchJob &job : jobs) {
    order.push_back(&job);
    totalWeight += job.weight;
  }
  if (request.seconds > 0)
    std::stable_sort(order.begin(), order.end(),
                     [](const SearchJob *a, const SearchJob *b) {
                       return a->weight > b->weight;
                     });
  TimeShares shares(deadlineOf(request, start), executor.concurrency(),
                    totalWeight);
  std::atomic<size_t> next{0};
  // Searches stopped by their share that may go on once every problem has
  // started (TimeShares.h), first stopped first.
  std::mutex waitingMutex;
  std::deque<std::unique_ptr<ProblemSearch>> waiting;
  auto takeWaiting = [&]() -> std::unique_ptr<ProblemSearch> {
    std::lock_guard<std::mutex> lock(waitingMutex);
    if (waiting.empty())
      return nullptr;
    std::unique_ptr<ProblemSearch> search = std::move(waiting.front());
    waiting.pop_front();
    return search;
  };

  executor.run(executor.concurrency(), [&](unsigned) {
    for (;;) {
      std::unique_ptr<ProblemSearch> search;
      // Whether the search ran this time round (a resumed one may not).
      bool ran = true;
      const size_t i = next++;
      if (i < order.size()) {
        search = std::make_unique<ProblemSearch>();
        search->job = order[i];
        search->slot = i;
        search->space = spaceFor(*search->job, request.arch);
        // Under a time budget a share is never 0, which would mean none.
        double seconds =
            request.seconds > 0
                ? std::max(shares.start(i, search->job->weight), 1e-6)
                : 0.0;
        if (search->space) {
          llvm::Expected<std::unique_ptr<Searcher>> made =
              makeSearcher(request.searcher, *search->space, search->job->seed,
                           searcherBudget(request, seconds), request.objective);
          if (made) {
            search->searcher = std::move(*made);
            continueSearch(
                *search->space, *search->searcher,
                searchOptions(request, seconds, hub, search->reported),
                search->result);
          } else {
            search->job->outcome->error = errorText(made.takeError());
          }
        }
      } else if ((search = takeWaiting())) {
        double seconds = shares.resume(search->slot, search->job->weight);
        ran = seconds >= kLeastResumedSeconds &&
              search->searcher->resume(seconds);
        if (ran)
          continueSearch(*search->space, *search->searcher,
                         searchOptions(request, seconds, hub, search->reported),
                         search->result);
      } else {
        return;
      }
      if (request.seconds > 0)
        shares.finish(search->slot);
      if (ran && search->searcher && worthResuming(*search, request, shares)) {
        shares.wait(search->job->weight);
        std::lock_guard<std::mutex> lock(waitingMutex);
        waiting.push_back(std::move(search));
        continue;
      }
      finishSearch(*search, request, jobs, hub, learnt);
    }
  });
}

/// The problems one searcher searches together, with their spaces and the
/// group each learns with.
struct Pack {
  std::vector<const SearchJob *> jobs;
  std::vector<std::unique_ptr<MapSpace>> spaces;
  std::vector<unsigned> groups;
};

/// The groups of problems that learn together, as indices into `spaces`:
/// up to `groupSize` alike problems each for a searcher that learns across
/// its problems (the groups depend on the network alone, never on the
/// thread count), one problem each otherwise.
std::vector<std::vector<size_t>>
learningGroups(const std::vector<std::unique_ptr<MapSpace>> &spaces,
               unsigned groupSize) {
  if (groupSize > 0) {
    std::vector<ProblemFeatures> features;
    for (const std::unique_ptr<MapSpace> &space : spaces)
      features.push_back(problemFeatures(space->problem()));
    return groupSimilarProblems(features, groupSize);
  }
  std::vector<std::vector<size_t>> singles;
  for (size_t s = 0; s < spaces.size(); ++s)
    singles.push_back({s});
  return singles;
}

/// One pack per worker, each group whole to the pack with the least work so
/// far, heaviest first, so that packs finish together. A problem's search
/// depends on its group alone, so any split gives the same results.
std::vector<Pack> packByWork(const std::vector<const SearchJob *> &searchable,
                             std::vector<std::unique_ptr<MapSpace>> &spaces,
                             const std::vector<std::vector<size_t>> &groups,
                             unsigned concurrency) {
  // The decisions a group's agents draw: about what a round costs it.
  std::vector<size_t> groupWork;
  for (const std::vector<size_t> &group : groups) {
    size_t work = 0;
    for (size_t s : group)
      work += DecisionSpace(*spaces[s]).decisions().size();
    groupWork.push_back(work);
  }
  std::vector<size_t> order(groups.size());
  for (size_t g = 0; g < order.size(); ++g)
    order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groupWork[a] > groupWork[b];
  });
  std::vector<Pack> packs(
      std::max<size_t>(1, std::min<size_t>(concurrency, groups.size())));
  std::vector<size_t> packWork(packs.size(), 0);
  for (size_t g : order) {
    const size_t lightest = size_t(
        std::min_element(packWork.begin(), packWork.end()) - packWork.begin());
    packWork[lightest] += groupWork[g];
    Pack &pack = packs[lightest];
    for (size_t s : groups[g]) {
      pack.jobs.push_back(searchable[s]);
      pack.spaces.push_back(std::move(spaces[s]));
      pack.groups.push_back(unsigned(g));
    }
  }
  return packs;
}

/// A pack's searcher and its run, once made; no run when the searcher
/// could not be made (`error` says why) or the pack is empty.
struct PackSearch {
  std::unique_ptr<NetworkSearcher> searcher;
  std::string error;
  std::unique_ptr<NetworkSearchRun> run;
  /// The samples its run has reported to the hub.
  int64_t reported = 0;
};

/// Makes each pack's searcher and run, each to search for `seconds`
/// (0: no time limit). `searches` has one entry per pack and must not
/// move while they run: their progress reports point into it.
void startPacks(std::vector<Pack> &packs, const MapperRequest &request,
                double seconds, ProgressHub &hub,
                std::vector<PackSearch> &searches) {
  for (size_t index = 0; index < packs.size(); ++index) {
    Pack &pack = packs[index];
    PackSearch &search = searches[index];
    if (pack.jobs.empty())
      continue;
    std::vector<const MapSpace *> spaces;
    std::vector<uint64_t> seeds;
    for (size_t p = 0; p < pack.jobs.size(); ++p) {
      spaces.push_back(pack.spaces[p].get());
      seeds.push_back(pack.jobs[p]->seed);
    }
    llvm::Expected<std::unique_ptr<NetworkSearcher>> made = makeNetworkSearcher(
        request.searcher, spaces, seeds, pack.groups,
        searcherBudget(request, seconds), request.objective);
    if (!made) {
      search.error = errorText(made.takeError());
      continue;
    }
    search.searcher = std::move(*made);
    // Problems whose warm-up ran while the library loaded go on from it.
    std::vector<SearchResult> before(pack.jobs.size());
    for (size_t p = 0; p < pack.jobs.size(); ++p)
      if (const JobWarmUp *warmUp = pack.jobs[p]->warmUp) {
        search.searcher->startFrom(p, warmUp->history);
        before[p] = warmUp->result;
        search.reported += warmUp->result.samples;
      }
    search.run = std::make_unique<NetworkSearchRun>(
        spaces, *search.searcher,
        searchOptions(request, seconds, hub, search.reported),
        std::move(before));
  }
}

/// Runs every pack to its end, one per worker. When the searchers want
/// suggestions, the packs go round by round in step, and between rounds
/// every problem hears from its neighbours whatever pack they are in,
/// visited in the network's order (`jobs`).
void runPacks(const std::vector<SearchJob> &jobs,
              const std::vector<Pack> &packs, std::vector<PackSearch> &searches,
              Executor &executor) {
  unsigned suggestions = 0;
  for (const PackSearch &search : searches)
    if (search.run)
      suggestions = std::max(suggestions, search.searcher->suggestionsWanted());
  if (suggestions == 0) {
    executor.run(unsigned(searches.size()), [&](unsigned index) {
      if (searches[index].run)
        while (searches[index].run->round())
          ;
    });
    return;
  }
  // By job; a job without a run keeps none.
  std::vector<MappingExchange::Member> members(jobs.size());
  for (size_t index = 0; index < packs.size(); ++index) {
    const PackSearch &search = searches[index];
    if (!search.run)
      continue;
    const Pack &pack = packs[index];
    for (size_t p = 0; p < pack.jobs.size(); ++p)
      members[size_t(pack.jobs[p] - jobs.data())] = {
          pack.spaces[p].get(), search.run.get(), search.searcher.get(), p};
  }
  std::vector<MappingExchange::Member> network;
  for (const MappingExchange::Member &member : members)
    if (member.run)
      network.push_back(member);
  MappingExchange exchange(std::move(network), suggestions);
  std::vector<char> going(searches.size());
  for (size_t index = 0; index < searches.size(); ++index)
    going[index] = searches[index].run != nullptr;
  while (std::find(going.begin(), going.end(), 1) != going.end()) {
    executor.run(unsigned(searches.size()), [&](unsigned index) {
      if (going[index])
        going[index] = searches[index].run->round();
    });
    exchange.exchange();
  }
}

/// Records every problem's outcome from its pack's search, and with
/// `learnt` what its agents learnt (by job, as in `jobs`).
void finishPacks(const std::vector<SearchJob> &jobs, std::vector<Pack> &packs,
                 std::vector<PackSearch> &searches,
                 const MapperRequest &request, ProgressHub &hub,
                 std::vector<PolicyWeights> *learnt) {
  for (size_t index = 0; index < packs.size(); ++index) {
    Pack &pack = packs[index];
    PackSearch &search = searches[index];
    std::vector<SearchResult> results(pack.jobs.size());
    if (search.run)
      results = search.run->finish();
    for (size_t p = 0; p < pack.jobs.size(); ++p) {
      if (!search.searcher)
        results[p].error = search.error;
      const AgentView *agents =
          search.searcher ? search.searcher->agentView(p) : nullptr;
      record(*pack.jobs[p]->outcome, std::move(results[p]), *pack.spaces[p],
             request.objective, agents);
      hub.problemDone(pack.jobs[p]->index, *pack.jobs[p]->outcome);
      if (learnt && agents)
        agents->learntWeights((*learnt)[size_t(pack.jobs[p] - jobs.data())]);
    }
  }
}

void searchInPacks(const std::vector<SearchJob> &jobs,
                   const MapperRequest &request, Clock::time_point start,
                   Executor &executor, ProgressHub &hub,
                   std::vector<PolicyWeights> *learnt) {
  std::vector<const SearchJob *> searchable;
  std::vector<std::unique_ptr<MapSpace>> spaces;
  for (const SearchJob &job : jobs) {
    std::unique_ptr<MapSpace> space = spaceFor(job, request.arch);
    if (!space) {
      hub.problemDone(job.index, *job.outcome);
      continue;
    }
    searchable.push_back(&job);
    spaces.push_back(std::move(space));
  }
  std::vector<Pack> packs =
      packByWork(searchable, spaces,
                 learningGroups(spaces, networkGroupSize(request.searcher)),
                 executor.concurrency());
  // Every pack runs until the network's deadline.
  const double seconds =
      request.seconds > 0
          ? std::max(secondsBetween(Clock::now(), deadlineOf(request, start)),
                     1e-6)
          : 0.0;
  std::vector<PackSearch> searches(packs.size());
  startPacks(packs, request, seconds, hub, searches);
  runPacks(jobs, packs, searches, executor);
  finishPacks(jobs, packs, searches, request, hub, learnt);
}

/// Searches `jobs` together, packed or one by one as the searcher takes
/// them.
void searchTogether(const std::vector<SearchJob> &jobs,
                    const MapperRequest &request, Clock::time_point start,
                    Executor &executor, ProgressHub &hub,
                    std::vector<PolicyWeights> *learnt) {
  if (jobs.empty())
    return;
  if (learnt)
    learnt->assign(jobs.size(), PolicyWeights());
  const SearcherEntry *entry = findSearcher(request.searcher.name);
  if (entry && entry->makeNetwork && request.stopAfter == 0)
    searchInPacks(jobs, request, start, executor, hub, learnt);
  else
    searchOneByOne(jobs, request, start, executor, hub, learnt);
}

/// Searches the jobs `selected` picks of `jobs` together, each one's learnt
/// weights (with `learnt`) into its place in `*learnt`.
void searchSelected(const std::vector<SearchJob> &jobs,
                    const std::vector<size_t> &selected,
                    const MapperRequest &request, Clock::time_point start,
                    Executor &executor, ProgressHub &hub,
                    std::vector<PolicyWeights> *learnt) {
  std::vector<SearchJob> some;
  for (size_t j : selected)
    some.push_back(jobs[j]);
  std::vector<PolicyWeights> someLearnt;
  searchTogether(some, request, start, executor, hub,
                 learnt ? &someLearnt : nullptr);
  if (learnt)
    for (size_t k = 0; k < selected.size(); ++k)
      (*learnt)[selected[k]] = std::move(someLearnt[k]);
}

/// Draws the uniform warm-up of the jobs `selected` picks on the calling
/// thread until `load` ends or the deadline: one entry in `warmUps` per job
/// that drew (not one without a space).
void drawWarmUps(const std::vector<SearchJob> &jobs,
                 const std::vector<size_t> &selected,
                 const MapperRequest &request, Clock::time_point start,
                 ProgressHub &hub, const PolicyLibraryLoad &load,
                 std::vector<std::optional<JobWarmUp>> &warmUps) {
  std::vector<std::unique_ptr<MapSpace>> owned;
  std::vector<const MapSpace *> spaces;
  std::vector<uint64_t> seeds;
  std::vector<size_t> drawn;
  for (size_t j : selected) {
    std::unique_ptr<MapSpace> space = spaceFor(jobs[j], request.arch);
    if (!space)
      continue;
    spaces.push_back(space.get());
    owned.push_back(std::move(space));
    seeds.push_back(jobs[j].seed);
    drawn.push_back(j);
  }
  const double seconds =
      std::max(secondsBetween(Clock::now(), deadlineOf(request, start)), 1e-6);
  llvm::Expected<std::unique_ptr<NetworkSearcher>> made =
      makeWhileLoadingSearcher(request.searcher, spaces, seeds,
                               searcherBudget(request, seconds),
                               request.objective);
  // Without one, the packs draw their warm-up themselves, and say what is
  // wrong with the searcher if anything is.
  if (!made) {
    llvm::consumeError(made.takeError());
    return;
  }
  if (!*made || spaces.empty())
    return;
  int64_t reported = 0;
  NetworkSearchRun run(spaces, **made,
                       searchOptions(request, seconds, hub, reported));
  while (!load.ended() && run.round())
    ;
  std::vector<SearchResult> results = run.finish();
  for (size_t k = 0; k < drawn.size(); ++k)
    warmUps[drawn[k]] = JobWarmUp{std::move(results[k]), (*made)->history(k)};
}

/// Loads the policy library when a searcher that learns has problems to
/// search, inside the time budget. Under a time budget alone it loads on a
/// thread of its own while the jobs `selected` picks draw their uniform
/// warm-up on this one (the load has the other core); else on this thread
/// before any search starts. An error when the library does not load.
llvm::Error loadPolicies(const std::vector<SearchJob> &jobs,
                         const std::vector<size_t> &selected,
                         const MapperRequest &request, Clock::time_point start,
                         ProgressHub &hub,
                         std::vector<std::optional<JobWarmUp>> &warmUps) {
  warmUps.assign(jobs.size(), std::nullopt);
  const SearcherEntry *entry = findSearcher(request.searcher.name);
  if (!entry || !entry->learns || jobs.empty())
    return llvm::Error::success();
  if (entry->makeWhileLoading && entry->makeNetwork && request.stopAfter == 0 &&
      scheduleByTime(request) && !policyLibraryLoaded()) {
    PolicyLibraryLoad load(request.searcher.policyLibrary);
    drawWarmUps(jobs, selected, request, start, hub, load, warmUps);
  }
  return loadPolicyLibrary(request.searcher.policyLibrary);
}

/// A job is light when its MACs are under this part of an equal share of
/// the network's: elementwise ops, pools, small heads.
constexpr double kLightShare = 0.1;

bool isLight(const SearchJob &job, double networkMacs, size_t jobs) {
  return job.macs < kLightShare * networkMacs / double(jobs);
}

} // namespace

llvm::Error searchJobs(const std::vector<SearchJob> &jobs,
                       const MapperRequest &request, Clock::time_point start,
                       Executor &executor, ProgressHub &hub,
                       std::vector<PolicyWeights> *learnt) {
  const SearcherEntry *entry = findSearcher(request.searcher.name);
  double networkMacs = 0.0;
  for (const SearchJob &job : jobs)
    networkMacs += job.macs;
  std::vector<size_t> light, heavy;
  for (size_t j = 0; j < jobs.size(); ++j)
    (isLight(jobs[j], networkMacs, jobs.size()) ? light : heavy).push_back(j);
  const bool lightFirst = scheduleByTime(request) &&
                          !(entry && entry->provesOptima) && !light.empty() &&
                          !heavy.empty();
  // The problems searched under the time budget warm up while the policy
  // library loads (the light ones' sample budget is counted afresh).
  std::vector<size_t> all(jobs.size());
  for (size_t j = 0; j < all.size(); ++j)
    all[j] = j;
  std::vector<std::optional<JobWarmUp>> warmUps;
  if (llvm::Error unloaded = loadPolicies(jobs, lightFirst ? heavy : all,
                                          request, start, hub, warmUps))
    return unloaded;
  std::vector<SearchJob> warmed = jobs;
  for (size_t j = 0; j < jobs.size(); ++j)
    if (warmUps[j])
      warmed[j].warmUp = &*warmUps[j];
  if (!lightFirst) {
    searchTogether(warmed, request, start, executor, hub, learnt);
    return llvm::Error::success();
  }
  // A light problem's samples cost about what a heavy one's do, while its
  // mapping settles soon and moves the network's figures little: the light
  // ones are searched first, as the default budget searches them, for at
  // most their weights' part of the time left (what they would have had of
  // it); the heavy ones share the rest.
  if (learnt)
    learnt->assign(jobs.size(), PolicyWeights());
  double lightWeight = 0.0, weight = 0.0;
  for (const SearchJob &job : jobs)
    weight += job.weight;
  for (size_t j : light)
    lightWeight += jobs[j].weight;
  const double elapsed = secondsBetween(start, Clock::now());
  MapperRequest lightRequest = request;
  lightRequest.samples = kDefaultBudget;
  lightRequest.seconds = elapsed + std::max(request.seconds - elapsed, 0.0) *
                                       lightWeight / std::max(weight, 1e-300);
  searchSelected(warmed, light, lightRequest, start, executor, hub, learnt);
  searchSelected(warmed, heavy, request, start, executor, hub, learnt);
  return llvm::Error::success();
}

} // namespace marlmap
