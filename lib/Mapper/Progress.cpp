//===- Progress.cpp - Showing a mapper's progress -------------------------===//

#include "marlmap/Mapper/Progress.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <chrono>
#include <memory>

namespace marlmap {

std::optional<ProgressStyle> parseProgressStyle(const std::string &text) {
  if (text == "auto")
    return ProgressStyle::Auto;
  if (text == "bar")
    return ProgressStyle::Bar;
  if (text == "lines")
    return ProgressStyle::Lines;
  if (text == "json")
    return ProgressStyle::Json;
  if (text == "none")
    return ProgressStyle::None;
  return std::nullopt;
}

namespace {

/// "12/44 problems, 24000 samples, 3.1 s" (and "of 10 s" under a time
/// budget).
std::string status(const MapperEvent &event) {
  std::string text =
      llvm::formatv("{0}/{1} problems searched, {2} samples, "
                    "{3:f1} s",
                    event.done, event.total, event.samples, event.seconds);
  if (event.secondsBudget > 0)
    text += llvm::formatv(" of {0} s", event.secondsBudget).str();
  return text;
}

void printBar(llvm::raw_ostream &os, const std::string &prefix,
              const MapperEvent &event) {
  if (event.kind == MapperEvent::Kind::Start && event.total == 0)
    return;
  constexpr int kWidth = 30;
  // Problems done, or samples spent (packs of problems finish together).
  double fraction =
      event.total ? double(event.done) / double(event.total) : 1.0;
  if (event.sampleCap > 0 && event.total)
    fraction = std::max(fraction, std::min(1.0, double(event.samples) /
                                                    (double(event.sampleCap) *
                                                     double(event.total))));
  if (event.secondsBudget > 0)
    fraction =
        std::max(fraction, std::min(1.0, event.seconds / event.secondsBudget));
  int filled = int(kWidth * fraction);
  os << "\r" << prefix << ": [" << std::string(filled, '#')
     << std::string(kWidth - filled, ' ') << "] " << status(event);
  if (event.kind == MapperEvent::Kind::Finish)
    os << "\n";
  os.flush();
}

/// One line at start-up is noise: a line when 2 seconds have passed since
/// the last (events come after every batch), and the last.
struct LinePrinter {
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();

  void print(llvm::raw_ostream &os, const std::string &prefix,
             const MapperEvent &event) {
    auto now = std::chrono::steady_clock::now();
    bool finish = event.kind == MapperEvent::Kind::Finish;
    if (!finish && now - last < std::chrono::seconds(2))
      return;
    last = now;
    os << prefix << ": " << (finish ? "done: " : "") << status(event) << "\n";
    os.flush();
  }
};

void printJson(llvm::raw_ostream &os, const MapperEvent &event) {
  static const char *kinds[] = {"start", "progress", "problem", "finish"};
  llvm::json::Object line{{"event", kinds[int(event.kind)]},
                          {"problems", int64_t(event.total)},
                          {"done", int64_t(event.done)},
                          {"samples", event.samples},
                          {"seconds", event.seconds}};
  if (event.secondsBudget > 0)
    line["time_budget"] = event.secondsBudget;
  if (const ProblemOutcome *outcome = event.outcome) {
    line["problem"] = int64_t(event.problem);
    line["problem_samples"] = outcome->samples;
    line["found"] = outcome->found;
    if (outcome->found) {
      line["cycles"] = outcome->evaluation.cycles;
      line["energy_pJ"] = outcome->evaluation.energy;
    }
  }
  os << llvm::json::Value(std::move(line)) << "\n";
  os.flush();
}

} // namespace

ProgressCallback makeProgressPrinter(ProgressStyle style, llvm::raw_ostream &os,
                                     bool terminal, std::string prefix) {
  if (style == ProgressStyle::Auto)
    style = terminal ? ProgressStyle::Bar : ProgressStyle::Lines;
  switch (style) {
  case ProgressStyle::Bar:
    return [&os, prefix](const MapperEvent &event) {
      printBar(os, prefix, event);
    };
  case ProgressStyle::Lines: {
    auto printer = std::make_shared<LinePrinter>();
    return [&os, prefix, printer](const MapperEvent &event) {
      printer->print(os, prefix, event);
    };
  }
  case ProgressStyle::Json:
    return [&os](const MapperEvent &event) { printJson(os, event); };
  case ProgressStyle::Auto:
  case ProgressStyle::None:
    break;
  }
  return {};
}

} // namespace marlmap
