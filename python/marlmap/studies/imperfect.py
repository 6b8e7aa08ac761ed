"""The factor spaces at equal time: what partial tiles buy, network by network.

Maps whole networks with `--marl-map` in-process (the marlmap module, the
pass's wall-clock budget `time=` for the whole network, all cores) in each
factor space (perfect, spatial-imperfect, imperfect; docs/MapSpace.md) and
with `factors=auto` (partial tiles for the ops where they pay), for
every network, accelerator, budget and seed, one run at a time, and searches
single layers whose loops are primes at a per-layer budget. Writes REPORT
(Markdown) and its JSON:

  * per cell (network x accelerator x budget): each space's median network
    EDP over the seeds (min-max) and its change against the perfect space's
    median;
  * per layer, for each network and accelerator at the largest budget and
    the first seed: the ops whose EDP the imperfect space changed most, and
    the loops its mapping tiles with a partial last tile (the loops whose
    tiles now fit);
  * the single layers: each space's median EDP (min-max).

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.imperfect \\
        --seconds 4 20 --seeds 3 --out docs/study/IMPERFECT.md

With `--samples N...` each cell's budget is N samples per distinct problem
(the pass's `budget=`) instead of seconds per network, and the single
layers are left out.
"""

import statistics
import sys
import time

import marlmap

from . import cli, reports
from .running import policy_load_seconds
from .workloads import AWKWARD, HELD_OUT, NETWORKS, network_text

# Every factor space, and `auto`, which gives each problem of a network the
# imperfect space or the perfect one.
SPACES = marlmap.factors_options()
# Layers whose spatial loops (P, Q, K) are primes: the perfect space can
# spread them over an array only whole or not at all.
PRIME_LAYERS = {
    "conv_primes": "conv:N=1,K=61,C=64,P=53,Q=53,R=3,S=3",
    "gemm_197": "gemm:M=197,N=197,K=64",
}


def partial_loops(mapping, loops):
    """The loops (names) whose factors in the report's `mapping` multiply to
    more than their bound in `loops` ({name: bound}): their last tile is
    partial."""
    product = {name: 1 for name in loops}
    for level in mapping.values():
        for kind in ("temporal", "spatial_x", "spatial_y"):
            for name, factor in level[kind].items():
                product[name] *= factor
    return sorted(name for name, bound in loops.items()
                  if product[name] > bound)


def budgets(options):
    """Each cell's budget, as map_module takes it, and its label."""
    if options.samples:
        return [({"budget": n}, f"{n} samples") for n in options.samples]
    return [({"time": s}, f"{s:g} s") for s in options.seconds]


def run(text, name, arch, factors, budget, seed, searcher="marl"):
    """One --marl-map run in a factor space under `budget` (map_module's
    `time` or `budget`): the network's EDP, the ops mapped, the samples,
    the wall time, and per op its EDP and the loops with partial tiles."""
    start = time.perf_counter()
    mapped = marlmap.map_module(text, arch=arch, searcher=searcher,
                                seed=seed, name=name, factors=factors,
                                **budget)
    wall = time.perf_counter() - start
    # An op's loop names, by its location and bounds (names repeat).
    loops = {}
    for op in marlmap.ops(text, name):
        if op.problem is not None:
            bounds = "x".join(str(b) for b in op.problem.loops.values())
            loops[(op.location, bounds)] = op.problem.loops
    ops = [{"location": op["location"], "op": op["op"],
            "loops": op["loops"], "edp": op["edp"], "factors": op["factors"],
            "partial": partial_loops(op["mapping"],
                                     loops[(op["location"], op["loops"])])}
           for op in mapped.report["ops"]]
    totals = mapped.report["totals"]
    return {"edp": totals["edp"], "ops_mapped": totals["ops_mapped"],
            "partial_ops": sum(op["factors"] != "perfect" for op in ops),
            "samples": totals["samples"], "wall": wall, "ops": ops}


def median_and_spread(values):
    return statistics.median(values), min(values), max(values)


def cell_rows(results):
    """Per cell: each space's median EDP, spread, and change against the
    perfect space's median."""
    rows = []
    for key, per in results.items():
        stats = {space: median_and_spread([r["edp"] for r in per[space]])
                 for space in SPACES}
        perfect = stats["perfect"][0]
        auto = per["auto"][0]
        rows.append({"cell": key, "stats": stats,
                     "change": {space: stats[space][0] / perfect - 1.0
                                for space in SPACES},
                     "auto_partial": f"{auto['partial_ops']} of "
                                     f"{auto['ops_mapped']}"})
    return rows


def layer_rows(perfect, imperfect, most=5):
    """The ops of two runs (same network, arch, budget and seed) whose EDP
    changed most from the perfect space to the imperfect one."""
    before = {(op["location"], op["loops"]): op for op in perfect["ops"]}
    rows = []
    for op in imperfect["ops"]:
        key = (op["location"], op["loops"])
        if key not in before:
            continue
        change = op["edp"] / before[key]["edp"] - 1.0
        rows.append({"op": op["op"], "loops": op["loops"], "change": change,
                     "partial": op["partial"]})
    rows.sort(key=lambda row: row["change"])
    return rows[:most]


def without_ops(results):
    """`results` without each run's per-op figures (the report's per-layer
    table keeps the ops it shows): a network's ops over every run would
    make the JSON megabytes."""
    return {key: {space: [{k: v for k, v in run.items() if k != "ops"}
                          for run in runs]
                  for space, runs in per.items()}
            for key, per in results.items()}


def search_layer(layer, arch, factors, seconds, seed):
    figures = marlmap.search(marlmap.layer(layer), marlmap.arch(arch),
                             searcher="marl", time=seconds, seed=seed,
                             factors=factors).figures
    return figures.get("edp", float("inf"))


def percent(change):
    return f"{100 * change:+.1f}%"


def report(options, rows, layers, singles, load_seconds):
    labels = [label for _, label in budgets(options)]
    by_time = not options.samples
    lines = [
        "# Partial tiles at equal " + ("time" if by_time else "samples"), "",
        reports.written_by("marlmap.studies.imperfect"), "",
        f"Measured at commit {reports.commit()}.", "",
        "Each cell is one network on one accelerator at one budget ("
        + ("wall-clock seconds for the whole network, `--marl-map` with "
           "`time=`" if by_time else
           "samples per distinct problem, `--marl-map` with `budget=`")
        + ", both cores, the default searcher `marl`), run once per seed in "
        "each factor space, one run at a time: `perfect` (factors divide "
        "their loops), `spatial-imperfect` (a loop spread over the array "
        "may leave PEs idle in its last step; Ruby-S), `imperfect` (any "
        "loop's last tile may be partial), and `auto` (`spatial-imperfect` "
        "for the ops whose loops only partial tiles spread well over the "
        "arrays, where that saves at least a thousandth of the network's "
        "compute steps; `perfect` for the others; docs/MapSpace.md). "
        "Network EDP "
        "is the network's total energy times its total cycles. The "
        "imperfect spaces are supersets of the perfect one, but larger, "
        "and the cost model counts partial tiles on a slower path "
        "(docs/CostModel.md, Speed): at equal time they evaluate fewer "
        "mappings. The policy library "
        f"loads once before the first search ({load_seconds:.2f} s, not "
        "counted).", "",
        f"Seeds per cell: {options.seeds}; budgets: "
        + ", ".join(labels) + (" per network." if by_time else "."), "",
        reports.row(["network", "arch", "budget"] +
                    [f"{space} EDP" for space in SPACES] +
                    [f"{space} vs perfect" for space in SPACES[1:]]),
        reports.rule("lll" + "r" * (2 * len(SPACES) - 1))]
    for row in rows:
        network, arch, label = row["cell"].split("|")
        if network in HELD_OUT:
            network += " (*held out*)"
        cells = [f"{m:.3g} ({low:.2g}-{high:.2g})"
                 for m, low, high in (row["stats"][s] for s in SPACES)]
        lines.append(reports.row(
            [network, arch, label] + cells +
            [percent(row["change"][s]) for s in SPACES[1:]]))
    for space in SPACES[1:]:
        for label in labels:
            part = [r for r in rows if r["cell"].endswith(f"|{label}")]
            lower = sum(r["change"][space] < 0 for r in part)
            lines += ["", f"At {label}, `{space}`'s median network EDP "
                      f"is below the perfect space's in {lower} of "
                      f"{len(part)} cells."]
    lines += ["", "Ops that `auto` gave partial tiles, per cell (of the ops "
              "mapped): " + "; ".join(
                  f"{r['cell'].replace('|', ' ')}: {r['auto_partial']}"
                  for r in rows) + "."]
    lines += ["", "## Where the gain comes from", "",
              f"Per network and accelerator, at {labels[-1]} "
              "and seed 1: the ops whose EDP changed most from the perfect "
              "space to the imperfect one, and the loops the imperfect "
              "mapping tiles with a partial last tile (their bounds are in "
              "the op's loops, outermost first).", "",
              reports.row(["network", "arch", "op", "loops", "EDP change",
                           "partial loops"]),
              reports.rule("llllrl")]
    for (network, arch), ops in layers.items():
        for op in ops:
            lines.append(reports.row(
                [network, arch, op["op"], op["loops"], percent(op["change"]),
                 ", ".join(op["partial"]) or "none"]))
    if not singles:
        return "\n".join(lines) + "\n"
    lines += ["", "## Single layers with prime loops", "",
              f"`marlmap.search` with `marl` for {options.layer_seconds:g} s "
              "per layer and seed (one core), the median EDP (min-max) over "
              "the seeds.", "",
              reports.row(["layer", "arch"] + SPACES +
                          [f"{space} vs perfect" for space in SPACES[1:]]),
              reports.rule("ll" + "r" * (2 * len(SPACES) - 1))]
    for (layer, arch), per in singles.items():
        stats = {s: median_and_spread(per[s]) for s in SPACES}
        lines.append(reports.row(
            [f"{layer} `{PRIME_LAYERS[layer]}`", arch] +
            [f"{m:.3g} ({low:.2g}-{high:.2g})"
             for m, low, high in (stats[s] for s in SPACES)] +
            [percent(stats[s][0] / stats["perfect"][0] - 1.0)
             for s in SPACES[1:]]))
    return "\n".join(lines) + "\n"


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--networks", nargs="+",
                        default=["resnet50", "mobilenet_v2", "vgg16",
                                 "bert_base_encoder", "vit_b16"],
                        choices=list(NETWORKS) + list(HELD_OUT) +
                        list(AWKWARD))
    parser.add_argument("--archs", nargs="+",
                        default=["eyeriss", "simba", "systolic-ws"])
    parser.add_argument("--seconds", nargs="+", type=float, default=[4, 20])
    parser.add_argument("--samples", nargs="+", type=int,
                        help="samples per distinct problem instead of "
                        "seconds per network (no single layers then)")
    parser.add_argument("--layer-seconds", type=float, default=2)
    cli.add_seeds(parser, 3)
    cli.add_report_out(parser)
    options = parser.parse_args()
    load_seconds = policy_load_seconds()

    results, layers = {}, {}
    for network in options.networks:
        path, text = network_text(network)
        for arch in options.archs:
            for budget, label in budgets(options):
                key = f"{network}|{arch}|{label}"
                per = results[key] = {
                    space: [run(text, path.name, arch, space, budget, seed)
                            for seed in range(1, options.seeds + 1)]
                    for space in SPACES}
                mapped = {r["ops_mapped"] for runs in per.values()
                          for r in runs}
                if len(mapped) != 1:
                    raise SystemExit(f"{key}: the spaces mapped different "
                                     f"numbers of ops: {sorted(mapped)}")
                print(f"{key}: done", file=sys.stderr)
            last = results[f"{network}|{arch}|{budgets(options)[-1][1]}"]
            layers[(network, arch)] = layer_rows(last["perfect"][0],
                                                 last["imperfect"][0])
    singles = {}
    alone = {} if options.samples else PRIME_LAYERS
    for layer, shorthand in alone.items():
        for arch in options.archs:
            singles[(layer, arch)] = {
                space: [search_layer(shorthand, arch, space,
                                     options.layer_seconds, seed)
                        for seed in range(1, options.seeds + 1)]
                for space in SPACES}
    options.out.parent.mkdir(parents=True, exist_ok=True)
    reports.write_report(
        options.out,
        report(options, cell_rows(results), layers, singles, load_seconds),
        {"results": without_ops(results),
         "layers": {f"{n}|{a}": ops for (n, a), ops in layers.items()},
         "singles": {f"{l}|{a}": per for (l, a), per in singles.items()},
         "policy_load_seconds": load_seconds})


if __name__ == "__main__":
    main()
