//===- Bindings.cpp - import marlmap --------------------------------------===//
//
// The Python module: problems, accelerators and mappings as classes, and
// the functions that cost, search and map them. The work is done by
// Loading.cpp and Running.cpp; this file says what Python sees.
//
//===----------------------------------------------------------------------===//

#include "PyMarlmap.h"

#include "marlmap/Core/Presets.h"
#include "marlmap/Interop/TimeloopYaml.h"
#include "marlmap/Mapper/Budgets.h"
#include "marlmap/Report/JsonReport.h"
#include "marlmap/Report/NetworkReport.h"
#include "marlmap/Report/TextView.h"

#include <pybind11/stl.h>

using namespace marlmap;
using namespace marlmap::python;

namespace {

/// A Python value as a searcher option's text: `True` is "true", 0.5 is
/// "0.5", a string is itself.
std::map<std::string, std::string> optionTexts(const py::dict &options) {
  std::map<std::string, std::string> texts;
  for (const auto &[key, value] : options) {
    std::string name = py::str(key);
    if (py::isinstance<py::bool_>(value))
      texts[name] = value.cast<bool>() ? "true" : "false";
    else
      texts[name] = py::str(value);
  }
  return texts;
}

/// What the keywords of search() and map_module() ask for.
MapperOptions optionsOf(const std::string &searcher,
                        std::optional<int64_t> budget,
                        std::optional<double> time, uint64_t seed,
                        const std::string &objective, const py::dict &options,
                        const std::string &policyLibrary,
                        const std::string &factors) {
  MapperOptions mapper;
  mapper.factors = factors;
  mapper.searcher = searcher;
  mapper.budget = budget;
  mapper.seconds = time;
  mapper.seed = seed;
  mapper.objective = objective;
  mapper.searcherOptions = optionTexts(options);
  mapper.policyLibrary = policyLibraryFor(policyLibrary);
  return mapper;
}

std::string problemRepr(const Problem &problem) {
  std::string text = "<marlmap.Problem " + problem.name + " [";
  for (size_t d = 0; d < problem.dims.size(); ++d)
    text += (d ? ", " : "") + problem.dims[d].name + "=" +
            std::to_string(problem.dims[d].bound);
  return text + "]>";
}

} // namespace

PYBIND11_MODULE(_marlmap, m) {
  m.doc() = "marlmap: mapping DNN tensor operations onto spatial "
            "accelerators.";

  static py::exception<Failure> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr raised) {
    try {
      if (raised)
        std::rethrow_exception(raised);
    } catch (const Failure &failure) {
      PyErr_SetString(error.ptr(), failure.message.c_str());
    }
  });

  bindImporter(m);

  py::class_<Problem>(m, "Problem",
                      "A loop nest to map: a layer, or a linalg op's "
                      "iteration space with its operands.")
      .def_readonly("name", &Problem::name, "What it came from.")
      .def_property_readonly(
          "loops",
          [](const Problem &p) {
            py::dict loops;
            for (const LoopDim &dim : p.dims)
              loops[py::str(dim.name)] = dim.bound;
            return loops;
          },
          "{loop name: bound}, outermost first.")
      .def_property_readonly(
          "operands",
          [](const Problem &p) {
            std::vector<std::string> names;
            for (const Operand &operand : p.operands)
              names.push_back(operand.name);
            return names;
          },
          "The operands' names.")
      .def_property_readonly("macs", &Problem::iterations,
                             "Iteration-space points: the MACs.")
      .def(
          "to_json",
          [](const Problem &p) { return toPython(problemToJson(p)); },
          "Loops, iterators and operands as marlmap-explore --json "
          "writes them.")
      .def("timeloop_yaml", &timeloop::writeProblem,
           "The problem as a Timeloop problem specification.")
      .def("__eq__", [](const Problem &a,
                        const Problem &b) { return a.key() == b.key(); })
      .def("__repr__", &problemRepr);

  py::class_<Arch>(m, "Arch",
                   "An accelerator: storage levels and a "
                   "compute array.")
      .def_readonly("name", &Arch::name)
      .def_property_readonly(
          "levels",
          [](const Arch &a) {
            std::vector<std::string> names;
            for (const StorageLevel &level : a.levels)
              names.push_back(level.name);
            return names;
          },
          "Storage level names, innermost first.")
      .def(
          "to_json", [](const Arch &a) { return toPython(archToJson(a)); },
          "Every field, resolved, as marlmap-explore --json writes it.")
      .def("timeloop_yaml", &timeloop::writeArch,
           "The accelerator as a Timeloop architecture specification.")
      .def_property_readonly(
          "constraints",
          [](const Arch &a) {
            std::vector<std::string> texts;
            for (const Constraint &c : a.constraints)
              texts.push_back("#accel.constraint<" + c.str() + ">");
            return texts;
          },
          "What the dataflow allows, as #accel.constraint texts.")
      .def(
          "variant",
          [](const Arch &a, const py::dict &settings) {
            std::vector<std::pair<std::string, std::string>> pairs;
            for (const auto &[key, value] : settings)
              pairs.emplace_back(py::str(key), py::str(value));
            return archVariant(a, pairs);
          },
          py::arg("settings"),
          "This accelerator with some sizes changed, as marlmap-sweep's "
          "--grid changes them: {'pe': '8x8', 'glb_kb': 64} "
          "(docs/Sweep.md lists the keys); named by them.")
      .def_property_readonly(
          "description", &archDescription,
          "A module whose accel.target is this accelerator: the text of a "
          ".mlir description file that arch() and arch= read back.")
      .def("__eq__", [](const Arch &a, const Arch &b) { return a == b; })
      .def("__repr__",
           [](const Arch &a) { return "<marlmap.Arch " + a.name + ">"; });

  py::class_<BoundMapping>(m, "Mapping",
                           "A mapping of a problem onto an accelerator: per "
                           "storage level, temporal and spatial factors, a "
                           "loop order and the operands kept.")
      .def_readonly("problem", &BoundMapping::problem)
      .def_readonly("arch", &BoundMapping::arch)
      .def_property_readonly("text", &mappingText,
                             "As an #accel.mapping attribute.")
      .def(
          "loop_nest",
          [](const BoundMapping &b) {
            CostModel model(b.problem, b.arch);
            Evaluation evaluation = model.evaluate(b.mapping);
            if (!evaluation.valid)
              throw py::value_error("the mapping is invalid: " +
                                    evaluation.describeInvalid(b.arch));
            return loopNestText(b.mapping, b.problem, b.arch, evaluation);
          },
          "The loop nest, one loop per line, with each level's occupancy.")
      .def(
          "to_json",
          [](const BoundMapping &b) {
            return toPython(mappingToJson(b.mapping, b.problem, b.arch));
          },
          "Per level: temporal and spatial factors, order and kept operands.")
      .def(
          "timeloop_yaml",
          [](const BoundMapping &b) {
            llvm::Expected<std::string> yaml =
                timeloop::writeMapping(b.mapping, b.problem, b.arch);
            if (!yaml)
              throw py::value_error(llvm::toString(yaml.takeError()));
            return *yaml;
          },
          "The mapping as a Timeloop mapping, when Timeloop can express it.")
      .def("__eq__",
           [](const BoundMapping &a, const BoundMapping &b) {
             return a.mapping == b.mapping &&
                    a.problem.key() == b.problem.key() && a.arch == b.arch;
           })
      .def("__repr__", &mappingText);

  py::class_<LinalgOpEntry>(m, "Op", "A linalg op of a module.")
      .def_readonly("op", &LinalgOpEntry::op, "Its name: 'linalg.matmul'.")
      .def_readonly("location", &LinalgOpEntry::location, "'model.mlir:12:10'.")
      .def_readonly("problem", &LinalgOpEntry::problem,
                    "Its problem, or None when it cannot be mapped.")
      .def_readonly("skipped", &LinalgOpEntry::skipped,
                    "Why it cannot be mapped ('' when it can).")
      .def("__repr__", [](const LinalgOpEntry &op) {
        return "<marlmap.Op " + op.op + " at " + op.location + ">";
      });

  py::class_<SearchOutcome>(m, "SearchResult", "What a search found.")
      .def_readonly("found", &SearchOutcome::found,
                    "Whether any valid mapping was found.")
      .def_readonly("mapping", &SearchOutcome::mapping,
                    "The best mapping, or None.")
      .def_readonly("figures", &SearchOutcome::figures,
                    "marlmap-explore --json's report of the search: the best "
                    "mapping's figures, the searcher, the samples, the "
                    "space and the curve.")
      .def_readonly("curve", &SearchOutcome::curve,
                    "(samples, best cost) after every improvement.")
      .def_readonly("samples", &SearchOutcome::samples)
      .def_readonly("valid_samples", &SearchOutcome::validSamples)
      .def_readonly("seconds", &SearchOutcome::seconds)
      .def_readonly("not_found", &SearchOutcome::notFound,
                    "Why nothing was found, when nothing was.")
      .def("__repr__", [](const SearchOutcome &r) {
        return "<marlmap.SearchResult " +
               std::string(r.found ? "found" : "nothing found") + " in " +
               std::to_string(r.samples) + " samples>";
      });

  py::class_<MappedText>(m, "MappedModule", "A module after --marl-map.")
      .def_readonly("text", &MappedText::text,
                    "The module with accel.mapping on every mapped op.")
      .def_readonly("report", &MappedText::report,
                    "The report (schema marlmap-report-1, docs/Report.md).")
      .def_readonly("diagnostics", &MappedText::diagnostics,
                    "What the pass said: 'location: remark: ...'.");

  m.def("presets", &presetNames, "The accelerator presets' names.");
  m.def("searchers", &searchers,
        "Every searcher: name, help, whether it learns, whether it searches "
        "only the perfect factor space, and its options with their "
        "defaults and accepted values.");
  m.def("factor_spaces", &factorSpaces,
        "The factor spaces a search may take (`factors`), the smallest "
        "first: what each op's report names.");
  m.def("factors_options", &factorsOptions,
        "Every value `factors` takes: each factor space, the smallest first, "
        "then 'auto' (partial tiles only for the problems whose arrays they "
        "fill).");
  m.def("layer", &layerProblem, py::arg("text"),
        "A problem from a layer shorthand: 'conv:K=64,C=64,P=56,Q=56,R=3,S=3', "
        "'dwconv:...' or 'gemm:M=512,N=768,K=768'.");
  m.def("timeloop_problem", &readTimeloopProblem, py::arg("path"),
        "A problem from a Timeloop problem YAML file.");
  m.def("ops", &moduleOps, py::arg("text"), py::arg("name") = "input.mlir",
        "The linalg ops of a module given as MLIR text, each with its "
        "problem or why it has none. `name` is the file name diagnostics "
        "and locations use.");
  m.def("arch", &loadArch, py::arg("name"), py::arg("constraints") = "",
        "An accelerator: a preset's name, a .mlir file whose module carries "
        "accel.target, or a Timeloop architecture .yaml (with the mapspace "
        "constraints it carries). `constraints` names a Timeloop "
        "constraints .yaml to add (docs/Constraints.md).");
  m.def("mapping", &parseMapping, py::arg("text"), py::arg("problem"),
        py::arg("arch"),
        "A mapping from #accel.mapping text, checked against the problem "
        "and the accelerator.");
  m.def("timeloop_mapping", &readTimeloopMapping, py::arg("path"),
        py::arg("problem"), py::arg("arch"),
        "A mapping from a Timeloop mapping YAML file.");
  m.def("evaluate", &evaluate, py::arg("mapping"),
        "The mapping's figures, as marlmap-explore --json gives them, with "
        "valid=True and the lower bound; for an invalid mapping "
        "{'valid': False, 'invalid_reason': ...}.");
  m.def(
      "search",
      [](const Problem &problem, const Arch &arch, const std::string &searcher,
         std::optional<int64_t> budget, std::optional<double> time,
         uint64_t seed, const std::string &objective, int64_t stopAfter,
         const py::dict &options, const std::string &policyLibrary,
         const std::string &factors) {
        MapperOptions mapper =
            optionsOf(searcher, budget, time, seed, objective, options,
                      policyLibrary, factors);
        mapper.stopAfter = stopAfter;
        return search(problem, arch, mapper);
      },
      py::arg("problem"), py::arg("arch"), py::arg("searcher") = "marl",
      py::arg("budget") = py::none(), py::arg("time") = py::none(),
      py::arg("seed") = 1, py::arg("objective") = "edp",
      py::arg("stop_after") = 0, py::arg("options") = py::dict(),
      py::arg("policy_library") = "", py::arg("factors") = "auto",
      "Searches the problem's map space on the accelerator, as "
      "marlmap-explore --searcher does: `budget` samples (default 2000) or "
      "`time` seconds, `options` as searchers() lists them "
      "({'policy-epochs': 2}), `factors` the factor space (perfect, "
      "spatial-imperfect or imperfect), or auto (the default): imperfect "
      "where only partial tiles fill the arrays well, else perfect. The "
      "same seed gives the same result.");
  m.def(
      "map_module",
      [](const std::string &text, const std::string &arch,
         const std::string &searcher, std::optional<int64_t> budget,
         std::optional<double> time, uint64_t seed,
         const std::string &objective, const py::dict &options, int64_t threads,
         const std::string &policyLibrary, const std::string &name,
         const std::string &constraints, const std::string &cache,
         const std::string &factors) {
        MapperOptions mapper =
            optionsOf(searcher, budget, time, seed, objective, options,
                      policyLibrary, factors);
        mapper.threads = threads;
        mapper.cache = cache;
        return mapModule(text, arch, constraints, mapper, name);
      },
      py::arg("text"), py::arg("arch") = "", py::arg("searcher") = "marl",
      py::arg("budget") = py::none(), py::arg("time") = py::none(),
      py::arg("seed") = 1, py::arg("objective") = "edp",
      py::arg("options") = py::dict(), py::arg("threads") = 0,
      py::arg("policy_library") = "", py::arg("name") = "input.mlir",
      py::arg("constraints") = "", py::arg("cache") = "",
      py::arg("factors") = "auto",
      "Maps a module given as MLIR text as --marl-map does (`factors` as "
      "in search()): the mapped "
      "text and the report. `arch` and `constraints` as in arch() (default: "
      "the module's accel.target); `time` is for the whole network; "
      "`threads` caps the searches run at once (0: all cores); `cache` is "
      "the pass's cache of finished searches (an SQLite file or a "
      "postgresql:// database).");
  m.def("_set_policy_library_fallback", &setPolicyLibraryFallback,
        "Where this installation's policy library is (set on import).");
  m.attr("default_budget") = kDefaultBudget;
}
