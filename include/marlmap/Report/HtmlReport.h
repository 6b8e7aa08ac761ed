//===- HtmlReport.h - A mapped network as one HTML page ---------*- C++ -*-===//
//
// The report for people who want to look: one self-contained file (inline
// SVG and script, nothing fetched) with the network's totals, a sortable
// row per op with its energy stacked by level and its cycles coloured by
// what sets them, and each op's loop nest, breakdown and search curve on
// demand; several accelerators side by side. Every figure is also text.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REPORT_HTMLREPORT_H
#define MARLMAP_REPORT_HTMLREPORT_H

#include "marlmap/Report/NetworkReport.h"

#include "llvm/Support/raw_ostream.h"

namespace marlmap {

/// Whether `path` names an HTML report (it ends in .html or .htm).
bool isHtmlPath(llvm::StringRef path);

/// The page for `rows` mapped onto each of `networks` (one or more).
void writeHtmlReport(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                     const std::vector<MappedNetwork> &networks);

} // namespace marlmap

#endif // MARLMAP_REPORT_HTMLREPORT_H
