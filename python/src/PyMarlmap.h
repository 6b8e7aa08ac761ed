//===- PyMarlmap.h - The Python module's C++ side ---------------*- C++ -*-===//
//
// What the bindings (Bindings.cpp) expose, in plain C++: loading problems,
// accelerators and mappings (Loading.cpp), and running the cost model, the
// searchers and the pass (Running.cpp). Errors are thrown as Python
// exceptions: this module alone is built with exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_PYTHON_PYMARLMAP_H
#define MARLMAP_PYTHON_PYMARLMAP_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"
#include "marlmap/Mapper/FrontEnd.h"

#include "llvm/Support/JSON.h"

#include <pybind11/pybind11.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace marlmap::python {

namespace py = pybind11;

/// A mapping with what gives it meaning: the problem and the accelerator.
struct BoundMapping {
  Mapping mapping;
  Problem problem;
  Arch arch;
};

/// A linalg op of a module: its problem, or why it has none.
struct LinalgOpEntry {
  std::string op;
  std::string location;
  std::optional<Problem> problem;
  std::string skipped;
};

/// What one search found.
struct SearchOutcome {
  bool found = false;
  std::optional<BoundMapping> mapping;
  /// marlmap-explore --json's figures of the search (evaluate's keys, then
  /// the searcher, budgets, samples, space and curve).
  py::object figures;
  std::vector<std::pair<int64_t, double>> curve;
  int64_t samples = 0;
  int64_t validSamples = 0;
  double seconds = 0.0;
  std::string notFound;
};

/// A module after --marl-map.
struct MappedText {
  std::string text;
  py::object report;
  /// Every diagnostic the pass emitted (remarks on ops left unmapped,
  /// warnings), as `location: severity: message`.
  std::vector<std::string> diagnostics;
};

/// Thrown as marlmap.Error: a failure underneath (a search that failed, a
/// pass that failed), as opposed to a bad argument (ValueError).
struct Failure {
  std::string message;
};

// Loading.cpp
Problem layerProblem(const std::string &text);
Problem readTimeloopProblem(const std::string &path);
Arch loadArch(const std::string &choice, const std::string &constraints);
/// `base` with the sizes `settings` names changed (ArchVariants.h); a
/// ValueError says why it cannot be.
Arch archVariant(
    const Arch &base,
    const std::vector<std::pair<std::string, std::string>> &settings);
/// A module whose accel.target is `arch`: a description file's text.
std::string archDescription(const Arch &arch);
std::vector<LinalgOpEntry> moduleOps(const std::string &text,
                                     const std::string &name);
BoundMapping parseMapping(const std::string &text, const Problem &problem,
                          const Arch &arch);
BoundMapping readTimeloopMapping(const std::string &path,
                                 const Problem &problem, const Arch &arch);
std::string mappingText(const BoundMapping &mapping);
/// The policy library to pass on: `given`, else the module's own layout
/// when MARLMAP_POLICY_LIBRARY is not set.
std::string policyLibraryFor(const std::string &given);
void setPolicyLibraryFallback(const std::string &path);

// Running.cpp
py::object evaluate(const BoundMapping &mapping);
SearchOutcome search(const Problem &problem, const Arch &arch,
                     const MapperOptions &options);
MappedText mapModule(const std::string &text, const std::string &arch,
                     const std::string &constraints,
                     const MapperOptions &options, const std::string &name);
py::list searchers();
/// Every factor space's name, the smallest first.
py::list factorSpaces();
/// Every value `factors` takes: the spaces, then "auto".
py::list factorsOptions();

// Importing.cpp
/// marlmap.NetworkBuilder and its values, on `m`.
void bindImporter(py::module_ &m);

// Json.cpp
py::object toPython(const llvm::json::Value &value);
py::object toPython(llvm::json::Object object);

} // namespace marlmap::python

#endif // MARLMAP_PYTHON_PYMARLMAP_H
