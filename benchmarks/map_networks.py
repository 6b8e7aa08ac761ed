#!/usr/bin/env python3
"""Wall time of --marl-map on whole networks, as a markdown table.

    python3 benchmarks/map_networks.py --opt build/bin/marlmap-opt \\
        ../shared/corpus/torchvision_resnet50.mlir \\
        ../shared/corpus/deepseek_r1_qwen1.5b_decode.mlir

Each network is mapped `--repeat` times with the pass's default options (or
`--options`), cold (a fresh mapping cache every time) and warm (the cache the
cold run filled); the table gives the median and the spread.
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import tempfile
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--options", default="")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("files", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    print(f"`--marl-map={args.options}`, {args.repeat} runs each\n")
    print("| network | ops mapped | distinct problems | cold median s "
          "[min, max] | warm median s [min, max] |")
    print("|---|---:|---:|---:|---:|")
    for path in args.files:
        with tempfile.TemporaryDirectory() as folder:
            cache = pathlib.Path(folder) / "cache.db"

            def timed():
                start = time.perf_counter()
                run = subprocess.run(
                    [args.opt, str(path),
                     f"--marl-map={args.options} summary=true cache={cache}",
                     "-o", "/dev/null"], capture_output=True, text=True,
                    check=True)
                return time.perf_counter() - start, run.stderr

            cold, warm, summary = [], [], ""
            for _ in range(args.repeat):
                cache.unlink(missing_ok=True)
                seconds, summary = timed()
                cold.append(seconds)
            for _ in range(args.repeat):
                warm.append(timed()[0])
        match = re.search(r"marl-map: (\d+) ops mapped \((\d+) distinct", summary)
        ops, distinct = match.groups() if match else ("?", "?")
        spread = lambda t: (f"{statistics.median(t):.2f} "
                            f"[{min(t):.2f}, {max(t):.2f}]")
        print(f"| {path.stem} | {ops} | {distinct} | {spread(cold)} | "
              f"{spread(warm)} |")


if __name__ == "__main__":
    main()
