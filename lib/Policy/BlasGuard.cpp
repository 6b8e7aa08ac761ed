//===- BlasGuard.cpp - Matrix products two searches may run at once -------===//

#include "BlasGuard.h"

#include <dlfcn.h>

namespace marlmap {

namespace {

// Debian links LibTorch to both names; the alternatives system chooses
// each on its own.
constexpr const char *kBlasNames[] = {"libblas.so.3", "libopenblas.so.0"};

/// Calls `use` with OpenBLAS's function `name` from the already loaded
/// `library` (as LibTorch loaded it), if it is loaded and is OpenBLAS.
template <typename Function, typename Use>
void withOpenBlas(const char *library, const char *name, Use &&use) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (!handle)
    return;
  if (void *function = dlsym(handle, name))
    use(reinterpret_cast<Function>(function));
  dlclose(handle);
}

bool isSequentialOpenBlas(const char *library) {
  bool sequential = false;
  // 0: sequential, 1: pthreads, 2: OpenMP.
  withOpenBlas<int (*)()>(
      library, "openblas_get_parallel",
      [&](int (*parallel)()) { sequential = parallel() == 0; });
  return sequential;
}

} // namespace

bool blasIsReentrant() {
  static const bool reentrant = [] {
    for (const char *library : kBlasNames)
      if (isSequentialOpenBlas(library))
        return false;
    return true;
  }();
  return reentrant;
}

void multiplyOnCallingThreads() {
  for (const char *library : kBlasNames)
    withOpenBlas<void (*)(int)>(library, "openblas_set_num_threads",
                                [](void (*setThreads)(int)) { setThreads(1); });
}

BlasGuard::BlasGuard() {
  static std::mutex blas;
  if (!blasIsReentrant())
    lock = std::unique_lock<std::mutex>(blas);
}

} // namespace marlmap
