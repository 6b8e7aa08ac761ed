#!/usr/bin/env python3
"""Whole networks at equal wall-clock time: which searcher maps them best.

Runs `--marl-map` in-process (the marlmap module of the build,
docs/Python.md) on whole networks with the pass's wall-clock budget
(`time=`, for the whole network, all cores), for every searcher, network,
accelerator, budget and seed, one run at a time, and writes REPORT
(Markdown), its JSON and, with matplotlib, one plot of network EDP against
seconds per network and accelerator:

  * per cell (network x accelerator x seconds): the median network EDP of
    each searcher over the seeds (min-max), and which searcher's is lowest;
  * the share of cells where marl's median is the lowest;
  * the wall time of every run (a searcher may not take longer than its
    budget to win), and the ops each mapped: every searcher must map the
    same ops, or the run stops.

    /usr/bin/python3 python/network_race.py --seconds 1 5 20 --seeds 3 \\
        --out docs/study/NETWORK_RACE.md
"""

import argparse
import json
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import search_study  # noqa: E402

CHECKOUT = pathlib.Path(__file__).resolve().parent.parent
SHARED = CHECKOUT.parent / "shared"
NETWORKS = {
    "resnet50": CHECKOUT / "examples" / "resnet50.mlir",
    "mobilenet_v2": SHARED / "corpus" / "torchvision_mobilenet_v2.mlir",
    "vgg16": SHARED / "corpus" / "torchvision_vgg16.mlir",
    "bert_base_encoder": CHECKOUT / "examples" / "bert_base_encoder.mlir",
    "hf_bert_tiny": SHARED / "corpus" / "hf_bert_tiny.mlir",
}
# Networks in neither examples/ nor the corpus (benchmarks/heldout/README.md):
# never trained or tuned on, so they say how a searcher does on networks it
# has not seen. Not raced unless named in --networks.
HELD_OUT = {
    name: CHECKOUT / "benchmarks" / "heldout" / f"{name}.mlir"
    for name in ("googlenet", "densenet121", "vit_b16", "mobilenet_v3_large")
}

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
    searcher, *settings = rest.split(",")
    if not name or not searcher or any("=" not in s for s in settings):
        parser.error(f"--contestant '{text}' is not "
                     "NAME=SEARCHER[,OPTION=VALUE...]")
    SEARCHERS[name] = (searcher, dict(s.split("=", 1) for s in settings))


def run(marlmap, text, name, arch, contestant, seconds, seed):
    """One --marl-map run of a contestant (SEARCHERS): the network's totals
    and the wall time."""
    searcher, options = SEARCHERS[contestant]
    start = time.perf_counter()
    mapped = marlmap.map_module(text, arch=arch, searcher=searcher,
                                options=options, time=seconds, seed=seed,
                                name=name)
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
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
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
        f"Written by `python/network_race.py` (`{' '.join(sys.argv[1:])}`).",
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
        "| network | arch | seconds | " +
        " | ".join(searchers) + " | lowest | slowest run s |",
        "|---|---|---:|" + "---:|" * len(searchers) + "---|---:|"]
    for row in rows:
        network, arch, seconds = row["cell"].split("|")
        cells = []
        for s in searchers:
            low, high = row["spread"][s]
            cells.append(f"{row['medians'][s]:.3g} ({low:.2g}-{high:.2g})")
        if network in HELD_OUT:
            network += " (*held out*)"
        lines.append(f"| {network} | {arch} | {seconds} | " +
                     " | ".join(cells) + f" | {row['winner']} | "
                     f"{max(row['wall'].values()):.2f} |")
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--networks", nargs="+", default=list(NETWORKS),
                        choices=list(NETWORKS) + list(HELD_OUT),
                        help="default: all but the held-out ones (" +
                             ", ".join(HELD_OUT) + ")")
    parser.add_argument("--archs", nargs="+", default=["eyeriss", "simba"])
    parser.add_argument("--seconds", nargs="+", type=float,
                        default=[1, 5, 20])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--searchers", nargs="+",
                        default=[s for s in SEARCHERS if s not in CLUSTERINGS],
                        help="contestants: " + ", ".join(SEARCHERS) +
                             ", or those --contestant adds")
    parser.add_argument("--contestant", action="append", default=[],
                        metavar="NAME=SEARCHER[,OPTION=VALUE...]",
                        help="one more contestant, e.g. "
                             "marl-h8=marl,policy-hidden=8; name it in "
                             "--searchers to race it")
    parser.add_argument("--build", type=pathlib.Path,
                        help="build folder with the marlmap module "
                             "(default: the checkout's build/)")
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="the report (Markdown); its JSON goes beside it")
    options = parser.parse_args()
    for text in options.contestant:
        add_contestant(parser, text)
    for name in options.searchers:
        if name not in SEARCHERS:
            parser.error(f"no contestant '{name}' (--contestant adds one)")
    search_study.import_marlmap(options.build)
    marlmap = search_study.marlmap

    start = time.perf_counter()
    marlmap.search(marlmap.layer("gemm:M=2,N=2,K=2"), marlmap.arch("edge"),
                   searcher="marl", budget=1)
    load_seconds = time.perf_counter() - start

    results = {}
    for network in options.networks:
        path = NETWORKS.get(network) or HELD_OUT[network]
        if not path.is_file():
            raise SystemExit(f"no {path}")
        text = path.read_text()
        for arch in options.archs:
            for seconds in options.seconds:
                key = f"{network}|{arch}|{seconds:g}"
                per = results[key] = {}
                for searcher in options.searchers:
                    per[searcher] = [
                        run(marlmap, text, path.name, arch, searcher, seconds,
                            seed) for seed in range(1, options.seeds + 1)]
                mapped = {r["ops_mapped"] for runs in per.values()
                          for r in runs}
                if len(mapped) != 1:
                    raise SystemExit(f"{key}: searchers mapped different "
                                     f"numbers of ops: {sorted(mapped)}")
                print(f"{key}: done", file=sys.stderr)
    rows = cell_rows(results, options.searchers)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    plots = plot(results, options.searchers, options.out)
    options.out.write_text(report(options, rows, options.searchers,
                                  load_seconds, plots))
    options.out.with_suffix(".json").write_text(json.dumps(
        {"results": results, "policy_load_seconds": load_seconds},
        indent=1) + "\n")


if __name__ == "__main__":
    main()
