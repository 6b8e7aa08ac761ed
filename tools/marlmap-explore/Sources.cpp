//===- Sources.cpp - What marlmap-explore works on ------------------------===//

#include "Explore.h"

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Core/Layers.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Interop/TimeloopYaml.h"
#include "marlmap/Target/ResolveTarget.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"

namespace marlmap::explore {

namespace {

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

/// Whether some constraint of `arch` names a dim (beyond keeps and one
/// axis per dim).
bool namesDims(const Arch &arch) {
  for (const Constraint &c : arch.constraints)
    if (!c.temporal.empty() || !c.spatialX.empty() || !c.spatialY.empty() ||
        c.order || c.spatialXDims || c.spatialYDims)
      return true;
  return false;
}

Job fromTimeloop(const Options &options, mlir::MLIRContext &context,
                 const std::string &choice) {
  Job job;
  mlir::OwningOpRef<mlir::ModuleOp> empty =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  job.arch = archFor(options, *empty, choice);
  job.problem = orFail(timeloop::readProblem(readFile(options.timeloopProblem),
                                             options.timeloopProblem));
  // Timeloop constraints written for this problem name its dims by their
  // letters, which marlmap reads as its dim names: a problem whose dims
  // carry those letters for other loops would be constrained elsewhere.
  bool timeloopSpec = !options.timeloopConstraints.empty() ||
                      llvm::StringRef(choice).ends_with(".yaml") ||
                      llvm::StringRef(choice).ends_with(".yml");
  if (timeloopSpec && namesDims(job.arch))
    if (llvm::Error error = timeloop::checkDimNames(job.problem))
      fail(options.timeloopProblem + ": " + llvm::toString(std::move(error)));
  if (!options.timeloopMapping.empty())
    job.mapping = orFail(
        timeloop::readMapping(readFile(options.timeloopMapping),
                              options.timeloopMapping, job.problem, job.arch));
  job.source = options.timeloopProblem;
  return job;
}

/// The op --op-index picks, on the accelerator `choice` names.
Job fromMlir(const Options &options, mlir::ModuleOp module,
             const std::string &choice) {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops = collectLinalgOps(module);
  const unsigned index = *options.opIndex;
  if (index >= ops.size())
    fail("'" + options.input + "' has " + llvm::Twine(ops.size()) +
         " linalg ops; --op-index " + llvm::Twine(index) + " is not one");
  mlir::linalg::LinalgOp op = ops[index];
  llvm::Expected<Problem> problem = extractProblem(op);
  if (!problem)
    fail("op #" + llvm::Twine(index) +
         " cannot be mapped: " + llvm::toString(problem.takeError()));
  // The op's own module decides its target (nested modules may differ).
  Job job{std::move(*problem),
          archFor(options, op->getParentOfType<mlir::ModuleOp>(), choice),
          std::nullopt, options.input + " op #" + std::to_string(index)};
  if (auto attr = op->getAttrOfType<accel::MappingAttr>(
          accel::AccelDialect::kMappingAttrName))
    job.mapping = accel::toCore(attr, job.problem.dims.size(),
                                job.problem.operands.size());
  return job;
}

Job fromLayer(const Options &options, mlir::MLIRContext &context,
              const std::string &choice) {
  llvm::Expected<Problem> problem = parseLayer(options.layer);
  if (!problem)
    fail("--layer: " + llvm::toString(problem.takeError()));
  // A layer has no module of its own: --arch or the default decides, as for
  // a module without a target.
  mlir::OwningOpRef<mlir::ModuleOp> empty =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  return {std::move(*problem), archFor(options, *empty, choice), std::nullopt,
          options.layer};
}

} // namespace

mlir::OwningOpRef<mlir::ModuleOp> parseInput(const Options &options,
                                             mlir::MLIRContext &context,
                                             llvm::SourceMgr &sourceMgr) {
  std::string error;
  auto file = mlir::openInputFile(options.input, &error);
  if (!file)
    fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    fail("cannot parse '" + options.input + "'");
  return module;
}

Arch archFor(const Options &options, mlir::ModuleOp module,
             const std::string &choice) {
  mlir::FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(module, choice, options.timeloopConstraints);
  if (mlir::failed(target))
    std::exit(1);
  return std::move(target->arch);
}

Job loadJob(const Options &options, mlir::MLIRContext &context,
            mlir::ModuleOp module, const std::string &choice) {
  Job job = module                   ? fromMlir(options, module, choice)
            : !options.layer.empty() ? fromLayer(options, context, choice)
                                     : fromTimeloop(options, context, choice);
  std::vector<std::string> issues = job.problem.check();
  for (const ArchIssue &issue : checkArch(job.arch))
    issues.push_back(issue.message);
  if (!issues.empty())
    fail(issues.front());
  return job;
}

} // namespace marlmap::explore
