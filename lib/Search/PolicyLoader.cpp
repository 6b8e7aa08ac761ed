//===- PolicyLoader.cpp - Loading the LibTorch searchers on demand --------===//
//
// LibTorch's shared libraries take about half a second to load. They live in
// libMarlmapPolicy.so beside the tool or plugin that needs them, and are
// loaded the first time a policy searcher is asked for.
//
//===----------------------------------------------------------------------===//

#include "marlmap/Search/Searcher.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace marlmap {

namespace {

using Factory = Searcher *(*)(const MapSpace *, uint64_t, int64_t,
                              const PolicyOptions *);

struct Loaded {
  Factory factory = nullptr;
  std::string error;
};

/// The folder of the binary this code is part of.
std::string ownFolder() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&ownFolder), &info) || !info.dli_fname)
    return ".";
  std::string path = info.dli_fname;
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

/// OpenBLAS picks its kernels from the CPU model, and falls back to its
/// oldest x86-64 ones on a model it does not know (as virtual machines often
/// report): 1.7x slower policy searches. Unless the user has chosen, name
/// the kernels from the CPU's features instead: the AVX-512 ones where the
/// CPU has what they use, else the AVX2 ones where it has AVX2 and FMA; on a
/// model OpenBLAS knows these are what it would pick. OpenBLAS reads the
/// choice when it loads, with LibTorch, below.
void chooseBlasKernels() {
#if defined(__x86_64__)
  if (std::getenv("OPENBLAS_CORETYPE"))
    return;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    setenv("OPENBLAS_CORETYPE", "SkylakeX", /*overwrite=*/0);
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    setenv("OPENBLAS_CORETYPE", "Haswell", /*overwrite=*/0);
#endif
}

Loaded load() {
  Loaded loaded;
  chooseBlasKernels();
  std::string folder = ownFolder();
  std::string tried;
  for (const std::string &candidate :
       {folder + "/libMarlmapPolicy.so",
        folder + "/../lib/libMarlmapPolicy.so"}) {
    void *library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
      continue;
    }
    loaded.factory =
        reinterpret_cast<Factory>(dlsym(library, "marlmapMakePolicySearcher"));
    if (loaded.factory)
      return loaded;
    tried += "; " + candidate + " has no policy searchers";
  }
  loaded.error = "the policy searchers (libMarlmapPolicy.so) cannot be "
                 "loaded: " +
                 tried;
  return loaded;
}

} // namespace

std::unique_ptr<Searcher> makePolicySearcher(const MapSpace &space,
                                             uint64_t seed, int64_t budget,
                                             const PolicyOptions &options,
                                             std::string &error) {
  static const Loaded loaded = load();
  if (!loaded.factory) {
    error = loaded.error;
    return nullptr;
  }
  return std::unique_ptr<Searcher>(
      loaded.factory(&space, seed, budget, &options));
}

} // namespace marlmap
