#!/usr/bin/env bash
# Builds all of marlmap (libraries, tools, the policy library, unit tests)
# with clang-22, AddressSanitizer and UndefinedBehaviorSanitizer in
# build/sanitize-build, and runs the unit and lit tests there. The plugin
# test loads marlmap into the stock, uninstrumented mlir-opt-22, which
# cannot host the sanitizers' runtime: it reports UNSUPPORTED here. Takes
# about a quarter of an hour on two cores; docs/Limits.md records the last result.
# (check-marlmap runs the library unit tests under the sanitizers on every
# run: utils/fuzz.sh.)
#
#   utils/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tree=build/sanitize-build
# LLVM's CMake sets the sanitizers' flags, and leaves shared libraries'
# sanitizer symbols to the executable that loads them.
if [ ! -f "$tree/build.ninja" ]; then
  cmake -G Ninja -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_SANITIZER="Address;Undefined" \
    -DMARLMAP_FUZZ_CHECK=OFF -DMARLMAP_SANITIZED=ON >/dev/null
fi
# LLVM's allocators poison memory of their own; LibTorch and MLIR keep
# process-lifetime allocations that LeakSanitizer would report.
export ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake --build "$tree" --target check-marlmap
