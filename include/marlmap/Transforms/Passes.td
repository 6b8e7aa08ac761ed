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
           "Accelerator: a preset name or a .mlir description file">,
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
    mappings verify against it. The output depends on the options and the
    input only, not on `threads`.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"\"",
           "Accelerator: a preset name or a .mlir description file (default: "
           "the module's accel.target, else eyeriss)">,
    Option<"objective", "objective", "std::string", /*default=*/"\"edp\"",
           "What to minimise: latency, energy or edp">,
    Option<"searcher", "searcher", "std::string", /*default=*/"\"genetic\"",
           "random, exhaustive, genetic, annealing, marl or sarl">,
    Option<"agents", "agents", "std::string", /*default=*/"\"auto\"",
           "marl: auto (clusters of interacting decisions), per-decision, "
           "random, or a number of agents">,
    Option<"policyLearningRate", "policy-lr", "double",
           /*default=*/"::marlmap::PolicyOptions().learningRate",
           "marl/sarl: Adam learning rate">,
    Option<"policyEpochs", "policy-epochs", "unsigned",
           /*default=*/"::marlmap::PolicyOptions().epochs",
           "marl/sarl: updates per batch of proposals">,
    Option<"policyEntropy", "policy-entropy", "double",
           /*default=*/"::marlmap::PolicyOptions().entropy",
           "marl/sarl: entropy bonus (exploration)">,
    Option<"policyWarmup", "policy-warmup", "unsigned",
           /*default=*/"::marlmap::PolicyOptions().warmup",
           "marl/sarl: uniform samples before learning">,
    Option<"policyHidden", "policy-hidden", "unsigned",
           /*default=*/"::marlmap::PolicyOptions().hidden",
           "marl: hidden width of each agent's network">,
    Option<"policyReplay", "policy-replay", "unsigned",
           /*default=*/"::marlmap::PolicyOptions().replay",
           "marl/sarl: best proposals so far replayed in every update">,
    Option<"policyStall", "policy-stall", "unsigned",
           /*default=*/"::marlmap::PolicyOptions().stall",
           "marl/sarl: double the entropy bonus for every this many samples "
           "without a new best, up to 8x (0: off)">,
    Option<"policyAdvantage", "policy-advantage", "std::string",
           /*default=*/
           "::marlmap::policyAdvantageName(::marlmap::PolicyOptions().advantage)",
           "marl/sarl: how rewards become advantages: utilities (NES-style, "
           "the best pulled up most) or ranks (centred ranks)">,
    Option<"policyHead", "policy-head", "std::string",
           /*default=*/
           "::marlmap::policyHeadName(::marlmap::PolicyOptions().autoregressive)",
           "marl/sarl: joint (each agent draws its decisions "
           "autoregressively) or factorised (each decision on its own)">,
    Option<"policyLibrary", "policy-library", "std::string",
           /*default=*/"\"\"",
           "marl/sarl: path of libMarlmapPolicy.so (default: "
           "$MARLMAP_POLICY_LIBRARY, else beside the tool or plugin)">,
    Option<"policyTestThrowAfter", "policy-test-throw-after", "int64_t",
           /*default=*/"0",
           "Testing only: make a policy search fail after this many samples",
           "::llvm::cl::Hidden">,
    Option<"budget", "budget", "int64_t",
           /*default=*/"::marlmap::kDefaultBudget",
           "Mappings evaluated per distinct problem, valid or not "
           "(1 to 10^9)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1", "Random seed">,
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "Searches run at once on the context's thread pool (0: as many "
           "as it has; --mlir-disable-threading: one; at most 1024)">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every op to this file">,
    Option<"cache", "cache", "std::string", /*default=*/"\"\"",
           "SQLite file of finished searches: problems found there are not "
           "searched again (off when empty; marlmap-cache lists and clears "
           "it)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Print a summary table on stderr (always when stderr is a "
           "terminal)">,
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
