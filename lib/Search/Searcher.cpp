//===- Searcher.cpp - Searching a map space by asking and telling ---------===//

#include "marlmap/Search/Searcher.h"

#include <chrono>

namespace marlmap {

const std::vector<ObjectiveEntry> &objectiveRegistry() {
  static const std::vector<ObjectiveEntry> entries = {
      {Objective::Latency, "latency", "cycles"},
      {Objective::Energy, "energy", "energy in pJ"},
      {Objective::EDP, "edp", "energy-delay product, pJ x cycles"},
  };
  return entries;
}

const char *objectiveName(Objective objective) {
  for (const ObjectiveEntry &entry : objectiveRegistry())
    if (entry.objective == objective)
      return entry.name;
  return "?";
}

std::optional<Objective> parseObjective(const std::string &name) {
  for (const ObjectiveEntry &entry : objectiveRegistry())
    if (name == entry.name)
      return entry.objective;
  return std::nullopt;
}

double objectiveValue(const Evaluation &evaluation, Objective objective) {
  switch (objective) {
  case Objective::Latency:
    return double(evaluation.cycles);
  case Objective::Energy:
    return evaluation.energy;
  case Objective::EDP:
    return evaluation.edp;
  }
  return 0.0;
}

double objectiveBound(const LowerBound &bound, Objective objective) {
  switch (objective) {
  case Objective::Latency:
    return double(bound.cycles);
  case Objective::Energy:
    return bound.energy;
  case Objective::EDP:
    return double(bound.cycles) * bound.energy;
  }
  return 1.0;
}

double boundRatio(const Evaluation &evaluation, const LowerBound &bound,
                  Objective objective) {
  return objectiveValue(evaluation, objective) /
         objectiveBound(bound, objective);
}

double BudgetClock::fraction(int64_t samples) const {
  double share =
      followsTime()
          ? elapsed() / budget.seconds
          : double(samples) / double(std::max<int64_t>(budget.samples, 1));
  return std::min(1.0, share);
}

namespace {

/// Evaluates one proposal, counts it in `result` and keeps it when it is
/// the best so far; its feedback for the searcher.
Feedback evaluateSample(const MapSpace &space, const int64_t *proposal,
                        Objective objective, SearchResult &result,
                        Mapping &mapping, Evaluation &evaluation) {
  space.decode(proposal, mapping);
  ++result.samples;
  if (!space.model().evaluate(mapping, evaluation))
    return Feedback();
  ++result.validSamples;
  double cost = objectiveValue(evaluation, objective);
  if (!result.found || cost < result.bestCost) {
    result.found = true;
    result.bestCost = cost;
    result.best = mapping;
    result.bestEvaluation = evaluation;
    result.curve.push_back({result.samples, cost});
  }
  return {true, cost};
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Whether a search that started at `start` and has spent `samples` has
/// used its seconds. Every search runs one batch at least, so that it has
/// something to show.
bool outOfTime(const SearchOptions &options,
               std::chrono::steady_clock::time_point start, int64_t samples) {
  return samples > 0 && options.seconds > 0 &&
         secondsSince(start) >= options.seconds;
}

} // namespace

SearchResult runSearch(const MapSpace &space, Searcher &searcher,
                       const SearchOptions &options) {
  SearchResult result;
  continueSearch(space, searcher, options, result);
  return result;
}

void continueSearch(const MapSpace &space, Searcher &searcher,
                    const SearchOptions &options, SearchResult &result) {
  auto start = std::chrono::steady_clock::now();
  const int64_t before = result.samples;
  std::vector<std::vector<int64_t>> proposals;
  std::vector<Feedback> feedback;
  Mapping mapping;
  Evaluation evaluation;
  // The stop rule counts from the last improvement of any run.
  int64_t sinceImprovement =
      result.samples - (result.curve.empty() ? 0 : result.curve.back().first);
  while (result.samples < options.budget && !result.stoppedEarly &&
         !outOfTime(options, start, result.samples - before)) {
    unsigned count = unsigned(
        std::min<int64_t>(options.batch, options.budget - result.samples));
    searcher.ask(count, proposals);
    if (proposals.empty())
      break;
    if (proposals.size() > count)
      proposals.resize(count);
    feedback.assign(proposals.size(), Feedback());
    for (size_t i = 0; i < proposals.size(); ++i) {
      if (result.stoppedEarly) {
        // The batch was asked for; its rest is not evaluated or counted.
        proposals.resize(i);
        feedback.resize(i);
        break;
      }
      const size_t improvements = result.curve.size();
      feedback[i] =
          evaluateSample(space, proposals[i].data(), options.objective, result,
                         mapping, evaluation);
      sinceImprovement =
          result.curve.size() > improvements ? 0 : sinceImprovement + 1;
      result.stoppedEarly =
          options.stopAfter > 0 && sinceImprovement >= options.stopAfter;
    }
    searcher.tell(proposals, feedback);
    if (options.progress)
      options.progress(result.samples, options.budget);
  }
  result.error = searcher.failure();
  result.certificate = searcher.certificate();
  result.seconds += secondsSince(start);
}

std::vector<SearchResult>
runNetworkSearch(const std::vector<const MapSpace *> &spaces,
                 NetworkSearcher &searcher, const SearchOptions &options) {
  NetworkSearchRun run(spaces, searcher, options);
  while (run.round())
    ;
  return run.finish();
}

NetworkSearchRun::NetworkSearchRun(std::vector<const MapSpace *> spaces,
                                   NetworkSearcher &searcher,
                                   SearchOptions options,
                                   std::vector<SearchResult> before)
    : spaces(std::move(spaces)), searcher(searcher),
      options(std::move(options)), start(std::chrono::steady_clock::now()),
      results(std::move(before)), proposals(this->spaces.size()),
      feedback(this->spaces.size()) {
  results.resize(this->spaces.size());
  // The budget counts rounds of a batch for every problem.
  for (const SearchResult &result : results)
    samples = std::max(samples, result.samples);
  earlierSeconds.resize(results.size());
  for (size_t p = 0; p < results.size(); ++p)
    earlierSeconds[p] = results[p].seconds;
}

bool NetworkSearchRun::round() {
  if (over || samples >= options.budget || outOfTime(options, start, samples))
    return false;
  unsigned count =
      unsigned(std::min<int64_t>(options.batch, options.budget - samples));
  searcher.ask(count, proposals);
  size_t most = 0;
  for (size_t p = 0; p < spaces.size(); ++p) {
    if (proposals[p].size() > count)
      proposals[p].resize(count);
    most = std::max(most, proposals[p].size());
    feedback[p].assign(proposals[p].size(), Feedback());
    for (size_t i = 0; i < proposals[p].size(); ++i)
      feedback[p][i] =
          evaluateSample(*spaces[p], proposals[p][i].data(), options.objective,
                         results[p], mapping, evaluation);
  }
  if (most == 0) {
    over = true;
    return false;
  }
  searcher.tell(proposals, feedback);
  samples += int64_t(most);
  if (options.progress) {
    int64_t evaluated = 0;
    for (const SearchResult &result : results)
      evaluated += result.samples;
    options.progress(evaluated, options.budget * int64_t(spaces.size()));
  }
  return true;
}

std::vector<SearchResult> NetworkSearchRun::finish() {
  const double seconds = secondsSince(start);
  for (size_t p = 0; p < results.size(); ++p) {
    results[p].error = searcher.failure();
    // The problems shared the time.
    results[p].seconds = earlierSeconds[p] +
                         seconds / double(std::max<size_t>(spaces.size(), 1));
  }
  return std::move(results);
}

} // namespace marlmap
