#!/usr/bin/env python3
"""How closely --marl-map keeps a time budget: runs the pass on a network
with time=T for each budget and searcher, and reports the wall time of the
whole process, the time the Mapper spent searching (the report's totals),
both over T, and the network's EDP.

usage: python3 benchmarks/time_budget.py [--opt build/bin/marlmap-opt]
           [--times 1,3,10] [--searchers genetic,marl] [NETWORK]
"""

import argparse
import json
import subprocess
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opt", default="build/bin/marlmap-opt")
    parser.add_argument("--times", default="1,3,10")
    parser.add_argument("--searchers", default="genetic,marl")
    parser.add_argument("network", nargs="?", default="examples/resnet50.mlir")
    args = parser.parse_args()
    print("| searcher | time= s | process s | process / time | searching s "
          "| searching / time | samples | network EDP |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for searcher in args.searchers.split(","):
        for seconds in [float(t) for t in args.times.split(",")]:
            with tempfile.NamedTemporaryFile(suffix=".json") as report:
                start = time.perf_counter()
                subprocess.run(
                    [args.opt, args.network,
                     f"--marl-map=time={seconds:g} searcher={searcher} "
                     f"progress=none report={report.name}", "-o",
                     "/dev/null"], check=True)
                wall = time.perf_counter() - start
                totals = json.load(open(report.name))["totals"]
            print(f"| {searcher} | {seconds:g} | {wall:.2f} | "
                  f"{wall / seconds:.2f} | {totals['seconds']:.2f} | "
                  f"{totals['seconds'] / seconds:.2f} | {totals['samples']} | "
                  f"{totals['edp']:.3g} |")


if __name__ == "__main__":
    main()
