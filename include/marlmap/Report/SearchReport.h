//===- SearchReport.h - One problem's search as JSON ------------*- C++ -*-===//
//
// What marlmap-explore --searcher writes and what the Python module's
// search() returns: the same keys, built once.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REPORT_SEARCHREPORT_H
#define MARLMAP_REPORT_SEARCHREPORT_H

#include "marlmap/Core/MapSpace.h"
#include "marlmap/Mapper/Mapper.h"

#include "llvm/Support/JSON.h"

namespace marlmap {

/// The figures of what the search found (evaluationToJson's keys, or
/// `found: false`), then `searcher`, `objective`, `seed`, `budget`
/// (`time_budget`), `source`, `samples`, `valid_samples`, `stopped_early`,
/// `seconds`, the space's size (`space_log10`, `space_parameters`,
/// `space_decisions`), `lower_bound`, `mapping`, the agents' `clusters`
/// and the `curve` of [samples, best cost] pairs.
llvm::json::Object searchToJson(const Problem &problem, const Arch &arch,
                                const MapSpace &space,
                                const MapperRequest &request,
                                const ProblemOutcome &outcome);

} // namespace marlmap

#endif // MARLMAP_REPORT_SEARCHREPORT_H
