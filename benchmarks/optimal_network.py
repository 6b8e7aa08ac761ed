#!/usr/bin/env python3
"""How far the exact searcher gets on a whole network: maps it with
searcher=optimal under one time limit for the whole network (both cores,
as --marl-map does) and reports the wall time, how many of the network's
distinct problems were proved optimal, the network's EDP, and for each
problem left unproved its loops and the gap between its best mapping and
its certified lower bound, and the process's peak memory (the searches
that wait for a second round keep their trees).

usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/optimal_network.py
           [--network examples/resnet50.mlir] [--arch eyeriss] [--time 600]
"""

import pathlib
import resource
import time

import marlmap
from marlmap.studies import cli, reports
from marlmap.studies.paths import EXAMPLES


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--network", type=pathlib.Path,
                        default=EXAMPLES / "resnet50.mlir")
    parser.add_argument("--arch", default="eyeriss")
    parser.add_argument("--time", type=float, default=600.0,
                        help="seconds for the whole network")
    args = parser.parse_args()
    start = time.perf_counter()
    report = marlmap.map_module(args.network.read_text(), arch=args.arch,
                                searcher="optimal", time=args.time,
                                name=args.network.name).report
    wall = time.perf_counter() - start
    problems = {}
    for op in report["ops"]:
        problems.setdefault(op["problem"], op)
    proved = sum(op["proved_optimal"] for op in problems.values())
    totals = report["totals"]
    print(f"{args.network.name} on {args.arch}, {args.time:g} s: "
          f"{wall:.1f} s wall, {proved} of {len(problems)} distinct "
          f"problems proved ({totals['ops_mapped']} ops mapped), network "
          f"EDP {totals['edp']:.4g}, peak memory "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.1f} "
          "GiB\n")
    print(reports.row(["problem", "loops", "ops", "best EDP", "lower bound",
                       "gap"]))
    print(reports.rule("rlrrrr"))
    for index, op in sorted(problems.items()):
        if op["proved_optimal"]:
            continue
        bound = op["objective_lower_bound"]
        print(reports.row([str(index), op["loops"], str(op["multiplicity"]),
                           f"{op['edp']:.4g}", f"{bound:.4g}",
                           f"{op['edp'] / bound - 1:.1%}"]))


if __name__ == "__main__":
    main()
