//===- BlasGuard.cpp - Matrix products two searches may run at once -------===//

#include "BlasGuard.h"

#include <dlfcn.h>

namespace marlmap {

namespace {

/// Asks the already loaded `library` (as LibTorch loaded it) whether it is
/// a sequential OpenBLAS; false when it is not loaded or not OpenBLAS.
bool isSequentialOpenBlas(const char *library) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (!handle)
    return false;
  // 0: sequential, 1: pthreads, 2: OpenMP.
  auto parallel =
      reinterpret_cast<int (*)()>(dlsym(handle, "openblas_get_parallel"));
  bool sequential = parallel && parallel() == 0;
  dlclose(handle);
  return sequential;
}

} // namespace

bool blasIsReentrant() {
  // Debian links LibTorch to both names; each is chosen by the alternatives
  // system on its own.
  static const bool reentrant = !isSequentialOpenBlas("libblas.so.3") &&
                                !isSequentialOpenBlas("libopenblas.so.0");
  return reentrant;
}

BlasGuard::BlasGuard() {
  static std::mutex blas;
  if (!blasIsReentrant())
    lock = std::unique_lock<std::mutex>(blas);
}

} // namespace marlmap
