//===- TextView.h - A mapping as people read it -----------------*- C++ -*-===//
//
// The mapping of one op as a loop nest, the way Timeloop's map.txt shows
// one, and where its energy and time go. Every tool that shows a mapping
// to a person shows it this way.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_REPORT_TEXTVIEW_H
#define MARLMAP_REPORT_TEXTVIEW_H

#include "marlmap/Core/CostModel.h"
#include "marlmap/Core/Mapping.h"

#include <string>

namespace marlmap {

/// One loop per line from the outermost level inwards, `for k in [0:4)`
/// with the problem's loop names; per level a header with what it keeps
/// (words per instance) and its occupancy against its capacity, then its
/// temporal loops in order, then its spatial loops, marked `(spatial X)` or
/// `(spatial Y)`. Factors of 1 are left out. `evaluation` must be valid.
std::string loopNestText(const Mapping &mapping, const Problem &problem,
                         const Arch &arch, const Evaluation &evaluation);

/// The op's figures in one line: cycles, energy, EDP, utilization, and the
/// cycles over their lower bound.
std::string figuresText(const Evaluation &evaluation, const LowerBound &bound);

/// A table of the energy of every level's reads, fills and updates per
/// operand, the MACs' and the total; then the cycles compute needs and each
/// level's bandwidth needs, the one that sets the cycles marked.
std::string breakdownText(const Evaluation &evaluation, const Problem &problem,
                          const Arch &arch, const LowerBound &bound);

/// All three: the figures, a blank line, the loop nest, a blank line, the
/// breakdown. What every tool shows of one mapped op.
std::string mappedOpText(const Mapping &mapping, const Problem &problem,
                         const Arch &arch, const Evaluation &evaluation,
                         const LowerBound &bound);

} // namespace marlmap

#endif // MARLMAP_REPORT_TEXTVIEW_H
