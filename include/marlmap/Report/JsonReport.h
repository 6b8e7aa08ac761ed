//===- JsonReport.h - marlmap's figures as JSON -----------------*- C++ -*-===//
//
// The JSON shapes marlmap's reports share, so that scripts read one schema.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REPORT_JSONREPORT_H
#define MARLMAP_REPORT_JSONREPORT_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include "llvm/Support/JSON.h"

namespace marlmap {

/// The description with every field resolved (meshes derived, defaults
/// filled in); unbounded capacities and bandwidths are null. Levels are
/// listed innermost first, as in the description.
llvm::json::Value archToJson(const Arch &arch);

/// `loops` (bounds), `loop_names`, `iterators` and `operands` (name, role,
/// access, projection in loop names, words) of a problem.
llvm::json::Object problemToJson(const Problem &problem);

/// The figures of a valid evaluation: `cycles`, `energy_pJ`, `edp`,
/// `utilization`, `compute_cycles`, `cycles_bound_by` (`compute` or the
/// level whose bandwidth sets the cycles), `macs`, `mac_energy_pJ`;
/// `levels`: {LEVEL: {OPERAND: {reads, fills, updates, utilized_capacity,
/// instances, multicast, spatial_reduction, energy_pJ, read_energy_pJ,
/// fill_energy_pJ, update_energy_pJ}}} with counts totalled over instances,
/// for the operands each level keeps; and `level_figures`: {LEVEL: {cycles,
/// bandwidth_cycles, bandwidth_slowdown, energy_pJ, utilized_capacity}}.
llvm::json::Object evaluationToJson(const Evaluation &evaluation,
                                    const Problem &problem, const Arch &arch);

/// {cycles, energy_pJ, edp} of a lower bound.
llvm::json::Object lowerBoundToJson(const LowerBound &bound);

/// {LEVEL: {temporal: {DIM: f}, order: [DIM, ...] (outermost first),
/// spatial_x: {DIM: f}, spatial_y: {DIM: f}, keep: [OPERAND, ...]}}, factors
/// of 1 left out.
llvm::json::Object mappingToJson(const Mapping &mapping, const Problem &problem,
                                 const Arch &arch);

} // namespace marlmap

#endif // MARLMAP_REPORT_JSONREPORT_H
