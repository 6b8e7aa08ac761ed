//===- PolicyLoader.cpp - Loading the LibTorch searchers on demand --------===//
//
// The policy library exports two C entry points: one run once after loading
// (LibTorch's process-wide settings), one that makes a searcher. Neither
// lets an exception out: the code calling them is built without exceptions.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Search/PolicyLibrary.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace marlmap {

namespace {

constexpr const char *kLibraryName = "libMarlmapPolicy.so";
constexpr const char *kPathVariable = "MARLMAP_POLICY_LIBRARY";

// The library's entry points are plain C: a failure comes back as a null
// pointer and the message in the last argument, made an llvm::Error here.
using Initialise = void (*)();
using Factory = Searcher *(*)(const MapSpace *, uint64_t, const SearchBudget *,
                              const PolicyOptions *, std::string *);
using PackFactory = NetworkSearcher *(*)(const MapSpace *const *,
                                         const uint64_t *, const unsigned *,
                                         size_t, const SearchBudget *,
                                         const PolicyOptions *, std::string *);

struct LoadedLibrary {
  std::mutex mutex;
  /// Set once the factories are, for callers that must not wait for the
  /// mutex while a load holds it.
  std::atomic<bool> loaded{false};
  std::string path;
  Factory factory = nullptr;
  PackFactory packFactory = nullptr;
};

LoadedLibrary &loadedLibrary() {
  static LoadedLibrary library;
  return library;
}

/// The folder of the binary this code is part of.
std::string ownFolder() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&ownFolder), &info) || !info.dli_fname)
    return ".";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

/// Where to look, in order, and what chose each place.
std::vector<std::pair<std::string, std::string>>
candidates(const std::string &path) {
  if (!path.empty())
    return {{path, "policy-library"}};
  const char *variable = std::getenv(kPathVariable);
  if (variable && *variable)
    return {{variable, kPathVariable}};
  // Beside the binary or plugin this code is linked into, then the library
  // folder of its layout: bin/ and lib/ of the build tree or of an install.
  std::string folder = ownFolder();
  std::vector<std::pair<std::string, std::string>> places = {
      {folder + "/" + kLibraryName, "beside the binary"},
      {folder + "/../lib/" + kLibraryName, "beside the binary"}};
  std::string libdir = MARLMAP_INSTALL_LIBDIR;
  if (libdir != "lib" && !libdir.empty() && libdir.front() != '/')
    places.push_back(
        {folder + "/../" + libdir + "/" + kLibraryName, "beside the binary"});
  return places;
}

} // namespace

llvm::Error loadPolicyLibrary(const std::string &path) {
  LoadedLibrary &library = loadedLibrary();
  std::lock_guard<std::mutex> lock(library.mutex);
  if (library.factory) {
    if (path.empty() || path == library.path)
      return llvm::Error::success();
    return makeError("the policy library is already loaded from '" +
                     library.path + "'; a process loads one, not also '" +
                     path + "'");
  }
  std::string tried;
  for (const auto &[candidate, source] : candidates(path)) {
    tried += "\n  " + candidate + " (" + source + "): ";
    void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *reason = dlerror();
      tried += reason ? reason : "cannot be loaded";
      continue;
    }
    auto initialise =
        reinterpret_cast<Initialise>(dlsym(handle, "marlmapInitPolicyLibrary"));
    auto factory =
        reinterpret_cast<Factory>(dlsym(handle, "marlmapMakePolicySearcher"));
    auto packFactory =
        reinterpret_cast<PackFactory>(dlsym(handle, "marlmapMakePolicyPack"));
    if (!initialise || !factory || !packFactory) {
      tried += "not a marlmap policy library";
      dlclose(handle);
      continue;
    }
    initialise();
    library.path = candidate;
    library.factory = factory;
    library.packFactory = packFactory;
    library.loaded = true;
    return llvm::Error::success();
  }
  return makeError(std::string("cannot load the policy searchers (") +
                   kLibraryName + "); tried:" + tried +
                   "\nname its path with " + kPathVariable +
                   " or the policy-library option (--policy-library in the "
                   "tools)");
}

bool policyLibraryLoaded() { return loadedLibrary().loaded; }

PolicyLibraryLoad::PolicyLibraryLoad(std::string path)
    : loading(std::async(std::launch::async, [path = std::move(path)] {
        llvm::consumeError(loadPolicyLibrary(path));
      })) {}

PolicyLibraryLoad::~PolicyLibraryLoad() { loading.wait(); }

bool PolicyLibraryLoad::ended() const {
  return loading.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

llvm::Expected<std::unique_ptr<Searcher>>
makePolicySearcher(const MapSpace &space, uint64_t seed,
                   const SearchBudget &budget, const PolicyOptions &options,
                   const std::string &libraryPath) {
  if (llvm::Error error = loadPolicyLibrary(libraryPath))
    return std::move(error);
  Factory factory = loadedLibrary().factory;
  std::string why;
  std::unique_ptr<Searcher> searcher(
      factory(&space, seed, &budget, &options, &why));
  if (!searcher)
    return makeError(why);
  return searcher;
}

llvm::Expected<std::unique_ptr<NetworkSearcher>>
makePolicyPack(const std::vector<const MapSpace *> &spaces,
               const std::vector<uint64_t> &seeds,
               const std::vector<unsigned> &groups, const SearchBudget &budget,
               const PolicyOptions &options, const std::string &libraryPath) {
  if (seeds.size() != spaces.size() ||
      (!groups.empty() && groups.size() != spaces.size()))
    return makeError(
        "a policy pack needs one seed (and group, if any) per problem");
  if (llvm::Error error = loadPolicyLibrary(libraryPath))
    return std::move(error);
  PackFactory factory = loadedLibrary().packFactory;
  std::string why;
  std::unique_ptr<NetworkSearcher> pack(factory(
      spaces.data(), seeds.data(), groups.empty() ? nullptr : groups.data(),
      spaces.size(), &budget, &options, &why));
  if (!pack)
    return makeError(why);
  return pack;
}

} // namespace marlmap
