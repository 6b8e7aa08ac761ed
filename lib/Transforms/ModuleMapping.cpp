//===- ModuleMapping.cpp - Map a module's ops and save the outcome --------===//

#include "marlmap/Transforms/ModuleMapping.h"

#include "marlmap/Core/Presets.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/ArchConversion.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"
#include "marlmap/Target/ResolveTarget.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/ThreadPool.h"

using namespace mlir;

namespace marlmap {

namespace {

/// Searches on the context's thread pool, at most `count` at once; on the
/// calling thread when threading is off (no pool).
class ContextExecutor : public Executor {
public:
  ContextExecutor(llvm::ThreadPoolInterface *pool, unsigned count)
      : pool(pool), count(count) {}

  unsigned concurrency() const override { return count; }

  void run(unsigned tasks, const std::function<void(unsigned)> &task) override {
    if (!pool) {
      for (unsigned i = 0; i < tasks; ++i)
        task(i);
      return;
    }
    llvm::ThreadPoolTaskGroup group(*pool);
    for (unsigned i = 0; i < tasks; ++i)
      group.async([&task, i] { task(i); });
    group.wait();
  }

private:
  llvm::ThreadPoolInterface *pool;
  unsigned count;
};

/// The context's threads (none with --mlir-disable-threading), at most
/// `threads` of them when it is set.
ContextExecutor executorFor(MLIRContext *context, int64_t threads) {
  if (!context->isMultithreadingEnabled())
    return ContextExecutor(nullptr, 1);
  llvm::ThreadPoolInterface &pool = context->getThreadPool();
  unsigned count = pool.getMaxConcurrency();
  if (threads > 0)
    count = std::min<unsigned>(count, unsigned(threads));
  return ContextExecutor(&pool, count);
}

DictionaryAttr costAttr(MLIRContext *context, const ProblemOutcome &outcome) {
  Builder b(context);
  const Evaluation &evaluation = outcome.evaluation;
  return b.getDictionaryAttr({
      b.getNamedAttr("cycles", b.getI64IntegerAttr(evaluation.cycles)),
      b.getNamedAttr("energy_pJ", b.getF64FloatAttr(evaluation.energy)),
      b.getNamedAttr("edp", b.getF64FloatAttr(evaluation.edp)),
      b.getNamedAttr("utilization", b.getF64FloatAttr(evaluation.utilization)),
      b.getNamedAttr("bound_ratio", b.getF64FloatAttr(outcome.boundRatio)),
      b.getNamedAttr("samples",
                     b.getI64IntegerAttr(outcome.source == Source::Given
                                             ? 0
                                             : outcome.samples)),
  });
}

/// Mappings verify against the module's target: makes `arch` the one used
/// (by name when it is a preset as it stands).
void setTarget(ModuleOp module, const Arch &arch) {
  MLIRContext *context = module.getContext();
  std::optional<Arch> preset = findPreset(arch.name);
  module->setAttr(accel::AccelDialect::kTargetAttrName,
                  preset && *preset == arch
                      ? Attribute(StringAttr::get(context, arch.name))
                      : Attribute(accel::fromCore(context, arch)));
}

/// Each outcome on its ops, as attributes and diagnostics; whether any op
/// failed.
bool saveOutcomes(ModuleOp module, const MappedModule &mapped) {
  MLIRContext *context = module.getContext();
  const Arch &arch = mapped.mapper->request().arch;
  const MapperResult &result = mapped.result;
  for (const std::string &warning : result.warnings)
    emitWarning(module.getLoc()) << "marl-map: " << warning;
  bool failed = false;
  if (!result.error.empty()) {
    emitError(module.getLoc()) << "marl-map: " << result.error;
    failed = true;
    // Nothing was searched: the ops have nothing to say.
    if (result.errorIsSetting)
      return failed;
  }
  for (const ProblemOutcome &outcome : result.problems) {
    // Equal problems share one attribute of each kind.
    accel::MappingAttr mapping;
    DictionaryAttr cost;
    if (outcome.found) {
      mapping = accel::fromCore(context, outcome.mapping, arch);
      cost = costAttr(context, outcome);
    }
    for (size_t input : outcome.inputs) {
      Operation *op = mapped.loaded.ops[input];
      if (!outcome.error.empty()) {
        InFlightDiagnostic diagnostic = emitError(op->getLoc());
        if (outcome.source != Source::Given)
          diagnostic << "marl-map: cannot map this op: ";
        diagnostic << outcome.error;
        failed = true;
      } else if (!outcome.found && outcome.noMapSpace) {
        emitWarning(op->getLoc()) << "not mapped: no mapping of this op on '"
                                  << arch.name << "': " << outcome.notFound;
      } else if (!outcome.found) {
        emitRemark(op->getLoc()) << "not mapped: " << outcome.notFound;
      } else {
        if (outcome.source != Source::Given)
          op->setAttr(accel::AccelDialect::kMappingAttrName, mapping);
        op->setAttr(accel::AccelDialect::kCostAttrName, cost);
      }
    }
  }
  return failed;
}

} // namespace

FailureOr<MappedModule> mapModule(ModuleOp module,
                                  const ModuleMapOptions &options,
                                  const ProgressCallback &progress) {
  auto refuse = [&](llvm::Error error) {
    emitError(module.getLoc()) << "marl-map: " << errorText(std::move(error));
    return failure();
  };
  // The options first: what they refuse does not depend on the module.
  llvm::Expected<MapperRequest> request = makeRequest(options.mapper);
  if (!request)
    return refuse(request.takeError());
  FailureOr<accel::ResolvedTarget> target =
      accel::resolveTarget(module, options.arch, options.constraints);
  if (failed(target))
    return failure();
  request->arch = target->arch;
  llvm::Expected<std::unique_ptr<Mapper>> mapper =
      Mapper::create(std::move(*request));
  if (!mapper)
    return refuse(mapper.takeError());

  MappedModule mapped;
  mapped.mapper = std::move(*mapper);
  const Arch &arch = mapped.mapper->request().arch;
  setTarget(module, arch);
  mapped.loaded = loadModuleProblems(module, arch, /*remarks=*/true);
  // An op mapped for another accelerator fails the compile: no search.
  if (mapped.loaded.failed)
    return failure();
  ContextExecutor executor =
      executorFor(module.getContext(), options.mapper.threads);
  mapped.result =
      mapped.mapper->map(mapped.loaded.problems, executor, progress);
  mapped.failed = saveOutcomes(module, mapped);
  return mapped;
}

} // namespace marlmap
