"""Whole networks at equal wall-clock time: which searcher maps them best.

Runs `--marl-map` in-process (the marlmap module) on whole networks with
the pass's wall-clock budget (`time=`, for the whole network, all cores),
for every searcher, network, accelerator, budget and seed, one run at a
time, and writes REPORT (Markdown), its JSON and, with matplotlib, one plot
of network EDP against seconds per network and accelerator:

  * per cell (network x accelerator x seconds): the median network EDP of
    each searcher over the seeds (min-max), and which searcher's is lowest;
  * the share of cells where marl's median is the lowest;
  * the wall time of every run (a searcher may not take longer than its
    budget to win), and the ops each mapped: every searcher must map the
    same ops, or the run stops.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.network_race \\
        --seconds 1 5 20 --seeds 3 --out docs/study/NETWORK_RACE.md
"""

import statistics
import sys
import time

import marlmap

from . import cli, reports
from .running import policy_load_seconds
from .workloads import COMPARED_FACTORS, HELD_OUT, NETWORKS, network_text

# Contestants: name -> (searcher, its options). marl-alone is marl whose
# problems do not pass their best mappings to each other; marl-refine
# refines its elites for 16 rounds after every update; the last three are
# marl's other clusterings (docs/Search.md). By default the race runs all
# but those three.
SEARCHERS = {
    "marl": ("marl", {}),
    "marl-refine": ("marl", {"policy-refine": "16"}),
    "marl-alone": ("marl", {"policy-transfer": "0"}),
    "genetic": ("genetic", {}),
    "annealing": ("annealing", {}),
    "random": ("random", {}),
    "marl-interaction": ("marl", {"agents": "auto"}),
    "marl-correlation": ("marl", {"agents": "correlation"}),
    "marl-random-clusters": ("marl", {"agents": "random"}),
}
CLUSTERINGS = ["marl-interaction", "marl-correlation", "marl-random-clusters"]


def add_contestant(parser, text):
    """Adds NAME=SEARCHER[,OPTION=VALUE...] to SEARCHERS."""
    name, _, rest = text.partition("=")
    searcher, _, settings = rest.partition(",")
    options = cli.settings(settings)
    if not name or not searcher or options is None:
        parser.error(f"--contestant '{text}' is not "
                     "NAME=SEARCHER[,OPTION=VALUE...]")
    SEARCHERS[name] = (searcher, options)


def run(text, name, arch, contestant, seconds, seed):
    """One --marl-map run of a contestant (SEARCHERS): the network's totals
    and the wall time."""
    searcher, options = SEARCHERS[contestant]
    start = time.perf_counter()
    mapped = marlmap.map_module(text, arch=arch, searcher=searcher,
                                options=options, time=seconds, seed=seed,
                                name=name, factors=COMPARED_FACTORS)
    wall = time.perf_counter() - start
    totals = mapped.report["totals"]
    return {"edp": totals["edp"], "ops_mapped": totals["ops_mapped"],
            "samples": totals["samples"], "wall": wall}


def cell_rows(results, searchers):
    """Per cell: each searcher's median EDP and spread, and the winner."""
    rows = []
    for key, per in results.items():
        medians = {s: statistics.median(r["edp"] for r in per[s])
                   for s in searchers}
        rows.append({"cell": key, "medians": medians,
                     "spread": {s: (min(r["edp"] for r in per[s]),
                                    max(r["edp"] for r in per[s]))
                                for s in searchers},
                     "wall": {s: max(r["wall"] for r in per[s])
                              for s in searchers},
                     "winner": min(medians, key=medians.get)})
    return rows


def plot(results, searchers, out):
    """Network EDP against seconds, one figure per network and arch."""
    plt = reports.pyplot()
    if plt is None:
        return []
    written = []
    groups = {}
    for key, per in results.items():
        network, arch, seconds = key.split("|")
        groups.setdefault((network, arch), []).append((float(seconds), per))
    for (network, arch), cells in groups.items():
        cells.sort()
        figure, axes = plt.subplots(figsize=(5, 3.5))
        for searcher in searchers:
            axes.plot([c[0] for c in cells],
                      [statistics.median(r["edp"] for r in c[1][searcher])
                       for c in cells], marker="o", label=searcher)
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("seconds per network")
        axes.set_ylabel("network EDP (pJ x cycles)")
        axes.set_title(f"{network} on {arch}")
        axes.legend()
        figure.tight_layout()
        # Named after the report, so that reports in one folder keep their own.
        path = out.parent / f"{out.stem}_{network}_{arch}.png"
        figure.savefig(path, dpi=90)
        plt.close(figure)
        written.append(path.name)
    return written


def report(options, rows, searchers, load_seconds, plots):
    lines = [
        "# Whole networks at equal wall-clock time", "",
        reports.written_by("marlmap.studies.network_race"),
        "",
        "Each cell is one network on one accelerator at one wall-clock "
        "budget for the whole network (`--marl-map` with `time=`, both "
        "cores), run once per seed and searcher, one run at a time. Network "
        "EDP is the network's total energy times its total cycles, its ops "
        "run one after another. Every searcher mapped the same ops in every "
        "cell (checked). The policy library loads once per process before "
        f"the first learned search: {load_seconds:.2f} s here, not counted "
        "in the runs' wall time.", "",
        f"Seeds per cell: {options.seeds}; budgets: "
        f"{', '.join(f'{s:g}' for s in options.seconds)} s per network.", "",
        "Networks marked *held out* are in neither examples/ nor the corpus "
        "(benchmarks/heldout): no searcher was trained or tuned on them. "
        "Contestants with `policy-weights` start from agents trained on "
        "examples/ and the corpus, so on the other networks they are "
        "searching networks they were trained on.", "",
        "Contestants: " + "; ".join(
            f"`{name}` = {SEARCHERS[name][0]}" +
            "".join(f" {k}={v}" for k, v in SEARCHERS[name][1].items())
            for name in searchers) + ".", "",
        reports.row(["network", "arch", "seconds"] + searchers +
                    ["lowest", "slowest run s"]),
        reports.rule("llr" + "r" * len(searchers) + "lr")]
    for row in rows:
        network, arch, seconds = row["cell"].split("|")
        cells = []
        for s in searchers:
            low, high = row["spread"][s]
            cells.append(f"{row['medians'][s]:.3g} ({low:.2g}-{high:.2g})")
        if network in HELD_OUT:
            network += " (*held out*)"
        lines.append(reports.row(
            [network, arch, seconds] + cells +
            [row["winner"], f"{max(row['wall'].values()):.2f}"]))
    classical = [s for s in searchers if SEARCHERS[s][0] != "marl"]
    held_out = [r for r in rows if r["cell"].split("|")[0] in HELD_OUT]
    parts = [("", rows)]
    if held_out and len(held_out) < len(rows):
        parts += [(" of held-out networks", held_out),
                  (" of the others", [r for r in rows if r not in held_out])]
    for variant in (s for s in searchers if SEARCHERS[s][0] == "marl"):
        for label, part in parts:
            won = sum(all(row["medians"][variant] < row["medians"][c]
                          for c in classical) for row in part)
            lines += ["", f"{variant}'s median is below every classical "
                      f"searcher's ({', '.join(classical)}) in {won} of "
                      f"{len(part)} cells{label} "
                      f"({100 * won / len(part):.0f}%; target 75%)."]
    for name in plots:
        lines += ["", f"![{name}]({name})"]
    return "\n".join(lines) + "\n"


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--networks", nargs="+", default=list(NETWORKS),
                        choices=list(NETWORKS) + list(HELD_OUT),
                        help="default: all but the held-out ones (" +
                             ", ".join(HELD_OUT) + ")")
    cli.add_archs(parser)
    parser.add_argument("--seconds", nargs="+", type=float,
                        default=[1, 5, 20])
    cli.add_seeds(parser, 3)
    parser.add_argument("--searchers", nargs="+",
                        default=[s for s in SEARCHERS if s not in CLUSTERINGS],
                        help="contestants: " + ", ".join(SEARCHERS) +
                             ", or those --contestant adds")
    parser.add_argument("--contestant", action="append", default=[],
                        metavar="NAME=SEARCHER[,OPTION=VALUE...]",
                        help="one more contestant, e.g. "
                             "marl-h8=marl,policy-hidden=8; name it in "
                             "--searchers to race it")
    cli.add_report_out(parser)
    options = parser.parse_args()
    for text in options.contestant:
        add_contestant(parser, text)
    for name in options.searchers:
        if name not in SEARCHERS:
            parser.error(f"no contestant '{name}' (--contestant adds one)")
    load_seconds = policy_load_seconds()

    results = {}
    for network in options.networks:
        path, text = network_text(network)
        for arch in options.archs:
            for seconds in options.seconds:
                key = f"{network}|{arch}|{seconds:g}"
                per = results[key] = {}
                for searcher in options.searchers:
                    per[searcher] = [
                        run(text, path.name, arch, searcher, seconds, seed)
                        for seed in range(1, options.seeds + 1)]
                mapped = {r["ops_mapped"] for runs in per.values()
                          for r in runs}
                if len(mapped) != 1:
                    raise SystemExit(f"{key}: searchers mapped different "
                                     f"numbers of ops: {sorted(mapped)}")
                print(f"{key}: done", file=sys.stderr)
    rows = cell_rows(results, options.searchers)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    plots = plot(results, options.searchers, options.out)
    reports.write_report(
        options.out,
        report(options, rows, options.searchers, load_seconds, plots),
        {"results": results, "policy_load_seconds": load_seconds})


if __name__ == "__main__":
    main()
