#!/usr/bin/env bash
# Builds marlmap's libFuzzer targets (fuzz/) and its library unit tests with
# clang-22, AddressSanitizer and UndefinedBehaviorSanitizer, in a build tree
# of their own (build/fuzz-build); runs the unit tests under the sanitizers,
# then every fuzz target for SECONDS (default 60) from the seed corpus in
# fuzz/corpus/TARGET. A finding fails the run; its input is left in
# build/fuzz-build/findings/ (turn it into a regression test). For a long
# run: utils/fuzz.sh 3600.
#
#   utils/fuzz.sh [SECONDS [TREE]]
#
# With SECONDS at most 60 (the bounded run check-marlmap makes), the fuzzers
# start from the seed corpus alone and a fixed seed: runs differ only in
# how far the time lets them get.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
tree="${2:-build/fuzz-build}"
seed=()
[ "$seconds" -le 60 ] && seed=(-seed=1)

if ! command -v clang++-22 >/dev/null; then
  echo "fuzz: clang++-22 is not installed (utils/setup.sh installs it)" >&2
  exit 1
fi
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
flags+=" -fno-omit-frame-pointer -fsanitize=fuzzer-no-link"
if [ ! -f "$tree/build.ninja" ]; then
  cmake -G Ninja -S . -B "$tree" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DMARLMAP_FUZZ=ON >/dev/null
fi
targets=(marlmap-fuzz-accel-attribute marlmap-fuzz-timeloop-yaml
         marlmap-fuzz-model)
tests=(MarlmapCoreTests MarlmapCacheTests MarlmapInteropTests)
cmake --build "$tree" --target "${targets[@]}" "${tests[@]}"

# LLVM's allocators poison memory of their own; MLIR's contexts live as
# long as the process on purpose.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for test in "${tests[@]}"; do
  ASAN_OPTIONS=allow_user_poisoning=0 "$tree/unittests/$test" --gtest_brief=1
done

mkdir -p "$tree/findings"
for target in "${targets[@]}"; do
  name="${target#marlmap-fuzz-}"
  # A bounded run starts from the seed corpus alone, a long one from what
  # earlier long runs found too.
  if [ ${#seed[@]} -gt 0 ]; then
    work="$tree/corpus/bounded-$name"
    rm -rf "$work"
  else
    work="$tree/corpus/$name"
  fi
  mkdir -p "$work"
  echo "fuzz: $target for ${seconds}s"
  ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0 \
    "$tree/bin/$target" "${seed[@]}" -max_total_time="$seconds" \
    -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$tree/findings/$name-" \
    "$work" "fuzz/corpus/$name" 2>"$tree/$name.log" || {
      tail -40 "$tree/$name.log" >&2
      echo "fuzz: $target found a problem (input in $tree/findings/)" >&2
      exit 1
    }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$tree/$name.log" |
    sed "s/^/fuzz: $name: /"
done
echo "fuzz: clean"
