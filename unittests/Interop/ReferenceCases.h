//===- ReferenceCases.h - Timeloop's golden cases for tests -----*- C++ -*-===//
//
// Loads ../shared/reference/timeloop/cases/*.json: Timeloop v3.0.3's inputs
// and outputs on fixed architectures, layers and mappings.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_UNITTESTS_INTEROP_REFERENCECASES_H
#define MARLMAP_UNITTESTS_INTEROP_REFERENCECASES_H

#include "marlmap/Core/Arch.h"
#include "marlmap/Core/Mapping.h"
#include "marlmap/Core/Problem.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace marlmap::testing {

struct ReferenceCase {
  std::string name;
  std::string archYaml, problemYaml, mappingYaml;
  /// The whole case file.
  llvm::json::Value json = nullptr;
};

/// A case's inputs as core types, read from its Timeloop YAML.
struct ReadCase {
  Arch arch;
  Problem problem;
  Mapping mapping;
};
ReadCase read(const ReferenceCase &referenceCase);

/// Every case, sorted by name; empty when the reference folder is absent.
const std::vector<ReferenceCase> &referenceCases();

/// Case files that could not be read or lack a field, with the reason: a
/// reference that loses cases silently would test less than it claims.
const std::vector<std::string> &unreadableReferenceCases();

/// The folder the cases come from, for skip messages.
std::string referenceFolder();

} // namespace marlmap::testing

#endif // MARLMAP_UNITTESTS_INTEROP_REFERENCECASES_H
