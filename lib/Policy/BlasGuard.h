//===- BlasGuard.h - Matrix products two searches may run at once -*- C++
//-*-===//
//
// LibTorch multiplies matrices with the system's BLAS. A single-threaded
// OpenBLAS built without locking (Debian's libopenblas0-serial) shares its
// work buffers between callers, and two threads multiplying at once get
// wrong products. Every policy search holds a BlasGuard around its LibTorch
// work: under such a BLAS the guard runs one search's work at a time
// (correct, not parallel); under any other BLAS it costs nothing.
//
// Private to libMarlmapPolicy.
//
//===----------------------------------------------------------------------===//

#ifndef MARLMAP_LIB_POLICY_BLASGUARD_H
#define MARLMAP_LIB_POLICY_BLASGUARD_H

#include <mutex>

namespace marlmap {

/// Whether the BLAS LibTorch runs on may be called from several threads at
/// once: false for a sequential OpenBLAS build, true for OpenBLAS built for
/// threads (which locks), the reference BLAS and others.
bool blasIsReentrant();

/// Makes a threaded OpenBLAS multiply on the calling thread, as LibTorch's
/// own operations do once its intra-op thread count is one: its worker
/// threads would otherwise spin between products, taking the cores that
/// other searches run on. Part of the policy library's one-time set-up.
void multiplyOnCallingThreads();

class BlasGuard {
public:
  BlasGuard();

private:
  std::unique_lock<std::mutex> lock;
};

} // namespace marlmap

#endif // MARLMAP_LIB_POLICY_BLASGUARD_H
