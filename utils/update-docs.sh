#!/usr/bin/env bash
# Regenerates the TableGen reference in docs/reference from the build.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target mlir-doc
cp build/docs/Dialects/AccelDialect.md docs/reference/AccelDialect.md
cp build/docs/MarlmapPasses.md docs/reference/MarlmapPasses.md
