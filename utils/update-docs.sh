#!/usr/bin/env bash
# Regenerates the reference in docs/reference from the build: TableGen's
# dialect and pass docs, and the searcher registry's options.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target mlir-doc marlmap-explore
cp build/docs/Dialects/AccelDialect.md docs/reference/AccelDialect.md
cp build/docs/MarlmapPasses.md docs/reference/MarlmapPasses.md
build/bin/marlmap-explore --list-searchers > docs/reference/Searchers.md
