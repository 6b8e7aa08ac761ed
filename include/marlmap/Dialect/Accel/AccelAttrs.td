//===- AccelAttrs.td - accel attributes --------------------*- tablegen -*-===//

#ifndef MARLMAP_ACCEL_ATTRS_TD
#define MARLMAP_ACCEL_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "marlmap/Dialect/Accel/AccelDialect.td"
include "mlir/Dialect/SCF/IR/DeviceMappingInterface.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Accel_TensorRole : I32EnumAttr<"TensorRole",
    "the role a tensor plays in a DNN op", [
      I32EnumAttrCase<"inputs", 0>,
      I32EnumAttrCase<"weights", 1>,
      I32EnumAttrCase<"outputs", 2>]> {
  let cppNamespace = "::marlmap::accel";
  let genSpecializedAttr = 0;
}

def Accel_Technology : I32EnumAttr<"Technology",
    "the memory technology of a storage level", [
      I32EnumAttrCase<"regfile", 0>,
      I32EnumAttrCase<"sram", 1>,
      I32EnumAttrCase<"dram", 2>]> {
  let cppNamespace = "::marlmap::accel";
  let genSpecializedAttr = 0;
}

def Accel_FillRule : I32EnumAttr<"FillRule",
    "how a buffer's fills are counted when the loops above move its tile", [
      I32EnumAttrCase<"exact", 0>,
      I32EnumAttrCase<"timeloop", 1>]> {
  let cppNamespace = "::marlmap::accel";
  let genSpecializedAttr = 0;
}

def Accel_ArrayAxis : I32EnumAttr<"ArrayAxis",
    "an axis of an accelerator's array", [
      I32EnumAttrCase<"x", 0>,
      I32EnumAttrCase<"y", 1>]> {
  let cppNamespace = "::marlmap::accel";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Parameters
//===----------------------------------------------------------------------===//

// Reals print in their shortest form that parses back to the same double.
class Accel_F64Param<string desc> : AttrOrTypeParameter<"::marlmap::accel::Real", desc> {
  let parser = "::marlmap::accel::parseF64($_parser)";
  let printer = "::marlmap::accel::printF64($_printer, $_self)";
}

class Accel_DefaultF64Param<string value, string desc>
    : DefaultValuedParameter<"::marlmap::accel::Real", value, desc> {
  let parser = "::marlmap::accel::parseF64($_parser)";
  let printer = "::marlmap::accel::printF64($_printer, $_self)";
}

// Absent means unbounded (or derived, as documented per field).
class Accel_OptionalF64Param<string desc>
    : OptionalParameter<"std::optional<::marlmap::accel::Real>", desc> {
  let parser = "::marlmap::accel::parseOptionalF64($_parser)";
  let printer = "::marlmap::accel::printF64($_printer, *$_self)";
}

class Accel_OptionalIntParam<string desc>
    : OptionalParameter<"std::optional<int64_t>", desc> {
  let printer = "$_printer << *$_self";
}

// `[a, b, c]`, possibly empty.
class Accel_ListParam<string elem, string desc>
    : ArrayRefParameter<elem, desc> {
  let parser = "::marlmap::accel::parseBracketList<" # elem # ">($_parser)";
  let printer = "::marlmap::accel::printBracketList($_printer, $_self)";
}

// A list that may be left out (it then has its documented default).
class Accel_OptionalListParam<string elem, string desc>
    : OptionalArrayRefParameter<elem, desc> {
  let parser = "::marlmap::accel::parseBracketList<" # elem # ">($_parser)";
  let printer = "::marlmap::accel::printBracketList($_printer, $_self)";
}

// Factor rules of a constraint: `[K = 4, C max 8, R = full]`.
class Accel_FactorRulesParam<string desc>
    : OptionalArrayRefParameter<"::marlmap::FactorRule", desc> {
  let parser = "::marlmap::accel::parseBracketList<::marlmap::FactorRule>($_parser)";
  let printer = "::marlmap::accel::printBracketList($_printer, $_self)";
}

// Dim names that may be left out: `[K, C]`.
class Accel_DimListParam<string desc>
    : OptionalParameter<"::marlmap::accel::DimList", desc> {
  let parser = "::marlmap::accel::parseDimList($_parser)";
  let printer = "::marlmap::accel::printDimList($_printer, $_self)";
}

// `true` or `false`, false when left out.
class Accel_FlagParam<string desc>
    : DefaultValuedParameter<"bool", "false", desc> {
  let parser = "::marlmap::accel::parseBool($_parser)";
  let printer = "$_printer << ($_self ? \"true\" : \"false\")";
}

class Accel_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Accel_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Hardware description
//===----------------------------------------------------------------------===//

def Accel_StorageLevelAttr : Accel_Attr<"StorageLevel", "storage"> {
  let summary = "one level of an accelerator's storage hierarchy";
  let description = [{
    A storage level as in Timeloop's architecture model. Every one of its
    `instances` holds its own tiles; the instances sit on a `mesh_x` x
    `mesh_y` grid (when neither is given the mesh is one row of `instances`;
    when one is given the other follows). `entries` is the capacity of one
    instance in words (absent: unbounded, as for DRAM). Bandwidths are in
    words per cycle per instance (absent: unbounded). Energies are in pJ per
    word (`update_energy` defaults to `write_energy`). `holds` lists the
    tensors the level may keep; the others bypass it. A level that holds
    nothing may have `entries = 0`: it only carries a fanout.

    ```mlir
    #accel.storage<"GlobalBuffer", technology = sram, entries = 65536,
                   block_size = 4, read_bandwidth = 16, write_bandwidth = 16,
                   read_energy = 7.41, write_energy = 7.41,
                   holds = [inputs, outputs]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the level's name">:$name,
    DefaultValuedParameter<"::marlmap::accel::Technology",
        "::marlmap::accel::Technology::sram",
        "memory technology">:$technology,
    Accel_OptionalIntParam<"words per instance (absent: unbounded)">:$entries,
    DefaultValuedParameter<"int64_t", "16", "bits per word">:$word_bits,
    DefaultValuedParameter<"int64_t", "1", "words per access">:$block_size,
    DefaultValuedParameter<"int64_t", "1", "number of instances">:$instances,
    Accel_OptionalIntParam<"instances along X">:$mesh_x,
    Accel_OptionalIntParam<"instances along Y">:$mesh_y,
    Accel_OptionalF64Param<"read words/cycle/instance">:$read_bandwidth,
    Accel_OptionalF64Param<"write words/cycle/instance">:$write_bandwidth,
    Accel_F64Param<"pJ per word read">:$read_energy,
    Accel_F64Param<"pJ per word written">:$write_energy,
    Accel_OptionalF64Param<"pJ per word updated">:$update_energy,
    Accel_DefaultF64Param<"::marlmap::accel::Real(1.0)", "buffering factor">:$multiple_buffering,
    Accel_ListParam<"::marlmap::accel::TensorRole",
                    "tensors the level may hold">:$holds
  );
  let assemblyFormat = [{
    `<` $name `,` struct($technology, $entries, $word_bits, $block_size,
                         $instances, $mesh_x, $mesh_y, $read_bandwidth,
                         $write_bandwidth, $read_energy, $write_energy,
                         $update_energy, $multiple_buffering, $holds) `>`
  }];
  let genVerifyDecl = 1;
}

def Accel_ComputeAttr : Accel_Attr<"Compute", "compute"> {
  let summary = "the array of MAC units under the innermost storage level";
  let description = [{
    ```mlir
    #accel.compute<instances = 168, mesh_x = 14, mesh_y = 12,
                   energy_per_mac = 1.0>
    ```
    The mesh follows the same rule as a storage level's. `energy_per_mac` is
    in pJ.
  }];
  let parameters = (ins
    "int64_t":$instances,
    Accel_OptionalIntParam<"MACs along X">:$mesh_x,
    Accel_OptionalIntParam<"MACs along Y">:$mesh_y,
    DefaultValuedParameter<"int64_t", "16", "operand bits">:$word_bits,
    DefaultValuedParameter<"int64_t", "1", "MACs per cycle per unit">:$macs_per_cycle,
    Accel_F64Param<"pJ per MAC">:$energy_per_mac
  );
  let assemblyFormat = [{
    `<` struct($instances, $mesh_x, $mesh_y, $word_bits, $macs_per_cycle,
               $energy_per_mac) `>`
  }];
  let genVerifyDecl = 1;
}

def Accel_ConstraintAttr : Accel_Attr<"Constraint", "constraint"> {
  let summary = "what one storage level's dataflow allows";
  let description = [{
    Restricts the mappings at the storage level `level` to what its hardware
    runs. Dims are named N, K, C, P, Q, R, S, G (batch, output channels,
    input channels, output columns and rows, filter columns and rows,
    groups); docs/Constraints.md says which loops of a matmul or a generic
    op answer to which name. Every field is optional:

    - `ops`: the op kinds (`conv`, `depthwise`, `gemm`, `other`) it is for;
      left out, it is for every kind without a constraint of its own here.
    - `temporal`, `spatial_x`, `spatial_y`: factor rules, `K = 4` (exact),
      `K max 4` (at most), `R = full` (the whole bound: R iterates nowhere
      else).
    - `order`: the loop order, outermost first; naming only some dims makes
      them the innermost loops.
    - `x_dims`, `y_dims`: the only dims that may spread along X / Y.
    - `exclusive_axes`: a dim spreads along X or along Y, not both.
    - `keep`, `bypass`: tensors the level must keep or must not.

    ```mlir
    #accel.constraint<"GlobalBuffer", x_dims = [K], y_dims = [C]>
    #accel.constraint<"WeightReg", temporal = [C = 1, K = 1, R = 1, S = 1],
                      keep = [weights], bypass = [inputs, outputs]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the storage level">:$level,
    Accel_OptionalListParam<"::marlmap::OpKind", "op kinds it is for">:$ops,
    Accel_FactorRulesParam<"temporal factor rules">:$temporal,
    Accel_DimListParam<"loop order, outermost first">:$order,
    Accel_DimListParam<"dims allowed along X">:$x_dims,
    Accel_DimListParam<"dims allowed along Y">:$y_dims,
    Accel_FactorRulesParam<"factor rules along X">:$spatial_x,
    Accel_FactorRulesParam<"factor rules along Y">:$spatial_y,
    Accel_FlagParam<"one axis per dim">:$exclusive_axes,
    Accel_OptionalListParam<"::marlmap::accel::TensorRole",
                            "tensors kept">:$keep,
    Accel_OptionalListParam<"::marlmap::accel::TensorRole",
                            "tensors bypassed">:$bypass
  );
  let assemblyFormat = [{
    `<` $level `,` struct($ops, $temporal, $order, $x_dims, $y_dims,
                          $spatial_x, $spatial_y, $exclusive_axes, $keep,
                          $bypass) `>`
  }];
  let genVerifyDecl = 1;
}

def Accel_ArchAttr : Accel_Attr<"Arch", "arch"> {
  let summary = "a spatial accelerator";
  let description = [{
    A compute array and a storage hierarchy listed from the innermost level
    (next to the MACs) to the outermost (DRAM). The spatial fanout of a level
    is the ratio of its children's mesh to its own; the verifier rejects a
    fanout that is not whole, an outermost level that does not hold every
    tensor, and an innermost level that cannot feed the MACs. The optional
    `constraints` (`#accel.constraint`) say what the dataflow allows; the
    verifier rejects one that names a level that does not exist, keeps a
    tensor the level may not hold, bypasses the outermost level, spreads
    wider than a fanout, or applies to the same ops as another on its level.
    The optional `fills` (before or after `constraints`; printed last)
    says how a buffer's fills are counted when the loops above it move its
    tile: `exact` (the default: the words a point-by-point walk of the nest
    fetches) or `timeloop` (Timeloop's two-iteration delta walk, which
    descriptions read from Timeloop files keep, so that their figures stay
    Timeloop's).

    ```mlir
    #accel.arch<"my-npu", clock_mhz = 800,
      compute = #accel.compute<instances = 64, mesh_x = 8, energy_per_mac = 1.0>,
      levels = [
        #accel.storage<"RegFile", technology = regfile, entries = 64,
                       instances = 64, mesh_x = 8, read_energy = 1.1,
                       write_energy = 1.1, holds = [inputs, weights, outputs]>,
        #accel.storage<"DRAM", technology = dram, read_energy = 200,
                       write_energy = 200, holds = [inputs, weights, outputs]>
      ]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the accelerator's name">:$name,
    Accel_F64Param<"clock frequency in MHz">:$clock_mhz,
    "::marlmap::accel::ComputeAttr":$compute,
    ArrayRefParameter<"::marlmap::accel::StorageLevelAttr",
                      "innermost to outermost">:$levels,
    OptionalArrayRefParameter<"::marlmap::accel::ConstraintAttr",
                              "what the dataflow allows">:$constraints,
    DefaultValuedParameter<"::marlmap::accel::FillRule",
                           "::marlmap::accel::FillRule::exact",
                           "how fills are counted">:$fills
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Mappings
//===----------------------------------------------------------------------===//

def Accel_LevelMappingAttr : Accel_Attr<"LevelMapping", "level"> {
  let summary = "what a mapping places at one storage level";
  let description = [{
    For the storage level `name`, one factor per loop of the op (in the op's
    loop order d0, d1, ...): `temporal` factors iterate in time at this level,
    `spatial_x` / `spatial_y` factors fan out over the level's children along
    the array's X / Y. `order` lists the loops of the temporal band from
    outermost to innermost. `keep` lists the operands (by operand number) this
    level stores; the others bypass it. Left-out factor lists are all ones;
    a left-out `order` is d0, d1, ... .

    ```mlir
    #accel.level<"GlobalBuffer", temporal = [1, 4, 2], order = [1, 0, 2],
                 spatial_x = [14, 1, 1], keep = [0, 2]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the storage level">:$name,
    Accel_OptionalListParam<"int64_t", "temporal factor per loop">:$temporal,
    Accel_OptionalListParam<"int64_t", "loops, outermost first">:$order,
    Accel_OptionalListParam<"int64_t", "spatial factor along X per loop">:$spatial_x,
    Accel_OptionalListParam<"int64_t", "spatial factor along Y per loop">:$spatial_y,
    Accel_ListParam<"int64_t", "operands kept at this level">:$keep
  );
  let assemblyFormat = [{
    `<` $name `,` struct($temporal, $order, $spatial_x, $spatial_y, $keep) `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Factor of loop `loop` (1 where the list is left out).
    int64_t getTemporalFactor(unsigned loop) const;
    int64_t getSpatialXFactor(unsigned loop) const;
    int64_t getSpatialYFactor(unsigned loop) const;
  }];
}

def Accel_MappingAttr : Accel_Attr<"Mapping", "mapping"> {
  let summary = "a mapping of a tensor op onto an accelerator";
  let description = [{
    One `#accel.level` per storage level of the target, innermost first, in
    the target's order. Attached to an op as `accel.mapping`, it is checked
    against the op (per loop, the product of all factors is the loop's bound)
    and against the module's target (level names, spatial factors within each
    level's fanout, kept operands allowed by each level's `holds`, the
    outermost level keeping every operand).
  }];
  let parameters = (ins
    Accel_ListParam<"::marlmap::accel::LevelMappingAttr",
                    "per storage level, innermost first">:$levels
  );
  // Hand-written so that a bad level is reported once, where it is.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Loops on the array
//===----------------------------------------------------------------------===//

def Accel_ArrayMappingAttr : Accel_Attr<"ArrayMapping", "array",
    [DeclareAttrInterfaceMethods<DeviceMappingAttrInterface>]> {
  let summary = "an scf.forall loop spread along an axis of the array";
  let description = [{
    Marks a loop of an `scf.forall` that `--marl-apply` made from a mapping's
    spatial factors: it runs across the children of a storage level along the
    array's X or Y axis. `index` tells apart several loops on one axis.

    ```mlir
    scf.forall (%i, %j) in (14, 12) ... {mapping = [#accel.array<x, 0>, #accel.array<y, 0>]}
    ```
  }];
  let parameters = (ins
    "::marlmap::accel::ArrayAxis":$axis,
    "unsigned":$index
  );
  let assemblyFormat = "`<` $axis `,` $index `>`";
}

#endif // MARLMAP_ACCEL_ATTRS_TD
