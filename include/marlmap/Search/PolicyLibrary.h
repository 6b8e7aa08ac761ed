//===- PolicyLibrary.h - Where the LibTorch searchers come from -*- C++ -*-===//
//
// The policy searchers (marl, sarl) live in libMarlmapPolicy.so with
// LibTorch, which takes long to load: tools that never learn do not pay for
// it. A process loads it once, from the first of:
//   1. the path it is given (the passes' `policy-library=` option, the
//      tools' `--policy-library`);
//   2. the environment variable MARLMAP_POLICY_LIBRARY;
//   3. beside the binary that holds this code, then in ../lib from there.
// Loading sets LibTorch's intra-op thread count, and a threaded OpenBLAS's,
// to one (each search runs on one thread; parallelism comes from searching
// problems side by side), so it should happen before any search that uses
// them starts: loadPolicyLibrary does that (PolicyLibraryLoad on a thread of
// its own, while the caller does other work), and the factories below load
// on first use otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_SEARCH_POLICYLIBRARY_H
#define MARLMAP_SEARCH_POLICYLIBRARY_H

#include "marlmap/Search/Searcher.h"

#include <future>
#include <memory>
#include <string>

namespace marlmap {

/// Loads the policy library from `path` (empty: the environment variable,
/// then beside the binary), or says why not with every path tried; a
/// process that has loaded one library refuses to name another.
llvm::Error loadPolicyLibrary(const std::string &path);

/// Whether a policy library is loaded.
bool policyLibraryLoaded();

/// Loads the policy library (loadPolicyLibrary) on a thread of its own, for
/// a caller with other work meanwhile: whatever goes wrong is the next
/// loadPolicyLibrary's to say. The destructor waits for the load to end.
class PolicyLibraryLoad {
public:
  explicit PolicyLibraryLoad(std::string path);
  ~PolicyLibraryLoad();
  PolicyLibraryLoad(const PolicyLibraryLoad &) = delete;
  PolicyLibraryLoad &operator=(const PolicyLibraryLoad &) = delete;
  /// Whether the load has ended, the library loaded or not.
  bool ended() const;

private:
  std::future<void> loading;
};

/// A marl or sarl searcher (as `options` say) from the policy library,
/// loading it from `libraryPath` first if needed, or why the library cannot
/// be loaded or the searcher cannot be made.
llvm::Expected<std::unique_ptr<Searcher>>
makePolicySearcher(const MapSpace &space, uint64_t seed,
                   const SearchBudget &budget, const PolicyOptions &options,
                   const std::string &libraryPath);

/// A pack searching `spaces` in lockstep (seeds[p] for spaces[p]), each
/// problem as the searcher makePolicySearcher makes would search it alone,
/// unless options.share is set: then the problems of one group (groups[p];
/// empty: all one) and op kind share agents, and each problem's search
/// depends on its group alone. An error when it cannot be made.
llvm::Expected<std::unique_ptr<NetworkSearcher>>
makePolicyPack(const std::vector<const MapSpace *> &spaces,
               const std::vector<uint64_t> &seeds,
               const std::vector<unsigned> &groups, const SearchBudget &budget,
               const PolicyOptions &options, const std::string &libraryPath);

} // namespace marlmap

#endif // MARLMAP_SEARCH_POLICYLIBRARY_H
