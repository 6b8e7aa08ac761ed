//===- Defaults.h - What the pass and the tools do unasked ------*- C++ -*-===//
//
// The defaults every front end shares, in a header of their own so that
// the pass declarations (Passes.td) can name them without the driver.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_MAPPER_DEFAULTS_H
#define MARLMAP_MAPPER_DEFAULTS_H

#include <cstdint>

namespace marlmap {

/// The sample budget per distinct problem when none is given (and no time
/// budget either), in the passes and the tools alike.
constexpr int64_t kDefaultBudget = 2000;
/// The searcher and the objective when none is named.
constexpr const char *kDefaultSearcher = "marl";
constexpr const char *kDefaultObjective = "edp";

} // namespace marlmap

#endif // MARLMAP_MAPPER_DEFAULTS_H
