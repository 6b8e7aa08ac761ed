//===- HtmlReport.cpp - A mapped network as one HTML page -----------------===//

#include "marlmap/Report/HtmlReport.h"

#include "marlmap/Core/Breakdown.h"
#include "marlmap/Report/TextView.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

namespace marlmap {

namespace {

/// Level colours, innermost level first; the MACs get the last.
constexpr const char *kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1",
                                    "#edc948", "#76b7b2", "#ff9da7", "#9c755f"};
constexpr const char *kMacColour = "#bab0ac";
constexpr const char *kComputeColour = "#79706e";
constexpr double kBarWidth = 160;

const char *levelColour(unsigned level) {
  return kPalette[level % (sizeof(kPalette) / sizeof(kPalette[0]))];
}

std::string escape(llvm::StringRef text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::printHTMLEscaped(text, os);
  return out;
}

/// "1.234e+10": four significant figures, as the tables show them.
std::string number(double value) { return llvm::formatv("{0:e3}", value); }

/// A table cell showing `text`, sorted by `value`; `classes` besides num.
std::string cell(double value, const std::string &text,
                 const std::string &id = "", const char *classes = "num") {
  return llvm::formatv("<td class=\"{0}\"{1} data-value=\"{2}\">{3}</td>",
                       classes, id.empty() ? "" : " id=\"" + id + "\"",
                       llvm::formatv("{0:e16}", value).str(), escape(text))
      .str();
}

void writeStyle(llvm::raw_ostream &os) {
  os << R"(<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; }
th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; vertical-align: top; }
th { background: #f4f4f4; text-align: left; }
#ops th { cursor: pointer; white-space: nowrap; }
#ops th.sorted-up::after { content: " \25B2"; }
#ops th.sorted-down::after { content: " \25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.group { border-left: 2px solid #bbb; }
small { color: #666; }
pre { font-size: 12px; background: #fafafa; padding: 6px; }
.legend span { display: inline-block; margin-right: 1em; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.meta { color: #555; }
</style>
)";
}

/// Clicking a header sorts the ops by that column's values (numbers by
/// data-value, text as text); clicking again reverses.
void writeScript(llvm::raw_ostream &os) {
  os << R"(<script>
"use strict";
(function () {
  const table = document.getElementById("ops");
  const body = table.tBodies[0];
  const headers = table.tHead.rows[table.tHead.rows.length - 1].cells;
  Array.from(headers).forEach(function (header, column) {
    header.addEventListener("click", function () {
      const up = !header.classList.contains("sorted-up");
      Array.from(headers).forEach(function (h) {
        h.classList.remove("sorted-up", "sorted-down");
      });
      header.classList.add(up ? "sorted-up" : "sorted-down");
      const key = function (row) {
        const c = row.cells[column];
        if (!c) return "";
        const v = c.getAttribute("data-value");
        return v === null ? c.textContent : parseFloat(v);
      };
      const rows = Array.from(body.rows);
      rows.sort(function (a, b) {
        const x = key(a), y = key(b);
        const order = (typeof x === "number" && typeof y === "number")
                          ? x - y : String(x).localeCompare(String(y));
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
})();
</script>
)";
}

/// The network's energy stacked by level (and the MACs), each part's share
/// in its tooltip.
std::string networkEnergyBar(const MapperResult &result, const Arch &arch) {
  std::vector<double> levels(arch.levels.size(), 0.0);
  double macs = 0, total = 0;
  for (const ProblemOutcome &outcome : result.problems) {
    if (!outcome.found)
      continue;
    const double ops = double(outcome.inputs.size());
    for (unsigned l = 0; l < levels.size(); ++l)
      levels[l] += ops * outcome.evaluation.levels[l].energy;
    macs += ops * outcome.evaluation.macEnergy;
    total += ops * outcome.evaluation.energy;
  }
  const double width = 2 * kBarWidth;
  std::string svg = llvm::formatv("<svg width=\"{0}\" height=\"14\" "
                                  "role=\"img\">",
                                  width);
  double x = 0;
  auto part = [&](double energy, const char *colour, const std::string &name) {
    double share = total > 0 ? energy / total : 0;
    svg += llvm::formatv("<rect x=\"{0:f2}\" width=\"{1:f2}\" height=\"14\" "
                         "fill=\"{2}\"><title>{3}: {4} pJ ({5:f1}%)</title>"
                         "</rect>",
                         x, width * share, colour, escape(name), number(energy),
                         100 * share);
    x += width * share;
  };
  for (unsigned l = unsigned(levels.size()); l-- > 0;)
    part(levels[l], levelColour(l), arch.levels[l].name);
  part(macs, kMacColour, "MACs");
  return svg + "</svg>";
}

/// The network's totals, one column per accelerator; each figure's cell has
/// the id `total-FIELD-N` for the Nth accelerator.
void writeTotals(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                 const std::vector<MappedNetwork> &networks) {
  const size_t skipped = countSkipped(rows);
  os << "<h2>Network totals</h2>\n<p>Energy summed over the mapped ops, "
        "cycles as if they ran one after another.</p>\n<table "
        "id=\"totals\">\n<tr><th></th>";
  for (const MappedNetwork &network : networks)
    os << "<th>" << escape(network.request->arch.name) << "</th>";
  os << "</tr>\n";
  struct Field {
    const char *id, *label;
    double (*value)(const NetworkTotals &, size_t skipped);
  };
  static const Field fields[] = {
      {"energy", "energy pJ",
       [](const NetworkTotals &t, size_t) { return t.energy; }},
      {"cycles", "cycles",
       [](const NetworkTotals &t, size_t) { return double(t.cycles); }},
      {"edp", "EDP (pJ x cycles)",
       [](const NetworkTotals &t, size_t) { return t.edp; }},
      {"latency", "latency s",
       [](const NetworkTotals &t, size_t) { return t.latencySeconds; }},
      {"macs", "MACs",
       [](const NetworkTotals &t, size_t) { return double(t.macs); }},
      {"ops-mapped", "ops mapped",
       [](const NetworkTotals &t, size_t) { return double(t.opsMapped); }},
      {"ops-not-mapped", "ops not mapped",
       [](const NetworkTotals &t, size_t skipped) {
         return double(t.opsNotMapped + skipped);
       }},
      {"distinct", "distinct problems",
       [](const NetworkTotals &t, size_t) {
         return double(t.distinctProblems);
       }},
      {"searched", "searched",
       [](const NetworkTotals &t, size_t) { return double(t.searched); }},
      {"cache-hits", "from the cache",
       [](const NetworkTotals &t, size_t) { return double(t.cacheHits); }},
      {"samples", "samples",
       [](const NetworkTotals &t, size_t) { return double(t.samples); }},
      {"seconds", "seconds",
       [](const NetworkTotals &t, size_t) { return t.seconds; }},
  };
  for (const Field &field : fields) {
    os << "<tr><th>" << field.label << "</th>";
    for (size_t n = 0; n < networks.size(); ++n) {
      double value = field.value(networks[n].result->totals, skipped);
      bool whole = std::floor(value) == value && std::fabs(value) < 1e15;
      os << cell(value, whole ? std::to_string(int64_t(value)) : number(value),
                 llvm::formatv("total-{0}-{1}", field.id, n).str());
    }
    os << "</tr>\n";
  }
  bool gaps = false;
  for (const MappedNetwork &network : networks)
    gaps = gaps || network.result->totals.gapToOptimum;
  if (gaps) {
    os << "<tr><th>above the ops' proven optima</th>";
    for (size_t n = 0; n < networks.size(); ++n) {
      std::optional<double> gap = networks[n].result->totals.gapToOptimum;
      os << cell(gap.value_or(-1), gapText(gap),
                 llvm::formatv("total-gap-{0}", n).str());
    }
    os << "</tr>\n";
  }
  os << "<tr><th>energy by level</th>";
  for (const MappedNetwork &network : networks)
    os << "<td>" << networkEnergyBar(*network.result, network.request->arch)
       << "</td>";
  os << "</tr>\n</table>\n";
}

/// The energy of an op stacked by level (and the MACs), scaled to
/// `largest`, as an inline SVG with a tooltip per part.
std::string energyBar(const ProblemOutcome &outcome, const Arch &arch,
                      double largest) {
  std::string svg = llvm::formatv("<svg width=\"{0}\" height=\"12\" "
                                  "role=\"img\"><title>{1} pJ</title>",
                                  kBarWidth, number(outcome.evaluation.energy));
  double x = 0;
  auto part = [&](double energy, const char *colour, const std::string &name) {
    double width = kBarWidth * energy / largest;
    svg += llvm::formatv("<rect x=\"{0:f2}\" width=\"{1:f2}\" height=\"12\" "
                         "fill=\"{2}\"><title>{3}: {4} pJ</title></rect>",
                         x, width, colour, escape(name), number(energy));
    x += width;
  };
  for (unsigned l = unsigned(arch.levels.size()); l-- > 0;)
    part(outcome.evaluation.levels[l].energy, levelColour(l),
         arch.levels[l].name);
  part(outcome.evaluation.macEnergy, kMacColour, "MACs");
  return svg + "</svg>";
}

/// The op's cycles scaled to `largest`, coloured by what sets them.
std::string cyclesBar(const ProblemOutcome &outcome, const Arch &arch,
                      double largest) {
  Breakdown breakdown = breakdownOf(outcome.evaluation, arch, outcome.bound);
  std::string by = breakdown.binding
                       ? arch.levels[*breakdown.binding].name + " bandwidth"
                       : "compute";
  return llvm::formatv(
      "<svg width=\"{0}\" height=\"12\" role=\"img\"><title>{1} cycles, "
      "set by {2}</title><rect width=\"{3:f2}\" height=\"12\" "
      "fill=\"{4}\"/></svg>",
      kBarWidth, outcome.evaluation.cycles, escape(by),
      kBarWidth * double(outcome.evaluation.cycles) / largest,
      breakdown.binding ? levelColour(*breakdown.binding) : kComputeColour);
}

/// The best cost so far against the samples, on a log scale.
std::string curveSvg(const ProblemOutcome &outcome) {
  const auto &curve = outcome.curve;
  if (curve.size() < 2)
    return "";
  const double width = 320, height = 90;
  const double lastSample = double(std::max<int64_t>(outcome.samples, 1));
  double low = std::log10(curve.back().second);
  double high = std::log10(curve.front().second);
  if (high <= low)
    high = low + 1;
  std::string points;
  for (size_t i = 0; i < curve.size(); ++i) {
    double x = width * double(curve[i].first) / lastSample;
    double y = height * (high - std::log10(curve[i].second)) / (high - low);
    // A step: the best holds until the next improvement.
    if (i > 0)
      points += llvm::formatv(
          "{0:f1},{1:f1} ", width * double(curve[i].first) / lastSample,
          height * (high - std::log10(curve[i - 1].second)) / (high - low));
    points += llvm::formatv("{0:f1},{1:f1} ", x, y);
  }
  // The last best holds to the end of the search.
  points += llvm::formatv("{0:f1},{1:f1}", width, height);
  return llvm::formatv(
      "<p>Best so far against samples (log scale: {0} at the top, {1} at "
      "the bottom, {2} samples across)</p><svg width=\"{3}\" "
      "height=\"{4}\" role=\"img\" style=\"border:1px solid "
      "#ddd\"><polyline fill=\"none\" stroke=\"#4e79a7\" "
      "points=\"{5}\"/></svg>",
      number(curve.front().second), number(curve.back().second),
      outcome.samples, width, height, points);
}

/// The op's loop nest, breakdown and search curve on each accelerator,
/// folded away until asked for.
std::string detailsOf(const OpRow &row,
                      const std::vector<MappedNetwork> &networks) {
  std::string text = "<details><summary>loop nest and breakdown</summary>";
  for (const MappedNetwork &network : networks) {
    const ProblemOutcome *outcome = outcomeOf(row, *network.result);
    const Arch &arch = network.request->arch;
    if (networks.size() > 1)
      text += "<h4>" + escape(arch.name) + "</h4>";
    if (!outcome || !outcome->found) {
      text += "<p>not mapped</p>";
      continue;
    }
    std::string optimum = optimumText(*outcome, network.request->objective);
    if (!optimum.empty())
      text += "<p>" + escape(optimum) + "</p>";
    text += "<pre>" +
            escape(mappedOpText(outcome->mapping, outcome->problem, arch,
                                outcome->evaluation, outcome->bound)) +
            "</pre>" + curveSvg(*outcome);
  }
  return text + "</details>";
}

/// Why an op of `row` has no mapping on `result`'s accelerator.
std::string whyNotMapped(const OpRow &row, const MapperResult &result) {
  const ProblemOutcome *outcome = outcomeOf(row, result);
  if (!outcome)
    return row.skipped;
  return outcome->error.empty() ? outcome->notFound : outcome->error;
}

void writeOps(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
              const std::vector<MappedNetwork> &networks) {
  double largestEnergy = 1, largestCycles = 1;
  for (const MappedNetwork &network : networks)
    for (const OpRow &row : rows)
      if (const ProblemOutcome *outcome = outcomeOf(row, *network.result);
          outcome && outcome->found) {
        largestEnergy = std::max(largestEnergy, outcome->evaluation.energy);
        largestCycles =
            std::max(largestCycles, double(outcome->evaluation.cycles));
      }
  os << "<h2>Ops</h2>\n<p>Click a column to sort. Bars: energy stacked by "
        "level, outermost first (";
  const Arch &first = networks.front().request->arch;
  for (unsigned l = unsigned(first.levels.size()); l-- > 0;)
    os << "<span class=\"swatch\" style=\"background:" << levelColour(l)
       << "\"></span>" << escape(first.levels[l].name) << " ";
  os << "<span class=\"swatch\" style=\"background:" << kMacColour
     << "\"></span>MACs); cycles coloured by what sets them (<span "
        "class=\"swatch\" style=\"background:"
     << kComputeColour
     << "\"></span>compute, else that level's bandwidth).</p>\n"
        "<table id=\"ops\">\n<thead>\n";
  // A column for the gap to the proven optimum when any op has one.
  bool gaps = false;
  for (const MappedNetwork &network : networks)
    gaps = gaps || anyProvenOptimum(*network.result);
  const int columns = gaps ? 7 : 6;
  if (networks.size() > 1) {
    os << "<tr><th colspan=\"3\"></th>";
    for (const MappedNetwork &network : networks)
      os << "<th colspan=\"" << columns << "\" class=\"group\">"
         << escape(network.request->arch.name) << "</th>";
    os << "</tr>\n";
  }
  os << "<tr><th>#</th><th>op</th><th>loops</th>";
  for (size_t n = 0; n < networks.size(); ++n)
    os << "<th class=\"group\">cycles</th><th>energy pJ</th><th>EDP</th>"
          "<th>x bound</th><th>energy by level</th><th>cycles</th>"
       << (gaps ? "<th>&gt; optimum</th>" : "");
  os << "</tr>\n</thead>\n<tbody>\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    const OpRow &row = rows[r];
    const ProblemOutcome *first = outcomeOf(row, *networks.front().result);
    os << "<tr>" << cell(double(r), std::to_string(r)) << "<td>"
       << escape(row.op) << "<br><small>" << escape(row.location) << "</small>"
       << (first ? detailsOf(row, networks) : "") << "</td><td>"
       << (first ? escape(first->problem.boundsText()) : "") << "</td>";
    for (const MappedNetwork &network : networks) {
      const ProblemOutcome *outcome = outcomeOf(row, *network.result);
      if (!outcome || !outcome->found) {
        // As many cells as a mapped op has, so that sorting finds each
        // column where it is; they sort below every mapped op.
        os << "<td class=\"group\" data-value=\"-1\">not mapped: "
           << escape(whyNotMapped(row, *network.result)) << "</td>";
        for (int c = 1; c < columns; ++c)
          os << "<td data-value=\"-1\"></td>";
        continue;
      }
      const Evaluation &e = outcome->evaluation;
      const Arch &arch = network.request->arch;
      os << cell(double(e.cycles), std::to_string(e.cycles), "", "num group")
         << cell(e.energy, number(e.energy)) << cell(e.edp, number(e.edp))
         << cell(outcome->boundRatio,
                 llvm::formatv("{0:f2}", outcome->boundRatio).str())
         << "<td data-value=\"" << e.energy << "\">"
         << energyBar(*outcome, arch, largestEnergy) << "</td>"
         << "<td data-value=\"" << e.cycles << "\">"
         << cyclesBar(*outcome, arch, largestCycles) << "</td>";
      if (gaps) {
        std::optional<double> gap =
            gapToOptimum(*outcome, network.request->objective);
        os << cell(gap.value_or(-1), gapText(gap));
      }
    }
    os << "</tr>\n";
  }
  os << "</tbody>\n</table>\n";
}

} // namespace

bool isHtmlPath(llvm::StringRef path) {
  return path.ends_with_insensitive(".html") ||
         path.ends_with_insensitive(".htm");
}

void writeHtmlReport(llvm::raw_ostream &os, const std::vector<OpRow> &rows,
                     const std::vector<MappedNetwork> &networks) {
  const MapperRequest &request = *networks.front().request;
  std::string archs;
  for (const MappedNetwork &network : networks)
    archs += (archs.empty() ? "" : ", ") + network.request->arch.name;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<title>marlmap report: "
     << escape(archs) << "</title>\n";
  writeStyle(os);
  os << "</head>\n<body>\n<h1>marlmap report</h1>\n<p class=\"meta\">"
     << rows.size() << " ops on " << escape(archs) << "; objective "
     << objectiveName(request.objective) << "; searcher "
     << escape(describeSearcher(request.searcher)) << "; budget "
     << escape(budgetKey(request)) << "; seed " << request.seed << "; "
     << (request.seconds > 0
             ? "a time budget: the results depend on the machine's speed"
             : "deterministic")
     << ".</p>\n";
  writeTotals(os, rows, networks);
  writeOps(os, rows, networks);
  writeScript(os);
  os << "</body>\n</html>\n";
}

} // namespace marlmap
