#!/usr/bin/env python3
"""Wall time of --marl-map on whole networks, as a markdown table.

    python3 benchmarks/map_networks.py --opt build/bin/marlmap-opt \\
        ../shared/corpus/torchvision_resnet50.mlir \\
        ../shared/corpus/deepseek_r1_qwen1.5b_decode.mlir

Each network is mapped `--repeat` times with the pass's default options (or
`--options`); the table gives the median and the spread.
"""

import argparse
import pathlib
import re
import statistics
import subprocess
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--options", default="")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("files", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    print(f"`--marl-map={args.options}`, {args.repeat} runs each\n")
    print("| network | ops mapped | distinct problems | median s | min s | max s |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in args.files:
        times, summary = [], ""
        for _ in range(args.repeat):
            start = time.perf_counter()
            run = subprocess.run(
                [args.opt, str(path), f"--marl-map={args.options} summary=true",
                 "-o", "/dev/null"], capture_output=True, text=True, check=True)
            times.append(time.perf_counter() - start)
            summary = run.stderr
        match = re.search(r"marl-map: (\d+) ops mapped, (\d+) distinct", summary)
        ops, distinct = match.groups() if match else ("?", "?")
        print(f"| {path.stem} | {ops} | {distinct} | "
              f"{statistics.median(times):.2f} | {min(times):.2f} | "
              f"{max(times):.2f} |")


if __name__ == "__main__":
    main()
