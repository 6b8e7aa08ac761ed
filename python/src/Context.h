//===- Context.h - An MLIR context that keeps its diagnostics ---*- C++ -*-===//
//
// One per call: every dialect a lowered network may use plus marlmap's, with
// the diagnostics collected as text for the exception a call raises.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_PYTHON_CONTEXT_H
#define MARLMAP_PYTHON_CONTEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace marlmap::python {

class Diagnostics {
public:
  explicit Diagnostics(mlir::MLIRContext &context);
  /// `location: severity: message`, one per diagnostic (notes included).
  const std::vector<std::string> &lines() const { return collected; }
  /// The errors and their notes, `location: message` one per line: what an
  /// exception says.
  std::string errorText() const;

private:
  void add(mlir::Diagnostic &diagnostic);

  std::vector<std::string> collected;
  std::string errors;
  mlir::ScopedDiagnosticHandler handler;
};

struct Context {
  /// With a thread pool only when asked: the pass's searches run on it.
  explicit Context(bool threads = false);
  mlir::MLIRContext mlir;
  Diagnostics diagnostics{mlir};

  /// `text` parsed as a module named `name` in diagnostics; a ValueError
  /// with the parser's diagnostics when it does not parse or verify.
  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &text,
                                          const std::string &name);
};

} // namespace marlmap::python

#endif // MARLMAP_PYTHON_CONTEXT_H
