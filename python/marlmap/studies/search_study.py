"""Iso-sample study of marlmap's searchers.

Runs every searcher over a layer set x presets x seeds with the marlmap
module, in-process, and writes REPORT.md (and PNG plots when matplotlib is
available) into --out:

  * the targets first: samples marl needs to reach sarl's final cost
    against sarl's own (the ratio sarl / marl), and on how many layers marl
    beats the best classical searcher at 2,000 samples;
  * cost at iso-samples for every searcher (median over seeds, min-max);
  * the gap to the best mapping any searcher found and to the model's lower
    bound;
  * the clustering ablations (marl with one agent per decision, marl with
    random clusters);
  * seconds per search.

A run that fails stops the study with its error.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.search_study \\
        --budget 10000 --seeds 5 --jobs 2 --out docs/study
"""

import concurrent.futures
import os
import pathlib
import statistics
import sys

import marlmap

from . import cli, reports
from .running import search_json
from .workloads import LAYERS

# name -> (searcher, its options as marlmap.searchers() names them)
SEARCHERS = {
    "random": ("random", {}),
    "genetic": ("genetic", {}),
    "annealing": ("annealing", {}),
    "sarl": ("sarl", {}),
    "sarl-factorised": ("sarl", {"policy-head": "factorised"}),
    "marl": ("marl", {}),
    "marl-per-decision": ("marl", {"agents": "per-decision"}),
    "marl-random-clusters": ("marl", {"agents": "random"}),
}
CLASSICAL = ["random", "genetic", "annealing"]
# Single-agent baselines marl's sample efficiency is measured against: the
# joint (autoregressive) one and the paper's factorised multi-discrete one.
SARLS = ["sarl", "sarl-factorised"]
# The paper's targets.
SAMPLES_RATIO_TARGET = 30
WIN_SHARE_TARGET = 0.8
WIN_AT = 2000


def best_at(curve, samples):
    """Best cost found within `samples` samples (inf if none yet)."""
    best = float("inf")
    for at, cost in curve:
        if at > samples:
            break
        best = cost
    return best


def samples_to(curve, target):
    """Samples needed to reach `target` (None if never)."""
    for at, cost in curve:
        if cost <= target:
            return at
    return None


def median(values):
    """Median with failed seeds (inf: no valid mapping) counted as worst."""
    return statistics.median(values)


def spread(values):
    """Median [min, max] of the seeds that found a mapping."""
    finite = [v for v in values if v != float("inf")]
    if not finite:
        return "-"
    return (f"{statistics.median(finite):.3g} "
            f"[{min(finite):.3g}, {max(finite):.3g}]")


def run(layer, preset, searcher, seed, budget, objective):
    return search_json(LAYERS[layer], preset, *SEARCHERS[searcher], budget,
                       seed, objective)


def run_all(args, presets, layers, searchers):
    """(preset, layer, searcher) -> [result per seed]."""
    tasks = [(preset, layer, searcher, seed) for preset in presets
             for layer in layers for searcher in searchers
             for seed in range(1, args.seeds + 1)]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = pool.map(lambda t: run(t[1], t[0], t[2], t[3], args.budget,
                                      args.objective), tasks)
        results = {}
        for (preset, layer, searcher, _), result in zip(tasks, done):
            results.setdefault((preset, layer, searcher), []).append(result)
            if len(results[(preset, layer, searcher)]) == args.seeds:
                finals = [best_at(r["curve"], args.budget)
                          for r in results[(preset, layer, searcher)]]
                print(f"{preset} {layer} {searcher}: {spread(finals)}",
                      file=sys.stderr, flush=True)
    return results


def samples_ratio(sarl_run, marl_run, budget):
    """(sarl's samples to its final cost, marl's, sarl / marl, whether marl
    got there); when marl does not within the budget its count is the budget,
    so the ratio is an upper bound."""
    target = best_at(sarl_run["curve"], budget)
    if target == float("inf"):
        return None
    sarl_n = samples_to(sarl_run["curve"], target)
    marl_n = samples_to(marl_run["curve"], target)
    reached = marl_n is not None
    marl_n = marl_n if reached else budget
    return sarl_n, marl_n, sarl_n / marl_n, reached


def plot(args, presets, layers, searchers, results):
    plt = reports.pyplot()
    if plt is None:
        print("matplotlib not found: no plots", file=sys.stderr)
        return []
    files = []
    xs = sorted(set(range(0, args.budget + 1, max(1, args.budget // 200)))
                | {1})
    for preset in presets:
        for layer in layers:
            fig, ax = plt.subplots(figsize=(6, 4))
            for name in searchers:
                curves = [[best_at(r["curve"], x) for x in xs]
                          for r in results[(preset, layer, name)]]
                med = [statistics.median(c[i] for c in curves)
                       for i in range(len(xs))]
                lo = [min(c[i] for c in curves) for i in range(len(xs))]
                hi = [max(c[i] for c in curves) for i in range(len(xs))]
                ax.plot(xs, med, label=name, linewidth=1)
                ax.fill_between(xs, lo, hi, alpha=0.12)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("samples")
            ax.set_ylabel(f"best {args.objective} so far")
            ax.set_title(f"{layer} on {preset} (median, min-max of "
                         f"{args.seeds} seeds)", fontsize=9)
            ax.legend(fontsize=7)
            fig.tight_layout()
            name = f"{preset}_{layer}.png"
            fig.savefig(args.out / name, dpi=90)
            plt.close(fig)
            files.append(name)
    return files


def package_path():
    """The PYTHONPATH entry of the marlmap package that runs the study,
    relative to the current folder when inside it (build/python from the
    top of the checkout)."""
    folder = pathlib.Path(os.path.abspath(marlmap.__file__)).parent.parent
    return (folder.relative_to(pathlib.Path.cwd())
            if folder.is_relative_to(pathlib.Path.cwd()) else folder)


def report(args, presets, layers, searchers, results, plots):
    iso = [s for s in map(int, args.iso.split(",")) if s <= args.budget]
    command = " ".join([
        f"PYTHONPATH={package_path()} python3 -m marlmap.studies.search_study",
        f"--budget {args.budget}", f"--seeds {args.seeds}",
        f"--presets {','.join(presets)}", f"--layers {','.join(layers)}",
        f"--searchers {','.join(searchers)}", f"--objective {args.objective}",
        f"--iso {args.iso}",
        f"--jobs {args.jobs}", f"--out {args.out}"])
    lines = [f"# Searcher study ({args.objective})", "",
             f"Made at commit {reports.commit()} with:", "", "```",
             command, "```", "",
             "Every sample counts against the budget, valid or not. Costs "
             "are medians over seeds with [min, max].", ""]

    def finals(preset, layer, name, at):
        return [best_at(r["curve"], at) for r in results[(preset, layer, name)]]

    def ratios_to(preset, layer, sarl):
        """samples_ratio per seed, for the seeds where `sarl` found one."""
        ratios = [samples_ratio(q, m, args.budget)
                  for q, m in zip(results[(preset, layer, sarl)],
                                  results[(preset, layer, "marl")])]
        return [r for r in ratios if r]

    cases = [(p, l) for p in presets for l in layers]
    key = {"latency": "cycles", "energy": "energy_pJ",
           "edp": "edp"}[args.objective]
    sarls = [q for q in SARLS if q in searchers] if "marl" in searchers else []
    summary = ["## Targets", ""]
    for sarl in sarls:
        per_case, seeds, unreached = [], 0, 0
        for preset, layer in cases:
            ratios = ratios_to(preset, layer, sarl)
            seeds += len(ratios)
            unreached += sum(not r[3] for r in ratios)
            if ratios:
                per_case.append(statistics.median(r[2] for r in ratios))
        if per_case:
            value = statistics.median(per_case)
            summary.append(
                f"- Samples marl needs to reach {sarl}'s final cost, as "
                f"{sarl}'s own count / marl's (median over seeds, then over "
                f"{len(per_case)} layer x preset cases): **{value:.2f}x** "
                f"(target {SAMPLES_RATIO_TARGET}x: "
                f"{'met' if value >= SAMPLES_RATIO_TARGET else 'missed'}); "
                f"on {unreached} of {seeds} seeds marl did not reach it "
                f"within the budget and counts as the budget (an upper "
                f"bound on the ratio).")
    classical = [c for c in CLASSICAL if c in searchers]
    if "marl" in searchers and classical and WIN_AT <= args.budget:
        wins = []
        for preset, layer in cases:
            marl = median(finals(preset, layer, "marl", WIN_AT))
            best = min(median(finals(preset, layer, c, WIN_AT))
                       for c in classical)
            wins.append(marl < best)
        share = sum(wins) / len(wins)
        summary.append(
            f"- marl's median cost after {WIN_AT} samples is lower than the "
            f"best of {', '.join(classical)} on **{sum(wins)} of {len(wins)}** "
            f"layer x preset cases ({share:.0%}; target "
            f"{WIN_SHARE_TARGET:.0%}: "
            f"{'met' if share >= WIN_SHARE_TARGET else 'missed'}).")
    for sarl in sarls:
        for s in iso:
            ratios = [q / m for preset, layer in cases
                      for q, m in zip(finals(preset, layer, sarl, s),
                                      finals(preset, layer, "marl", s))
                      if m not in (0, float("inf")) and q != float("inf")]
            summary.append(f"- Cost ratio {sarl} / marl after {s} samples, "
                           f"over layers and seeds: {spread(ratios)}.")
    lines += summary + [""]

    for preset in presets:
        lines += [f"## {preset}", ""]
        for s in iso:
            lines += [f"### Best {args.objective} after {s} samples", "",
                      reports.row(["layer"] + searchers),
                      reports.rule("l" + "r" * len(searchers))]
            for layer in layers:
                lines.append(reports.row(
                    [layer] + [spread(finals(preset, layer, n, s))
                               for n in searchers]))
            lines.append("")
        for sarl in sarls:
            lines += [f"### Samples to reach {sarl}'s final cost", "",
                      "Per seed; `>` where marl did not reach it within the "
                      "budget (counted as the budget, so the ratio is an "
                      "upper bound).", "",
                      reports.row(["layer", sarl, "marl", f"{sarl} / marl"]),
                      reports.rule("lrrr")]
            for layer in layers:
                ratios = ratios_to(preset, layer, sarl)
                missed = sum(not r[3] for r in ratios)
                lines.append(reports.row([
                    layer, spread([r[0] for r in ratios]),
                    spread([r[1] for r in ratios]) +
                    (f" ({missed} >)" if missed else ""),
                    spread([r[2] for r in ratios])]))
            lines.append("")
        lines += ["### Gaps at the full budget", "",
                  "Best mapping any searcher found, the model's lower bound "
                  "on the objective, and each searcher's median over the "
                  "best found.", "",
                  reports.row(["layer", "best found", "best / bound"] +
                              searchers),
                  reports.rule("lrr" + "r" * len(searchers))]
        for layer in layers:
            best = min(min(finals(preset, layer, n, args.budget))
                       for n in searchers)
            bound = results[(preset, layer, searchers[0])][0].get(
                "lower_bound", {}).get(key)
            gaps = [f"{median(finals(preset, layer, n, args.budget)) / best:.2f}"
                    for n in searchers]
            lines.append(reports.row(
                [layer, f"{best:.3g}",
                 f"{best / bound if bound else float('nan'):.2f}"] + gaps))
        lines.append("")

    lines += ["## Seconds per search", "",
              f"Median wall time of one search of {args.budget} samples "
              f"({args.jobs} searches ran side by side).", "",
              reports.row(["searcher", "seconds"]), reports.rule("lr")]
    for name in searchers:
        seconds = [r["seconds"] for (p, l, n), runs in results.items()
                   if n == name for r in runs]
        lines.append(reports.row([name, f"{statistics.median(seconds):.2f}"]))
    lines.append("")
    if plots:
        lines += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    (args.out / "REPORT.md").write_text("\n".join(lines))


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="folder for REPORT.md and the plots")
    parser.add_argument("--budget", type=int, default=10000)
    cli.add_seeds(parser, 5)
    parser.add_argument("--presets", default="eyeriss,simba")
    parser.add_argument("--layers", default=",".join(LAYERS))
    parser.add_argument("--searchers", default=",".join(SEARCHERS))
    parser.add_argument("--objective", default="edp",
                        choices=["latency", "energy", "edp"])
    parser.add_argument("--iso", default="500,2000,10000")
    cli.add_jobs(parser)
    args = parser.parse_args()
    presets = args.presets.split(",")
    layers = args.layers.split(",")
    searchers = args.searchers.split(",")
    for name, items, known in (("layer", layers, LAYERS),
                               ("searcher", searchers, SEARCHERS)):
        for item in items:
            if item not in known:
                parser.error(f"unknown {name} '{item}' (known: "
                             f"{', '.join(known)})")
    args.out.mkdir(parents=True, exist_ok=True)
    results = run_all(args, presets, layers, searchers)
    plots = plot(args, presets, layers, searchers, results)
    report(args, presets, layers, searchers, results, plots)


if __name__ == "__main__":
    main()
