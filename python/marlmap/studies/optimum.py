"""Where every searcher stands against the proven optimum.

The exact searcher (`optimal`) proves the least EDP of a map space, or
certifies a lower bound when its time runs out. This study measures every
other searcher's distance from that limit, in-process with the marlmap
module, and writes REPORT (Markdown) and its JSON:

  * layers (the study's ten on each accelerator): the optimum, or the best
    EDP any run found and the certified bound; each searcher's gap at each
    time per layer (median over the seeds, min-max), and marl's 2% target
    at 1 s (seed 1);
  * Timeloop's mapper on its own reference rows (architecture, problem and
    mapspace constraints of ../shared/reference/timeloop): the gap of the
    lowest EDP of its three runs;
  * whole networks on each accelerator: each searcher's network EDP at each
    time per network over the network EDP of the ops' optima, and marl's 5%
    target at 4 s.

A gap is EDP / optimum - 1. Where the optimum is not proved it is measured
against the best EDP found by any run of the study, so it is a floor: the
true gap lies between it and the gap to the certified bound (both are in
the JSON). A run below a proven optimum stops the study: the proof would be
wrong. Layer and Timeloop searches run --jobs at a time, one thread each;
network runs one at a time on every core. Every measurement is saved as it
is made into REPORT's .runs.json, which --resume reads back.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.optimum \\
        --jobs 2 --out docs/study/OPTIMUM.md
"""

import concurrent.futures
import json
import math
import pathlib
import statistics
import sys
import tempfile
import threading
import time

import marlmap

from . import cli, paths, reports
from .running import policy_load_seconds
from .timeloop_race import case_inputs, load_cases
from .workloads import COMPARED_FACTORS, LAYERS, network_file

SEARCHERS = ["random", "genetic", "annealing", "sarl", "marl", "marl-polish"]
NETWORKS = ["resnet50", "vgg16", "mobilenet_v2", "bert_base_encoder"]
# Item targets: marl within 2% of a layer's optimum at 1 s per layer, within
# 5% of the optimal network EDP at 4 s per network.
LAYER_TARGET = (0.02, 1.0)
NETWORK_TARGET = (0.05, 4.0)
# Relative slack under which an EDP below a proven optimum is rounding.
ROUNDING = 1e-9


class Runs:
    """Every measurement by key, saved to `path` after each one so that an
    interrupted study resumes where it stopped (with the same options).
    Each records the commit that measured it."""

    def __init__(self, path, resume, commit="(unknown)"):
        self.path = path
        self.runs = (json.loads(path.read_text())
                     if resume and path.is_file() else {})
        self.commit = commit
        self.lock = threading.Lock()

    def get(self, key, measure):
        with self.lock:
            if key in self.runs:
                return self.runs[key]
        result = dict(measure(), commit=self.commit)
        with self.lock:
            self.runs[key] = result
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.runs, indent=0))
        print(f"{key}: done", file=sys.stderr, flush=True)
        return result

    def all(self, jobs, keyed):
        """Measures every (key, measure) of `keyed`, `jobs` at a time. The
        first measurement that fails stops the study: those not started
        are dropped (the ones done are kept in the runs file)."""
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            futures = [pool.submit(self.get, key, measure)
                       for key, measure in keyed]
            done, _ = concurrent.futures.wait(
                futures, return_when=concurrent.futures.FIRST_EXCEPTION)
            failed = [future for future in futures
                      if future in done and future.exception() is not None]
            if failed:
                pool.shutdown(wait=True, cancel_futures=True)
                failed[0].result()


def search(problem, arch, searcher, seconds, seed):
    """One search (the GIL is released while it runs): its EDP (None when
    nothing valid was found), proof, bound and seconds."""
    start = time.perf_counter()
    found = marlmap.search(problem, arch, searcher=searcher, time=seconds,
                           seed=seed, factors=COMPARED_FACTORS)
    figures = found.figures
    return {"edp": figures["edp"] if found.found else None,
            "proved": figures["proved_optimal"],
            "bound": figures["objective_lower_bound"],
            "seconds": time.perf_counter() - start}


def reference(exact, edps, what):
    """What gaps are measured against: the proven optimum, or the best EDP
    of any run, with the certified bound."""
    found = [edp for edp in edps + [exact["edp"]] if edp is not None]
    best = min(found, default=math.inf)
    if exact["proved"] and best < exact["edp"] * (1 - ROUNDING):
        raise SystemExit(f"{what}: a run found EDP {best:.6g}, below the "
                         f"proven optimum {exact['edp']:.6g}")
    return {"proved": exact["proved"],
            "best": exact["edp"] if exact["proved"] else best,
            "bound": exact["bound"]}


def finite(data):
    """`data` with every infinite gap (no valid mapping found) as None, for
    strict JSON."""
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, list):
        return [finite(value) for value in data]
    return None if isinstance(data, float) and math.isinf(data) else data


def gap(edp, ref):
    """How far `edp` is above the reference (infinite when either is
    missing: nothing valid found)."""
    if edp is None or math.isinf(ref["best"]):
        return math.inf
    return edp / ref["best"] - 1


def percent(value):
    # + 0.0 turns a rounded -0.0 (a gap a rounding below zero) into 0.0.
    return ("none" if math.isinf(value) else
            f"{round(100 * value, 1) + 0.0:.1f}%")


def gap_cell(gaps):
    """Median gap over the seeds (min-max)."""
    if len(gaps) == 1:
        return percent(gaps[0])
    return (f"{percent(statistics.median(gaps))} "
            f"({percent(min(gaps))}-{percent(max(gaps))})")


def proof_cells(ref):
    """The optimum (or best found), the bound and how far apart they are."""
    return [("proved" if ref["proved"] else "no"), f"{ref['best']:.4g}",
            f"{ref['bound']:.4g}", percent(ref["best"] / ref["bound"] - 1)]


# Layers

def layer_keys(options):
    """Every layer measurement: the exact search and every searcher's."""
    keyed = []
    for name in options.layers:
        problem = marlmap.layer(LAYERS[name])
        for arch_name in options.archs:
            arch = marlmap.arch(arch_name)
            case = f"layer|{name}|{arch_name}"
            keyed.append((f"{case}|optimal", lambda p=problem, a=arch:
                          search(p, a, "optimal", options.prove_seconds, 1)))
            for searcher in options.searchers:
                for seconds in options.seconds:
                    for seed in range(1, options.seeds + 1):
                        keyed.append((
                            f"{case}|{searcher}|{seconds:g}|{seed}",
                            lambda p=problem, a=arch, s=searcher, t=seconds,
                            r=seed: search(p, a, s, t, r)))
    return keyed


def layer_results(options, runs):
    """Per case: the reference and each searcher's gaps per time."""
    cases = []
    for name in options.layers:
        for arch in options.archs:
            case = f"layer|{name}|{arch}"
            edps = {(s, t): [runs[f"{case}|{s}|{t:g}|{seed}"]["edp"]
                             for seed in range(1, options.seeds + 1)]
                    for s in options.searchers for t in options.seconds}
            ref = reference(runs[f"{case}|optimal"],
                            [e for v in edps.values() for e in v],
                            f"{name} on {arch}")
            cases.append({
                "layer": name, "arch": arch, "reference": ref,
                "optimal_seconds": runs[f"{case}|optimal"]["seconds"],
                "gaps": {f"{s}|{t:g}": [gap(e, ref) for e in edps[(s, t)]]
                         for (s, t) in edps},
                "gaps_to_bound": {
                    f"{s}|{t:g}": [math.inf if e is None else
                                   e / ref["bound"] - 1 for e in edps[(s, t)]]
                    for (s, t) in edps}})
    return cases


def layer_report(options, cases):
    lines = ["## Layers", "",
             f"The exact searcher ran {options.prove_seconds:g} s per case. "
             "*best* is the optimum where it is proved, otherwise the best "
             "EDP of any run of the study; *bound* is the certified lower "
             "bound (pJ x cycles).", "",
             reports.row(["layer", "arch", "optimum", "best", "bound",
                          "best / bound - 1", "exact search s"]),
             reports.rule("lllrrrr")]
    for case in cases:
        lines.append(reports.row([case["layer"], case["arch"]] +
                                 proof_cells(case["reference"]) +
                                 [f"{case['optimal_seconds']:.1f}"]))
    proved = sum(case["reference"]["proved"] for case in cases)
    lines += ["", f"Proved: {proved} of {len(cases)} cases.", ""]
    for seconds in options.seconds:
        lines += [f"### Gaps at {seconds:g} s per layer", "",
                  f"Median over {options.seeds} seeds (min-max); a case "
                  "marked * has no proof, its gaps are floors.", "",
                  reports.row(["case"] + options.searchers),
                  reports.rule("l" + "r" * len(options.searchers))]
        for case in cases:
            mark = "" if case["reference"]["proved"] else " *"
            lines.append(reports.row(
                [f"{case['layer']} on {case['arch']}{mark}"] +
                [gap_cell(case["gaps"][f"{s}|{seconds:g}"])
                 for s in options.searchers]))
        medians = [statistics.median(
            statistics.median(case["gaps"][f"{s}|{seconds:g}"])
            for case in cases) for s in options.searchers]
        lines += [reports.row(["median over cases"] +
                              [percent(m) for m in medians]), ""]
    return lines + layer_target(options, cases)


def layer_target(options, cases):
    """marl's seed-1 run at the target time: within the target of the
    optimum for sure (below 1.02 x the bound), perhaps (only of the best
    found), or not."""
    within, seconds = LAYER_TARGET
    key = f"marl|{seconds:g}"
    if "marl" not in options.searchers or seconds not in options.seconds:
        return []
    sure = perhaps = 0
    for case in cases:
        sure += case["gaps_to_bound"][key][0] <= within
        perhaps += case["gaps"][key][0] <= within
    verdict = "met" if sure >= 0.9 * len(cases) else "missed"
    return [f"**Target** (marl, seed 1, {seconds:g} s per layer, within "
            f"{within:.0%} of the optimum on at least 90% of cases): "
            f"{sure} of {len(cases)} proved within it, {perhaps - sure} more "
            f"within it of the best EDP found but not of the bound; "
            f"{verdict}.", ""]


# Timeloop's rows

def timeloop_keys(options, cases, folder):
    keyed = []
    for case in cases:
        problem, arch = case_inputs(case, folder)
        keyed.append((f"timeloop|{case['name']}", lambda p=problem, a=arch:
                      search(p, a, "optimal", options.prove_seconds, 1)))
    return keyed


def timeloop_report(options, cases, runs):
    lines = ["## Timeloop's mapper on its reference rows", "",
             "Each row of `../shared/reference/timeloop/mapper-anchors.csv` "
             "(Timeloop v3.0.3's hybrid mapper, its architecture, problem and "
             "mapspace constraints), searched by the exact searcher for "
             f"{options.prove_seconds:g} s on the same inputs. Timeloop's EDP "
             "is the lowest of its three runs; marlmap's model reproduces "
             "Timeloop's on every reference case, so the figures compare. "
             "Where the optimum is not proved, Timeloop's gap lies between "
             "the two figures given.", "",
             reports.row(["row", "optimum", "best", "bound", "exact search s",
                          "Timeloop EDP", "Timeloop's gap"]),
             reports.rule("llrrrrr")]
    gaps = []
    for case in cases:
        exact = runs[f"timeloop|{case['name']}"]
        # Timeloop's mapping is one of the space's: the best found is at
        # most its EDP.
        ref = reference(exact, [case["edp"]], case["name"])
        low = case["edp"] / ref["best"] - 1
        if ref["proved"]:
            gaps.append(low)
            cell = percent(low)
        else:
            cell = f"{percent(low)} to {percent(case['edp'] / ref['bound'] - 1)}"
        lines.append(reports.row(
            [case["name"], "proved" if ref["proved"] else "no",
             f"{ref['best']:.4g}", f"{ref['bound']:.4g}",
             f"{exact['seconds']:.1f}", f"{case['edp']:.4g}", cell]))
    if gaps:
        lines += ["", f"On the {len(gaps)} proved rows Timeloop's mapper is "
                  f"{percent(statistics.median(gaps))} above the optimum "
                  f"(median; {percent(min(gaps))} to {percent(max(gaps))}); "
                  f"within 2% on {sum(g <= 0.02 for g in gaps)}."]
    return lines + [""]


# Networks

def op_key(op, seen):
    """`location|name|n` for the n-th op of the report with that location
    and name (`seen` counts them): the same op has the same key in every
    run of a network, whichever other ops a run left unmapped."""
    pair = f"{op['location']}|{op['op']}"
    seen[pair] = seen.get(pair, 0) + 1
    return f"{pair}|{seen[pair]}"


def map_network(text, name, arch, searcher, seconds, seed):
    """One --marl-map run: per op it mapped (by location and name, and
    which time the pair occurs: a module called twice, as a network's
    shared ReLU, gives two ops one location; an op left unmapped shifts no
    other op's key) its EDP, energy, cycles, proof and bound; the
    network's EDP, whether every op was mapped, and the wall time."""
    start = time.perf_counter()
    report = marlmap.map_module(text, arch=arch, searcher=searcher,
                                time=seconds, seed=seed, name=name,
                                factors=COMPARED_FACTORS).report
    wall = time.perf_counter() - start
    seen = {}
    ops = {op_key(op, seen): {
        "edp": op["edp"], "energy": op["energy_pJ"], "cycles": op["cycles"],
        "proved": op["proved_optimal"], "bound": op["objective_lower_bound"]}
        for op in report["ops"]}
    totals = report["totals"]
    if not math.isclose(sum(op["energy"] for op in ops.values()),
                        totals["energy_pJ"], rel_tol=1e-6):
        raise SystemExit(f"{name} on {arch}: the report's total energy is "
                         "not the sum of its ops'")
    return {"ops": ops, "edp": totals["edp"], "seconds": wall,
            "not_mapped": totals["ops_not_mapped"]}


def network_keys(options):
    keyed = []
    for network in options.networks:
        path = (pathlib.Path(network) if network.endswith(".mlir")
                else network_file(network))
        text = path.read_text()
        for arch in options.network_archs:
            cell = f"network|{network}|{arch}"
            keyed.append((f"{cell}|optimal", lambda t=text, n=path.name,
                          a=arch: map_network(t, n, a, "optimal",
                                              options.network_prove_seconds,
                                              1)))
            for searcher in options.searchers:
                for seconds in options.network_seconds:
                    for seed in range(1, options.network_seeds + 1):
                        keyed.append((
                            f"{cell}|{searcher}|{seconds:g}|{seed}",
                            lambda t=text, n=path.name, a=arch, s=searcher,
                            w=seconds, r=seed: map_network(t, n, a, s, w, r)))
    return keyed


def network_reference(exact, others, what):
    """The network EDP of every op at its optimum (at the best mapping any
    run found where the exact search did not prove one), the ops proved,
    and a bound no mapping of the network beats: network EDP is total
    energy x total cycles, at least (sum of sqrt(op EDP))^2 by
    Cauchy-Schwarz, so at least (sum of sqrt(op EDP bound))^2. The ops
    are those any run mapped. Each op at its least EDP need not give the
    least network EDP (an op can trade energy for cycles), so a run may
    come out below the reference; never below the bound."""
    keys = {key for run in [exact] + others for key in run["ops"]}
    energy = cycles = root_bounds = 0.0
    proved = 0
    for key in sorted(keys):
        mine = exact["ops"].get(key)
        runs = [run["ops"][key] for run in others if key in run["ops"]]
        if mine is not None:
            reference(mine, [op["edp"] for op in runs], f"{what}, {key}")
            proved += mine["proved"]
        best = (mine if mine is not None and mine["proved"] else
                min(runs + ([mine] if mine else []),
                    key=lambda op: op["edp"]))
        energy += best["energy"]
        cycles += best["cycles"]
        # Every run's bound holds (the exact search's is the highest).
        root_bounds += math.sqrt(max(op["bound"] for op in
                                     runs + ([mine] if mine else [])))
    return {"edp": energy * cycles, "bound": root_bounds ** 2,
            "proved": proved, "ops": len(keys)}


def network_gaps(run, ref):
    """A run's network EDP over the reference and over the bound - 1;
    infinite when it left an op unmapped that another run mapped."""
    if len(run["ops"]) < ref["ops"]:
        return math.inf, math.inf
    return run["edp"] / ref["edp"] - 1, run["edp"] / ref["bound"] - 1


def network_results(options, runs):
    cells = []
    for network in options.networks:
        for arch in options.network_archs:
            cell = f"network|{network}|{arch}"
            others = {f"{s}|{t:g}|{seed}": runs[f"{cell}|{s}|{t:g}|{seed}"]
                      for s in options.searchers
                      for t in options.network_seconds
                      for seed in range(1, options.network_seeds + 1)}
            ref = network_reference(runs[f"{cell}|optimal"],
                                    list(others.values()),
                                    f"{network} on {arch}")
            gaps = {f"{s}|{t:g}": [
                network_gaps(others[f"{s}|{t:g}|{seed}"], ref)
                for seed in range(1, options.network_seeds + 1)]
                for s in options.searchers for t in options.network_seconds}
            cells.append({
                "network": network, "arch": arch, "reference": ref,
                "gaps": {key: [g[0] for g in pairs]
                         for key, pairs in gaps.items()},
                "gaps_to_bound": {key: [g[1] for g in pairs]
                                  for key, pairs in gaps.items()}})
    return cells


def network_report(options, cells):
    head = [f"{s} {t:g} s" for t in options.network_seconds
            for s in options.searchers]
    lines = ["## Whole networks", "",
             "Network EDP is total energy x total cycles, the ops run one "
             "after another. The reference is the network EDP of every op at "
             "its optimum, found by the exact searcher on the whole network "
             f"in {options.network_prove_seconds:g} s (both cores); an op it "
             "did not prove takes the best mapping any run found. Each op at "
             "its least EDP need not give the least network EDP (an op may "
             "trade energy for cycles), so a searcher can come out below the "
             "reference (a negative gap). *bound* is (sum over ops of "
             "sqrt(op EDP bound))^2, by Cauchy-Schwarz below every mapping "
             "of the network. Gaps are each searcher's network EDP (time for "
             "the whole network, both cores; "
             f"{options.network_seeds} seed(s), median (min-max)) over the "
             "reference; *none*: a run left an op unmapped.", "",
             reports.row(["network", "arch", "ops proved", "reference EDP",
                          "bound"] + head),
             reports.rule("lllrr" + "r" * len(head))]
    for cell in cells:
        ref = cell["reference"]
        lines.append(reports.row(
            [cell["network"], cell["arch"], f"{ref['proved']}/{ref['ops']}",
             f"{ref['edp']:.4g}", f"{ref['bound']:.4g}"] +
            [gap_cell(cell["gaps"][f"{s}|{t:g}"])
             for t in options.network_seconds for s in options.searchers]))
    within, seconds = NETWORK_TARGET
    key = f"marl|{seconds:g}"
    if cells and key in cells[0]["gaps"]:
        met = sum(cell["gaps"][key][0] <= within for cell in cells)
        sure = sum(cell["gaps_to_bound"][key][0] <= within for cell in cells)
        lines += ["", f"**Target** (marl, seed 1, {seconds:g} s per network, "
                  f"within {within:.0%} of the reference): {met} of "
                  f"{len(cells)} cells ({sure} within {within:.0%} of the "
                  "bound)."]
    return lines + [""]


def parse(argv=None):
    parser = cli.parser(__doc__)
    parser.add_argument("--layers", nargs="+", default=list(LAYERS),
                        choices=list(LAYERS))
    cli.add_archs(parser)
    parser.add_argument("--network-archs", nargs="+",
                        default=["eyeriss", "simba", "systolic-ws"])
    parser.add_argument("--networks", nargs="+", default=NETWORKS,
                        help="names of marlmap.studies.workloads or .mlir "
                             "files")
    parser.add_argument("--searchers", nargs="+", default=SEARCHERS)
    parser.add_argument("--seconds", nargs="+", type=float,
                        default=[0.1, 1, 10], help="times per layer")
    parser.add_argument("--network-seconds", nargs="+", type=float,
                        default=[1, 4, 20], help="times per network")
    cli.add_seeds(parser, 3)
    parser.add_argument("--network-seeds", type=int, default=1)
    parser.add_argument("--prove-seconds", type=float, default=60,
                        help="the exact searcher's time per layer and row")
    parser.add_argument("--network-prove-seconds", type=float, default=120,
                        help="the exact searcher's time per network")
    parser.add_argument("--reference", type=pathlib.Path,
                        default=paths.TIMELOOP_REFERENCE,
                        help="Timeloop's runs (none there: no such part)")
    parser.add_argument("--parts", nargs="+",
                        default=["layers", "timeloop", "networks"],
                        choices=["layers", "timeloop", "networks"])
    cli.add_jobs(parser)
    parser.add_argument("--resume", action="store_true",
                        help="keep the measurements REPORT's .runs.json "
                             "holds from an earlier run of the same study, "
                             "with the same options")
    cli.add_report_out(parser)
    return parser.parse_args(argv)


def main(argv=None):
    options = parse(argv)
    runs = Runs(options.out.with_suffix(".runs.json"), options.resume,
                reports.commit())
    load_seconds = policy_load_seconds()
    lines = ["# Where every searcher stands against the proven optimum", "",
             reports.written_by("marlmap.studies.optimum", argv,
                                unmeasured=["--resume"]), "",
             "Gaps are EDP / optimum - 1, the same cost model and map space "
             "for every searcher. The policy library loaded once before the "
             f"first learned search ({load_seconds:.2f} s, not counted). "
             f"{options.jobs} layer searches ran side by side, one thread "
             "each.", ""]
    data = {}
    if "layers" in options.parts:
        runs.all(options.jobs, layer_keys(options))
        cases = layer_results(options, runs.runs)
        lines += layer_report(options, cases)
        data["layers"] = cases
    timeloop = (load_cases(options.reference, [])
                if "timeloop" in options.parts and
                (options.reference / "mapper-anchors.csv").is_file() else [])
    if timeloop:
        with tempfile.TemporaryDirectory() as scratch:
            runs.all(options.jobs,
                     timeloop_keys(options, timeloop, pathlib.Path(scratch)))
        lines += timeloop_report(options, timeloop, runs.runs)
        data["timeloop"] = {case["name"]: runs.runs[f"timeloop|{case['name']}"]
                            for case in timeloop}
    if "networks" in options.parts:
        runs.all(1, network_keys(options))
        cells = network_results(options, runs.runs)
        lines += network_report(options, cells)
        data["networks"] = cells
    commits = {}
    for run in runs.runs.values():
        commits[run.get("commit", "(unknown)")] = \
            commits.get(run.get("commit", "(unknown)"), 0) + 1
    lines += ["Measured at commit " + ", ".join(
        f"{commit} ({count} runs)" for commit, count in commits.items()) +
        " (a `-dirty` commit had uncommitted changes).", ""]
    reports.write_report(options.out, "\n".join(lines), finite(data))


if __name__ == "__main__":
    main()
