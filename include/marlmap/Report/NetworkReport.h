//===- NetworkReport.h - A mapped network as table and JSON ----*- C++ -*-===//
//
// What the passes and the tools print after mapping: one row per op and
// the network's totals, as a table for people and as JSON for scripts
// (docs/Report.md gives the schema, "marlmap-report-1").
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REPORT_NETWORKREPORT_H
#define MARLMAP_REPORT_NETWORKREPORT_H

#include "marlmap/Mapper/Mapper.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace marlmap {

/// One op of the network, in program order.
struct OpRow {
  /// "linalg.conv_2d_nhwc_hwcf".
  std::string op;
  /// "resnet50.mlir:12:10".
  std::string location;
  /// Its problem among those given to the Mapper; none when it was not
  /// mappable, with the reason in `skipped`.
  std::optional<size_t> input;
  std::string skipped;
};

/// The outcome of `row`'s problem in `result`; nullptr for an op that was
/// not given to the Mapper.
const ProblemOutcome *outcomeOf(const OpRow &row, const MapperResult &result);
/// How many of `rows` were not given to the Mapper.
size_t countSkipped(const std::vector<OpRow> &rows);

/// One row per op (`rows`: those the Mapper mapped or skipped), then the
/// network's totals on a line of their own, after `prefix` and ": ".
void printSummary(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                  const MapperRequest &request, const MapperResult &result,
                  const std::string &prefix);

/// The totals in one line: "127 ops mapped (44 distinct problems, 44
/// searched, 0 from the cache), energy 1.2e10 pJ, 3.4e6 cycles, ...".
std::string totalsLine(const MapperRequest &request, const MapperResult &result,
                       size_t opsSkipped);

/// Whether any op is measured against a proven optimum (tables then show
/// the gap), and a gap as text: "+3.5%", or "-" when there is none.
bool anyProvenOptimum(const MapperResult &result);
std::string gapText(std::optional<double> gap);

/// The whole report as JSON.
llvm::json::Object reportToJson(const std::vector<OpRow> &rows,
                                const MapperRequest &request,
                                const MapperResult &result);

/// One network mapped onto one accelerator, for comparisons.
struct MappedNetwork {
  const MapperRequest *request;
  const MapperResult *result;
};

/// One row per op with a column group (cycles, energy, EDP) per
/// accelerator, then each accelerator's totals. `rows` index the problems
/// every result was given (the same for all).
void printComparison(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                     const std::vector<MappedNetwork> &networks);

/// {"schema": "marlmap-comparison-1", "reports": [report, ...]}.
llvm::json::Object comparisonToJson(const std::vector<OpRow> &rows,
                                    const std::vector<MappedNetwork> &networks);

} // namespace marlmap

#endif // MARLMAP_REPORT_NETWORKREPORT_H
