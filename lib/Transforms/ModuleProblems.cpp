//===- ModuleProblems.cpp - A module's linalg ops as Mapper input ---------===//

#include "marlmap/Transforms/ModuleProblems.h"

#include "marlmap/Analysis/ProblemExtraction.h"
#include "marlmap/Dialect/Accel/AccelAttrs.h"
#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Dialect/Accel/MappingConversion.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;

namespace marlmap {

namespace {

/// "file.mlir:12:5" as diagnostics write it, or the location as MLIR
/// prints it when it names no file.
std::string locationText(Operation *op) {
  if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return text;
}

/// Whether `given` names `arch`'s levels; an error at `op` when not.
bool levelsMatch(Operation *op, accel::MappingAttr given, const Arch &arch) {
  SmallVector<StringRef> levelNames, archNames;
  for (accel::LevelMappingAttr level : given.getLevels())
    levelNames.push_back(level.getName());
  for (const StorageLevel &level : arch.levels)
    archNames.push_back(level.name);
  if (levelNames == archNames)
    return true;
  emitError(op->getLoc()) << "the mapping it carries is for the levels ("
                          << llvm::join(levelNames, ", ")
                          << "), not for those of '" << arch.name << "' ("
                          << llvm::join(archNames, ", ") << ")";
  return false;
}

} // namespace

ModuleProblems loadModuleProblems(ModuleOp module, const Arch &arch,
                                  bool remarks) {
  ModuleProblems loaded;
  for (linalg::LinalgOp linalgOp : collectLinalgOps(module)) {
    Operation *op = linalgOp;
    // Fills compute nothing: not worth a remark each.
    if (readsNoTensor(linalgOp))
      continue;
    OpRow row{op->getName().getStringRef().str(), locationText(op),
              std::nullopt, ""};
    llvm::Expected<Problem> problem = extractProblem(linalgOp);
    if (!problem) {
      row.skipped = llvm::toString(problem.takeError());
      if (remarks)
        emitRemark(op->getLoc()) << "not mapped: " << row.skipped;
      loaded.rows.push_back(std::move(row));
      continue;
    }
    MapperProblem input{std::move(*problem), std::nullopt};
    if (auto given = op->getAttrOfType<accel::MappingAttr>(
            accel::AccelDialect::kMappingAttrName)) {
      // Mapped for other levels: another accelerator's mapping.
      if (!levelsMatch(op, given, arch)) {
        loaded.failed = true;
        row.skipped = "it carries a mapping for another accelerator";
        loaded.rows.push_back(std::move(row));
        continue;
      }
      input.given = accel::toCore(given, input.problem.dims.size(),
                                  input.problem.operands.size());
    }
    row.input = loaded.problems.size();
    loaded.problems.push_back(std::move(input));
    loaded.ops.push_back(op);
    loaded.rows.push_back(std::move(row));
  }
  return loaded;
}

} // namespace marlmap
