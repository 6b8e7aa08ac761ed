#!/usr/bin/env python3
"""How far the exact searcher gets: for each layer of the search study (the
ten of marlmap.studies.workloads) on each accelerator, runs marlmap-explore
with searcher=optimal under a time limit and reports whether it proved the
optimum, the best EDP it found, the lower bound it certified and the gap
between them, beside marl's EDP at the same time and how far that is above
the bound. One case at a time, so that each has a core to itself.

usage: PYTHONPATH=build/python python3 benchmarks/optimal_proofs.py
           [--explore build/bin/marlmap-explore] [--time 60]
           [--archs eyeriss,simba] [--layers NAME,...]
"""

from marlmap.studies import cli, reports
from marlmap.studies.running import explore
from marlmap.studies.workloads import LAYERS


def main():
    parser = cli.parser(__doc__)
    cli.add_explore(parser)
    parser.add_argument("--time", type=float, default=60.0,
                        help="seconds per case for each searcher")
    parser.add_argument("--archs", default="eyeriss,simba")
    parser.add_argument("--layers", default=",".join(LAYERS))
    args = parser.parse_args()
    print(reports.row(["layer", "arch", "proved", "s", "optimal EDP",
                       "lower bound", "gap", "marl EDP", "marl / bound"]))
    print(reports.rule("lllrrrrrr"))
    proved = cases = 0
    for name in args.layers.split(","):
        for arch in args.archs.split(","):
            exact, wall = explore(args.explore, LAYERS[name], arch, "optimal",
                                  args.time)
            marl, _ = explore(args.explore, LAYERS[name], arch, "marl",
                              args.time)
            bound = exact["objective_lower_bound"]
            best = exact.get("edp", float("inf"))  # absent when nothing valid was found
            cases += 1
            proved += bool(exact["proved_optimal"])
            print(reports.row([
                name, arch, "yes" if exact["proved_optimal"] else "no",
                f"{wall:.1f}", f"{best:.4g}", f"{bound:.4g}",
                f"{best / bound - 1:.1%}", f"{marl['edp']:.4g}",
                f"{marl['edp'] / bound:.3f}"]), flush=True)
    print(f"\n{proved} of {cases} cases proved within {args.time:g} s each.")


if __name__ == "__main__":
    main()
