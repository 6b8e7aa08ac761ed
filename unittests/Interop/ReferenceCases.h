//===- ReferenceCases.h - Timeloop's golden cases for tests -----*- C++ -*-===//
//
// Loads Timeloop v3.0.3's inputs and outputs on fixed architectures, layers
// and mappings: the shared reference (../shared/reference/timeloop/cases,
// when present) and the few cases bundled with the tests
// (unittests/Interop/TimeloopCases, always).
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

/// The cases of one folder, sorted by name, and the files that could not
/// be read or lack a field, with the reason: a reference that loses cases
/// silently would test less than it claims.
struct CaseFolder {
  std::string path;
  bool exists = false;
  std::vector<ReferenceCase> cases;
  std::vector<std::string> unreadable;
};

/// The shared reference's cases (`exists` is false where it is absent).
const CaseFolder &sharedReference();
/// The cases bundled with the tests.
const CaseFolder &bundledCases();
/// The shared reference's cases, for tests that start with
/// MARLMAP_REQUIRE_SHARED_REFERENCE.
inline const std::vector<ReferenceCase> &referenceCases() {
  return sharedReference().cases;
}

} // namespace marlmap::testing

/// Skips the test where the shared reference is absent, and fails it where
/// it is present but holds no case (never a loop over nothing that passes).
#define MARLMAP_REQUIRE_SHARED_REFERENCE()                                     \
  do {                                                                         \
    const ::marlmap::testing::CaseFolder &shared =                             \
        ::marlmap::testing::sharedReference();                                 \
    if (!shared.exists)                                                        \
      GTEST_SKIP() << "no shared reference at " << shared.path;                \
    ASSERT_FALSE(shared.cases.empty()) << shared.path << " holds no case";     \
  } while (false)

namespace marlmap::testing {} // namespace marlmap::testing

#endif // MARLMAP_UNITTESTS_INTEROP_REFERENCECASES_H
