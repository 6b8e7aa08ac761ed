//===- Output.cpp - What marlmap-explore writes ---------------------------===//

#include "Explore.h"

#include "marlmap/Interop/TimeloopYaml.h"
#include "marlmap/Report/HtmlReport.h"
#include "marlmap/Support/OutputFile.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

namespace marlmap::explore {

namespace {

void writeText(const std::string &path, const std::string &text) {
  if (llvm::Error error =
          writeOutputFile(path, [&](llvm::raw_ostream &os) { os << text; }))
    fail(llvm::toString(std::move(error)));
}

std::string jsonText(const llvm::json::Object &json) {
  return llvm::formatv("{0:2}\n", llvm::json::Value(llvm::json::Object(json)))
      .str();
}

} // namespace

[[noreturn]] void fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "marlmap-explore") << message << "\n";
  std::exit(1);
}

[[noreturn]] void fail(llvm::Error error) {
  // The front end's names for options that are flags of other names here.
  fail(errorText(std::move(error), [](const std::string &option) {
    if (option == "threads")
      return std::string("--jobs");
    if (option == "stop-after")
      return std::string("--victory-condition");
    return "--" + option;
  }));
}

void emit(const Options &options, const llvm::json::Object &json,
          const std::string &text) {
  if (!options.jsonOutput.empty())
    writeText(options.jsonOutput, jsonText(json));
  Format format = options.format;
  if (format == Format::Auto) {
    if (!options.jsonOutput.empty())
      return;
    format = llvm::outs().is_displayed() ? Format::Text : Format::Json;
  }
  writeText("-", format == Format::Text ? text : jsonText(json));
}

void writeReport(const Options &options, const std::vector<OpRow> &rows,
                 const std::vector<MappedNetwork> &networks) {
  if (options.report.empty())
    return;
  auto write = [&](llvm::raw_ostream &os) {
    if (isHtmlPath(options.report))
      writeHtmlReport(os, rows, networks);
    else
      os << jsonText(
          networks.size() == 1
              ? reportToJson(rows, *networks[0].request, *networks[0].result)
              : comparisonToJson(rows, networks));
  };
  if (llvm::Error error = writeOutputFile(options.report, write))
    fail("cannot write the report: " + llvm::toString(std::move(error)));
}

void writeTimeloop(const Options &options, const Problem &problem,
                   const Arch &arch, const Mapping *mapping) {
  const std::string &prefix = options.timeloopOut;
  if (prefix.empty())
    return;
  writeText(prefix + ".arch.yaml", timeloop::writeArch(arch));
  writeText(prefix + ".problem.yaml", timeloop::writeProblem(problem));
  llvm::Expected<std::string> constraints =
      timeloop::writeConstraints(arch, problem);
  if (constraints)
    writeText(prefix + ".constraints.yaml", *constraints);
  else
    llvm::WithColor::warning(llvm::errs(), "marlmap-explore")
        << "no " << prefix
        << ".constraints.yaml: " << llvm::toString(constraints.takeError())
        << "\n";
  if (!mapping)
    return;
  llvm::Expected<std::string> text =
      timeloop::writeMapping(*mapping, problem, arch);
  if (!text) {
    llvm::WithColor::warning(llvm::errs(), "marlmap-explore")
        << "no " << prefix
        << ".mapping.yaml: " << llvm::toString(text.takeError()) << "\n";
    return;
  }
  writeText(prefix + ".mapping.yaml", *text);
}

void printWarnings(const MapperResult &result) {
  for (const std::string &warning : result.warnings)
    llvm::WithColor::warning(llvm::errs(), "marlmap-explore")
        << warning << "\n";
}

std::unique_ptr<Mapper> mapperFor(const Options &options, const Arch &arch) {
  llvm::Expected<std::unique_ptr<Mapper>> mapper =
      makeMapper(options.mapper, arch);
  if (!mapper)
    fail(mapper.takeError());
  return std::move(*mapper);
}

ProgressCallback progressPrinter(const Options &options) {
  return makeProgressPrinter(options.progress, llvm::errs(),
                             llvm::errs().is_displayed(), "marlmap-explore");
}

} // namespace marlmap::explore
