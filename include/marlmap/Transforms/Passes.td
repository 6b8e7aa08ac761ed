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

#endif // MARLMAP_TRANSFORMS_PASSES_TD
