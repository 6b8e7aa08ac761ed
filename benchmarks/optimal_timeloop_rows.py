#!/usr/bin/env python3
"""How fast the exact searcher proves Timeloop's reference rows: for each
row of ../shared/reference/timeloop/mapper-anchors.csv (an architecture and
a layer, with the mapspace constraints Timeloop's mapper searched), runs
marlmap-explore with searcher=optimal under a time limit on Timeloop's own
inputs and reports whether it proved the optimum, in how long, with how
many evaluated mappings, the optimum (or the best found and the certified
lower bound) and how it compares with the lowest EDP of Timeloop's three
runs. One case at a time, so that each has a core to itself.

usage: python3 benchmarks/optimal_timeloop_rows.py
           [--explore build/bin/marlmap-explore] [--time 60]
           [--reference ../shared/reference/timeloop] [--rows PART,...]
"""

import argparse
import csv
import json
import pathlib
import subprocess
import tempfile
import time


def rows(reference, only):
    """mapper-anchors.csv's rows whose name contains one of `only`."""
    with open(reference / "mapper-anchors.csv") as anchors:
        for row in csv.DictReader(anchors):
            name = f"{row['arch']}__{row['layer']}"
            if not only or any(part in name for part in only):
                yield name, row


def timeloop_inputs(reference, name, folder):
    """The architecture, problem and constraints files of a row, written
    into `folder`: explore's options that read them."""
    case = json.loads(
        (reference / "cases" / f"{name}__best_edp.json").read_text())
    inputs = case["timeloop_inputs"]
    files = {
        "timeloop-arch": inputs["arch_yaml"],
        "timeloop-problem": inputs["problem_yaml"],
        "timeloop-constraints":
            inputs["mapper_inputs_for_reference"]["constraints_yaml"],
    }
    options = []
    for option, text in files.items():
        path = pathlib.Path(folder) / f"{name}.{option}.yaml"
        path.write_text(text)
        options.append(f"--{option}={path}")
    return options


def prove(binary, options, seconds):
    """The explorer's JSON for one exact search, and its wall time."""
    start = time.perf_counter()
    out = subprocess.run(
        [binary, *options, "--searcher=optimal", f"--time={seconds:g}",
         "--format=json", "--progress=none"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--explore", default="build/bin/marlmap-explore")
    parser.add_argument("--time", type=float, default=60.0,
                        help="seconds per row")
    parser.add_argument("--reference", type=pathlib.Path,
                        default=pathlib.Path("../shared/reference/timeloop"))
    parser.add_argument("--rows", default="",
                        help="comma-separated parts of row names to run")
    args = parser.parse_args()
    only = [part for part in args.rows.split(",") if part]
    print("| row | proved | s | samples | optimal EDP | lower bound | gap "
          "| / Timeloop's best of 3 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    proved = cases = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, row in rows(args.reference, only):
            options = timeloop_inputs(args.reference, name, folder)
            result, wall = prove(args.explore, options, args.time)
            best = result.get("edp", float("inf"))  # absent: nothing valid
            bound = result["objective_lower_bound"]
            timeloop = float(row["lowest_edp_of_3_pJ_cycles"])
            cases += 1
            proved += bool(result["proved_optimal"])
            print(f"| {name} | "
                  f"{'yes' if result['proved_optimal'] else 'no'} | "
                  f"{wall:.1f} | {result['samples']} | {best:.4g} | "
                  f"{bound:.4g} | {best / bound - 1:.1%} | "
                  f"{best / timeloop:.3f} |", flush=True)
    print(f"\n{proved} of {cases} rows proved within {args.time:g} s each.")


if __name__ == "__main__":
    main()
