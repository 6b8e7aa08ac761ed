#!/usr/bin/env bash
# Installs what marlmap needs on Debian 12 (only what is missing) and builds
# it into build/. Safe to run again: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build ccache g++ python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libtorch-dev libgtest-dev libgmock-dev libbenchmark-dev libsqlite3-dev
  # LibTorch's matrix products: OpenBLAS instead of the reference BLAS makes
  # the policy searchers about 3x faster. The threaded build, because it
  # locks: searches of different problems multiply at the same time, and the
  # sequential build (libopenblas0-serial) returns wrong products then
  # (marlmap falls back to one search's products at a time under it).
  libopenblas0-pthread
  # The HTML report's test opens it in a real browser.
  chromium
  # The fuzzers and the sanitizer builds (utils/fuzz.sh, utils/sanitize.sh).
  clang-22 libclang-rt-22-dev
  # The Python module (python/) and its tests.
  pybind11-dev python3-dev python3-pytest python3-yaml
  # marlmap-sweep's tasks run on Dask distributed.
  python3-distributed
  # PostgreSQL mapping caches (libpq), and the server their tests start.
  libpq-dev postgresql
  # marlmap-import traces PyTorch models (torchvision's without weights).
  python3-torch python3-torchvision
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
    grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
fi

if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build
