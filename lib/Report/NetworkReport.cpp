//===- NetworkReport.cpp - A mapped network as a table and as JSON --------===//

#include "marlmap/Report/NetworkReport.h"

#include "marlmap/Report/JsonReport.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>

namespace marlmap {

size_t countSkipped(const std::vector<OpRow> &rows) {
  size_t skipped = 0;
  for (const OpRow &row : rows)
    skipped += !row.input.has_value();
  return skipped;
}

const ProblemOutcome *outcomeOf(const OpRow &row, const MapperResult &result) {
  return row.input ? &result.problems[result.distinctOf[*row.input]] : nullptr;
}

namespace {

/// A number, or null when there is none.
llvm::json::Value orNull(std::optional<double> value) {
  return value ? llvm::json::Value(*value) : llvm::json::Value(nullptr);
}

llvm::json::Value budgetJson(const MapperRequest &request) {
  llvm::json::Object budget;
  budget["samples_per_problem"] = scheduleByTime(request)
                                      ? llvm::json::Value(nullptr)
                                      : llvm::json::Value(sampleCap(request));
  budget["seconds"] = request.seconds > 0 ? llvm::json::Value(request.seconds)
                                          : llvm::json::Value(nullptr);
  return budget;
}

} // namespace

std::string totalsLine(const MapperRequest &request, const MapperResult &result,
                       size_t opsSkipped) {
  const NetworkTotals &t = result.totals;
  char clock[32];
  std::snprintf(clock, sizeof(clock), "%g", request.arch.clockMHz);
  return llvm::formatv(
      "{0} ops mapped ({1} distinct problems: {2} searched, {3} from the "
      "cache, {4} given), {5} not mapped; energy {6:e3} pJ, {7} cycles "
      "({8:e3} s at {9} MHz), EDP {10:e3}; {11} samples in {12:f2} s ({13}, "
      "{14}, {15}{16})",
      t.opsMapped, t.distinctProblems, t.searched, t.cacheHits, t.given,
      t.opsNotMapped + opsSkipped, t.energy, t.cycles, t.latencySeconds, clock,
      t.edp, t.samples, t.seconds, describeSearcher(request.searcher),
      budgetKey(request), objectiveName(request.objective),
      // The default, auto, goes without saying.
      request.factorsWhereTheyPay
          ? std::string()
          : std::string(", factors=") + factorsOptionName(request));
}

bool anyProvenOptimum(const MapperResult &result) {
  for (const ProblemOutcome &outcome : result.problems)
    if (outcome.found && outcome.optimum)
      return true;
  return false;
}

std::string gapText(std::optional<double> gap) {
  if (!gap)
    return "-";
  return llvm::formatv("{0}{1:f1}%", *gap < 0 ? "" : "+", 100.0 * *gap).str();
}

void printSummary(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                  const MapperRequest &request, const MapperResult &result,
                  const std::string &prefix) {
  const bool gaps = anyProvenOptimum(result);
  os << llvm::formatv("{0,-28} {1,-22} {2,12} {3,12} {4,12} {5,8} {6,8} {7,8}",
                      "op", "loops", "cycles", "energy pJ", "EDP", "x bound",
                      "samples", "seconds");
  os << (gaps ? llvm::formatv(" {0,9}\n", "> optimum").str() : "\n");
  for (const OpRow &row : rows) {
    const ProblemOutcome *outcome = outcomeOf(row, result);
    if (!outcome || !outcome->found) {
      os << llvm::formatv("{0,-28} {1,-22} not mapped: {2}\n", row.op,
                          outcome ? outcome->problem.boundsText() : "",
                          outcome ? (outcome->error.empty() ? outcome->notFound
                                                            : outcome->error)
                                  : row.skipped);
      continue;
    }
    const Evaluation &e = outcome->evaluation;
    os << llvm::formatv(
        "{0,-28} {1,-22} {2,12} {3,12:e2} {4,12:e2} {5,8:f2} {6,8} "
        "{7,8:f3}",
        row.op, outcome->problem.boundsText(), e.cycles, e.energy, e.edp,
        outcome->boundRatio,
        outcome->source == Source::Searched ? std::to_string(outcome->samples)
                                            : sourceName(outcome->source),
        outcome->seconds);
    if (gaps)
      os << llvm::formatv(" {0,9}",
                          gapText(gapToOptimum(*outcome, request.objective)));
    os << "\n";
  }
  os << prefix << ": " << totalsLine(request, result, countSkipped(rows));
  if (result.totals.gapToOptimum)
    os << "; " << gapText(result.totals.gapToOptimum) << " "
       << objectiveName(request.objective) << " over the ops' proven optima";
  os << "\n";
}

llvm::json::Object reportToJson(const std::vector<OpRow> &rows,
                                const MapperRequest &request,
                                const MapperResult &result) {
  const NetworkTotals &t = result.totals;
  llvm::json::Array ops, skipped;
  for (const OpRow &row : rows) {
    const ProblemOutcome *outcome = outcomeOf(row, result);
    if (!outcome || !outcome->found) {
      skipped.push_back(llvm::json::Object{
          {"op", row.op},
          {"location", row.location},
          {"reason", outcome ? (outcome->error.empty() ? outcome->notFound
                                                       : outcome->error)
                             : row.skipped}});
      continue;
    }
    llvm::json::Object entry =
        evaluationToJson(outcome->evaluation, outcome->problem, request.arch);
    entry["op"] = row.op;
    entry["location"] = row.location;
    entry["problem"] = int64_t(result.distinctOf[*row.input]);
    entry["loops"] = outcome->problem.boundsText();
    entry["multiplicity"] = int64_t(outcome->inputs.size());
    entry["source"] = sourceName(outcome->source);
    entry["factors"] = factorSpaceName(outcome->factors);
    entry["bound_ratio"] = outcome->boundRatio;
    entry["cycles_over_bound"] =
        double(outcome->evaluation.cycles) /
        double(std::max<int64_t>(outcome->bound.cycles, 1));
    entry["lower_bound"] = lowerBoundToJson(outcome->bound);
    entry["proved_optimal"] = outcome->provedOptimal;
    entry["objective_lower_bound"] = outcome->objectiveLowerBound;
    entry["gap_to_optimum"] = orNull(gapToOptimum(*outcome, request.objective));
    entry["samples"] = outcome->samples;
    entry["seconds"] = outcome->seconds;
    if (!outcome->agents.empty()) {
      entry["agents"] = int64_t(outcome->agents.size());
      entry["agents_from_weights"] = int64_t(outcome->agentsFromWeights);
    }
    entry["mapping"] =
        mappingToJson(outcome->mapping, outcome->problem, request.arch);
    ops.push_back(std::move(entry));
  }
  llvm::json::Object totals{
      {"energy_pJ", t.energy},
      {"cycles", t.cycles},
      {"edp", t.edp},
      {"latency_s", t.latencySeconds},
      {"macs", t.macs},
      {"ops_mapped", int64_t(t.opsMapped)},
      {"ops_not_mapped", int64_t(t.opsNotMapped + countSkipped(rows))},
      {"distinct_problems", int64_t(t.distinctProblems)},
      {"searched", int64_t(t.searched)},
      {"cache_hits", int64_t(t.cacheHits)},
      {"given", int64_t(t.given)},
      {"samples", t.samples},
      {"seconds", t.seconds},
      {"gap_to_optimum", orNull(t.gapToOptimum)}};
  return llvm::json::Object{
      {"schema", "marlmap-report-1"},
      {"target", archToJson(request.arch)},
      {"objective", objectiveName(request.objective)},
      {"factors", factorsOptionName(request)},
      {"searcher", describeSearcher(request.searcher)},
      {"searcher_key", searcherKey(request.searcher)},
      {"budget", budgetJson(request)},
      // A time budget makes results depend on the machine's speed.
      {"deterministic", request.seconds <= 0},
      {"seed", request.seed},
      {"totals", std::move(totals)},
      {"ops", std::move(ops)},
      {"not_mapped", std::move(skipped)}};
}

void printComparison(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                     const std::vector<MappedNetwork> &networks) {
  os << llvm::formatv("{0,-28} {1,-22}", "op", "loops");
  for (const MappedNetwork &network : networks)
    os << llvm::formatv(" | {0,-38}", network.request->arch.name);
  os << "\n" << llvm::formatv("{0,-28} {1,-22}", "", "");
  for (size_t n = 0; n < networks.size(); ++n)
    os << llvm::formatv(" | {0,12} {1,12} {2,12}", "cycles", "energy pJ",
                        "EDP");
  os << "\n";
  for (const OpRow &row : rows) {
    const ProblemOutcome *first =
        networks.empty() ? nullptr : outcomeOf(row, *networks[0].result);
    os << llvm::formatv("{0,-28} {1,-22}", row.op,
                        first ? first->problem.boundsText() : "");
    for (const MappedNetwork &network : networks) {
      const ProblemOutcome *outcome = outcomeOf(row, *network.result);
      if (!outcome || !outcome->found)
        os << llvm::formatv(" | {0,-38}", "not mapped");
      else
        os << llvm::formatv(
            " | {0,12} {1,12:e2} {2,12:e2}", outcome->evaluation.cycles,
            outcome->evaluation.energy, outcome->evaluation.edp);
    }
    os << "\n";
  }
  os << llvm::formatv("{0,-51}", "network (ops one after another)");
  for (const MappedNetwork &network : networks)
    os << llvm::formatv(
        " | {0,12} {1,12:e2} {2,12:e2}", network.result->totals.cycles,
        network.result->totals.energy, network.result->totals.edp);
  os << "\n";
  for (const MappedNetwork &network : networks)
    os << network.request->arch.name << ": "
       << totalsLine(*network.request, *network.result, countSkipped(rows))
       << "\n";
}

llvm::json::Object
comparisonToJson(const std::vector<OpRow> &rows,
                 const std::vector<MappedNetwork> &networks) {
  llvm::json::Array reports;
  for (const MappedNetwork &network : networks)
    reports.push_back(reportToJson(rows, *network.request, *network.result));
  return llvm::json::Object{{"schema", "marlmap-comparison-1"},
                            {"reports", std::move(reports)}};
}

} // namespace marlmap
