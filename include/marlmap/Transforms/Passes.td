//===- Passes.td - marlmap passes --------------------------*- tablegen -*-===//

#ifndef MARLMAP_TRANSFORMS_PASSES_TD
#define MARLMAP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MarlDescribe : Pass<"marl-describe", "::mlir::ModuleOp"> {
  let summary = "Print the target accelerator and the linalg ops that can be mapped onto it";
  let description = [{
    Resolves the accelerator the module is mapped onto (the `arch` option, else
    the module's `accel.target`, else the default preset) and prints it, then
    lists every linalg op with its loop bounds and either "mappable" or the
    reason it cannot be mapped. The IR is left unchanged.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "Accelerator: a preset name, a .mlir description file or a "
           "Timeloop architecture .yaml">,
    Option<"constraints", "constraints", "std::string", /*default=*/"\"\"",
           "A Timeloop constraints .yaml whose targets constrain the "
           "accelerator's levels">,
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the description ('-' for stdout)">,
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "text (a table) or json (every field, for scripts)">,
  ];
  let dependentDialects = ["::marlmap::accel::AccelDialect"];
}

def MarlMap : Pass<"marl-map", "::mlir::ModuleOp"> {
  let summary = "Search a mapping for every mappable linalg op and attach it";
  let description = [{
    For every linalg op that can be mapped (static shapes, affine-sum indexing
    maps), builds its map space on the target accelerator, searches it, and
    attaches the best mapping as `accel.mapping` and its predicted figures as
    `accel.cost`. Ops computing the same problem are searched once. An op that
    already carries `accel.mapping` is a user override: it is costed and kept.
    Ops that cannot be mapped get a remark saying why and are left unchanged.
    The module's `accel.target` is set to the accelerator used, so that the
    mappings verify against it. Under a sample budget the output depends on
    the options and the input only, not on `threads`.

    Besides the options below, the pass takes every option of every
    searcher of marlmap's registry (docs/reference/Searchers.md); an
    option of another searcher than the one chosen is an error.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "Accelerator: a preset name, a .mlir description file or a "
           "Timeloop architecture .yaml (default: the module's accel.target, "
           "else eyeriss)">,
    Option<"constraints", "constraints", "std::string", /*default=*/"\"\"",
           "A Timeloop constraints .yaml whose targets constrain the "
           "accelerator's levels">,
    Option<"objective", "objective", "std::string",
           /*default=*/"::marlmap::kDefaultObjective",
           "What to minimise: an objective of marlmap's registry (the "
           "pass's help lists them)">,
    Option<"factors", "factors", "std::string", /*default=*/"\"auto\"",
           "The factors a loop may take: perfect (they divide it), "
           "spatial-imperfect (a loop spread over the array may leave PEs "
           "idle in its last step), imperfect (any loop's last tile may be "
           "partial) or auto (imperfect for each problem whose arrays only "
           "partial tiles fill well, perfect for the others)">,
    Option<"searcher", "searcher", "std::string",
           /*default=*/"::marlmap::kDefaultSearcher",
           "A searcher of marlmap's registry (the pass's help and "
           "docs/reference/Searchers.md list them); each searcher's own "
           "options follow">,
    Option<"budget", "budget", "int64_t",
           /*default=*/"::marlmap::kDefaultBudget",
           "Mappings evaluated per distinct problem, valid or not (1 to "
           "10^9; not given with time=: no cap)">,
    Option<"time", "time", "double", /*default=*/"0",
           "Wall-clock seconds for the whole module's searches, shared "
           "among its problems (results then depend on the machine's "
           "speed; 0: no time budget)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1", "Random seed">,
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "Searches run at once on the context's thread pool (0: as many "
           "as it has; --mlir-disable-threading: one; at most 1024)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the report (per-op figures and network totals, "
           "docs/Report.md) to this file: a self-contained page when it "
           "ends in .html, else JSON">,
    Option<"cache", "cache", "std::string", /*default=*/"\"\"",
           "SQLite file or postgresql:// database of finished searches: "
           "problems found there are not "
           "searched again (off when empty; marlmap-cache lists and clears "
           "it)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print the per-op table and the totals on stderr (always when "
           "stderr is a terminal)">,
    Option<"progress", "progress", "std::string", /*default=*/"\"auto\"",
           "Progress on stderr: auto (a bar on a terminal, else a line "
           "every 2 s and a last line), bar, lines, json (JSON lines) or "
           "none">,
    Option<"policyLibrary", "policy-library", "std::string",
           /*default=*/"\"\"",
           "Searchers that learn: path of libMarlmapPolicy.so (default: "
           "$MARLMAP_POLICY_LIBRARY, else beside the tool or plugin)">,
  ];
  let dependentDialects = ["::marlmap::accel::AccelDialect"];
}

def MarlApply : Pass<"marl-apply", "::mlir::ModuleOp"> {
  let summary = "Rewrite every op that carries accel.mapping into its loops";
  let description = [{
    Materializes each op's `accel.mapping` with upstream MLIR's tiling
    interface: from the outermost storage level inwards, one band of `scf.for`
    loops for the level's temporal factors, in the level's order, then one
    `scf.forall` for its spatial factors on parallel loops, its loops marked
    `#accel.array<x|y, i>` (spatial factors on reduction loops become
    `scf.for` loops: partial sums cannot be written in parallel). The tile
    sizes are what the mapping implies, and the innermost op is the original
    op on the innermost tile. The result computes what the original did.

    With `transform-script=FILE` the IR is not rewritten: each mapped op is
    tagged `accel.op_id = N` and FILE receives a transform-dialect script with
    the same tilings (`transform.structured.tile_using_for` and
    `tile_using_forall`), for pipelines that schedule with the transform
    interpreter (`--transform-preload-library` then `--transform-interpreter`).

    In a module that names its accelerator, mappable ops that carry no mapping
    (a pass between `--marl-map` and this one dropped the attributes) are
    counted in one warning.
  }];
  let options = [
    Option<"transformScript", "transform-script", "std::string",
           /*default=*/"\"\"",
           "Tag mapped ops and write the tiling as a transform-dialect script "
           "to this file instead of rewriting the IR">,
  ];
  let dependentDialects = [
    "::marlmap::accel::AccelDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::arith::ArithDialect",
    "::mlir::affine::AffineDialect"
  ];
}

#endif // MARLMAP_TRANSFORMS_PASSES_TD
