//===- Context.cpp - An MLIR context that keeps its diagnostics -----------===//

#include "Context.h"
#include "PyMarlmap.h"

#include "marlmap/Dialect/Accel/AccelDialect.h"
#include "marlmap/Registration.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"

namespace marlmap::python {

namespace {

/// Built once: what marlmap-opt registers.
const mlir::DialectRegistry &registry() {
  static const mlir::DialectRegistry *all = [] {
    auto *registry = new mlir::DialectRegistry;
    mlir::registerAllDialects(*registry);
    mlir::registerAllExtensions(*registry);
    registerMarlmapDialects(*registry);
    return registry;
  }();
  return *all;
}

const char *severityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  }
  return "note";
}

/// "model.mlir:12:10" as the tools print it; "" for an unknown location.
std::string locationText(mlir::Location location) {
  if (llvm::isa<mlir::UnknownLoc>(location))
    return "";
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(location))
    return (file.getFilename().str() + ":" + llvm::Twine(file.getLine()) + ":" +
            llvm::Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << location;
  return text;
}

} // namespace

Diagnostics::Diagnostics(mlir::MLIRContext &context)
    : handler(&context, [this](mlir::Diagnostic &diagnostic) {
        add(diagnostic);
        for (mlir::Diagnostic &note : diagnostic.getNotes())
          add(note);
        return mlir::success();
      }) {}

void Diagnostics::add(mlir::Diagnostic &diagnostic) {
  std::string location = locationText(diagnostic.getLocation());
  std::string prefix = location.empty() ? "" : location + ": ";
  std::string message = diagnostic.str();
  collected.push_back(prefix + severityName(diagnostic.getSeverity()) + ": " +
                      message);
  mlir::DiagnosticSeverity severity = diagnostic.getSeverity();
  if (severity == mlir::DiagnosticSeverity::Error ||
      (severity == mlir::DiagnosticSeverity::Note && !errors.empty()))
    errors += (errors.empty() ? "" : "\n") + prefix + message;
}

std::string Diagnostics::errorText() const {
  return errors.empty() ? "failed without a diagnostic" : errors;
}

Context::Context(bool threads)
    : mlir(registry(), threads ? mlir::MLIRContext::Threading::ENABLED
                               : mlir::MLIRContext::Threading::DISABLED) {
  mlir.loadDialect<accel::AccelDialect>();
}

mlir::OwningOpRef<mlir::ModuleOp> Context::parse(const std::string &text,
                                                 const std::string &name) {
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                             llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, &mlir);
  if (!module)
    throw py::value_error(diagnostics.errorText());
  return module;
}

} // namespace marlmap::python
