//===- Loading.cpp - Problems, accelerators and mappings for Python -------===//
//
// Through the same functions the tools use: layer shorthands, presets,
// `.mlir` descriptions and Timeloop YAML, linalg modules, `#accel.mapping`
// text. Diagnostics become the exception's message.
//
//===----------------------------------------------------------------------===//

#include "Context.h"
#include "PyMarlmap.h"

#include "marlmap/Core/ArchVariants.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Dialect/Accel/MappingVerification.h"
#include "marlmap/Interop/TimeloopYaml.h"
#include "marlmap/Target/ResolveTarget.h"
#include "marlmap/Transforms/ModuleProblems.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>
#include <mutex>

namespace marlmap::python {

namespace {

/// The text of a file, or a ValueError naming it.
std::string readFile(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    throw py::value_error("cannot read '" + path +
                          "': " + buffer.getError().message());
  return (*buffer)->getBuffer().str();
}

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::mutex fallbackMutex;
std::string fallbackLibrary;

} // namespace

Problem layerProblem(const std::string &text) {
  llvm::Expected<Problem> problem = parseLayer(text);
  if (!problem)
    throw py::value_error(llvm::toString(problem.takeError()));
  std::vector<std::string> issues = problem->check();
  if (!issues.empty())
    throw py::value_error(issues.front());
  return *problem;
}

Problem readTimeloopProblem(const std::string &path) {
  llvm::Expected<Problem> problem = timeloop::readProblem(readFile(path), path);
  if (!problem)
    throw py::value_error(llvm::toString(problem.takeError()));
  return std::move(*problem);
}

Arch archVariant(
    const Arch &base,
    const std::vector<std::pair<std::string, std::string>> &settings) {
  llvm::Expected<Arch> variant = marlmap::archVariant(base, settings);
  if (!variant)
    throw py::value_error(llvm::toString(variant.takeError()));
  return std::move(*variant);
}

std::string archDescription(const Arch &arch) {
  Context context;
  mlir::OpBuilder builder(&context.mlir);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::ModuleOp::create(builder.getUnknownLoc());
  (*module)->setAttr("accel.target", accel::fromCore(&context.mlir, arch));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

Arch loadArch(const std::string &choice, const std::string &constraints) {
  if (endsWith(choice, ".yaml") || endsWith(choice, ".yml")) {
    llvm::Expected<Arch> arch = timeloop::readArch(readFile(choice), choice);
    if (!arch)
      throw py::value_error(llvm::toString(arch.takeError()));
    if (!constraints.empty())
      if (llvm::Error error = timeloop::readConstraints(readFile(constraints),
                                                        constraints, *arch))
        throw py::value_error(llvm::toString(std::move(error)));
    // What the dialect's verifier checks of a .mlir description.
    std::vector<ArchIssue> issues = checkArch(*arch);
    if (!issues.empty())
      throw py::value_error(choice + ": " + issues.front().message);
    return std::move(*arch);
  }
  Context context;
  mlir::OpBuilder builder(&context.mlir);
  mlir::OwningOpRef<mlir::ModuleOp> empty =
      mlir::ModuleOp::create(builder.getUnknownLoc());
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(*empty, choice, constraints);
  if (mlir::failed(target))
    throw py::value_error(context.diagnostics.errorText());
  return std::move(target->arch);
}

std::vector<LinalgOpEntry> moduleOps(const std::string &text,
                                     const std::string &name) {
  Context context;
  mlir::OwningOpRef<mlir::ModuleOp> module = context.parse(text, name);
  // Its own target: mappings the ops carry are for that one.
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(*module, "");
  if (mlir::failed(target))
    throw py::value_error(context.diagnostics.errorText());
  ModuleProblems loaded =
      loadModuleProblems(*module, target->arch, /*remarks=*/false);
  std::vector<LinalgOpEntry> ops;
  for (const OpRow &row : loaded.rows) {
    LinalgOpEntry op{row.op, row.location, std::nullopt, row.skipped};
    if (row.input)
      op.problem = loaded.problems[*row.input].problem;
    ops.push_back(std::move(op));
  }
  return ops;
}

BoundMapping parseMapping(const std::string &text, const Problem &problem,
                          const Arch &arch) {
  Context context;
  mlir::Attribute parsed = mlir::parseAttribute(text, &context.mlir);
  if (!parsed)
    throw py::value_error("not an attribute: " +
                          context.diagnostics.errorText());
  auto attr = llvm::dyn_cast<accel::MappingAttr>(parsed);
  if (!attr)
    throw py::value_error("not an #accel.mapping: " + text);
  unsigned numOperands = problem.operands.size();
  if (mlir::failed(
          accel::verifyMappingFits(attr, problem, numOperands, arch, [&] {
            return mlir::emitError(mlir::UnknownLoc::get(&context.mlir));
          })))
    throw py::value_error(context.diagnostics.errorText());
  return {accel::toCore(attr, problem.dims.size(), numOperands), problem, arch};
}

BoundMapping readTimeloopMapping(const std::string &path,
                                 const Problem &problem, const Arch &arch) {
  llvm::Expected<Mapping> mapping =
      timeloop::readMapping(readFile(path), path, problem, arch);
  if (!mapping)
    throw py::value_error(llvm::toString(mapping.takeError()));
  return {std::move(*mapping), problem, arch};
}

std::string mappingText(const BoundMapping &mapping) {
  Context context;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << accel::fromCore(&context.mlir, mapping.mapping, mapping.arch);
  return text;
}

std::string policyLibraryFor(const std::string &given) {
  if (!given.empty())
    return given;
  const char *variable = std::getenv("MARLMAP_POLICY_LIBRARY");
  if (variable && *variable)
    return "";
  std::lock_guard<std::mutex> lock(fallbackMutex);
  return fallbackLibrary;
}

void setPolicyLibraryFallback(const std::string &path) {
  std::lock_guard<std::mutex> lock(fallbackMutex);
  fallbackLibrary = path;
}

} // namespace marlmap::python
