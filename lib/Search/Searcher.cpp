//===- Searcher.cpp - Searching a map space by asking and telling ---------===//

#include "marlmap/Search/Searcher.h"

#include <chrono>

namespace marlmap {

const char *objectiveName(Objective objective) {
  switch (objective) {
  case Objective::Latency:
    return "latency";
  case Objective::Energy:
    return "energy";
  case Objective::EDP:
    return "edp";
  }
  return "?";
}

std::optional<Objective> parseObjective(const std::string &name) {
  for (Objective objective :
       {Objective::Latency, Objective::Energy, Objective::EDP})
    if (name == objectiveName(objective))
      return objective;
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

SearchResult runSearch(const MapSpace &space, Searcher &searcher,
                       const SearchOptions &options) {
  auto start = std::chrono::steady_clock::now();
  SearchResult result;
  std::vector<std::vector<int64_t>> proposals;
  std::vector<Feedback> feedback;
  Mapping mapping;
  Evaluation evaluation;
  int64_t sinceImprovement = 0;
  while (result.samples < options.budget && !result.stoppedEarly) {
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
      space.decode(proposals[i].data(), mapping);
      ++result.samples;
      ++sinceImprovement;
      if (space.model().evaluate(mapping, evaluation)) {
        ++result.validSamples;
        double cost = objectiveValue(evaluation, options.objective);
        feedback[i] = {true, cost};
        if (!result.found || cost < result.bestCost) {
          result.found = true;
          result.bestCost = cost;
          result.best = mapping;
          result.bestEvaluation = evaluation;
          result.curve.push_back({result.samples, cost});
          sinceImprovement = 0;
        }
      }
      result.stoppedEarly =
          options.stopAfter > 0 && sinceImprovement >= options.stopAfter;
    }
    searcher.tell(proposals, feedback);
    if (options.progress)
      options.progress(result.samples, options.budget);
  }
  result.error = searcher.failure();
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return result;
}

} // namespace marlmap
