#!/usr/bin/env python3
"""Iso-sample study of marlmap's searchers.

Runs every searcher over a layer set x presets x seeds with
build/bin/marlmap-explore and writes REPORT.md (and PNG plots when
matplotlib is available) into --out:

  * cost at iso-samples for every searcher (median over seeds, min-max);
  * samples-to-target: samples each searcher needs to reach sarl's final
    cost (per seed), and the ratio sarl / marl;
  * the gap to the best mapping any searcher found and to the model's lower
    bound;
  * the clustering ablations (marl with one agent per decision, marl with
    random clusters).

    python3 python/search_study.py --explore build/bin/marlmap-explore \\
        --budget 10000 --seeds 5 --out docs/study
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

LAYERS = {
    "resnet50_conv1": "conv:N=1,K=64,C=3,P=112,Q=112,R=7,S=7,stride=2",
    "resnet50_res2_1x1": "conv:N=1,K=256,C=64,P=56,Q=56,R=1,S=1",
    "resnet50_res2_3x3": "conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3",
    "resnet50_res5_3x3": "conv:N=1,K=512,C=512,P=7,Q=7,R=3,S=3",
    "vgg16_conv1_1": "conv:N=1,K=64,C=3,P=224,Q=224,R=3,S=3",
    "vgg16_conv3_2": "conv:N=1,K=256,C=256,P=56,Q=56,R=3,S=3",
    "mbv2_dw3x3_144": "dwconv:N=1,C=144,P=56,Q=56,R=3,S=3",
    "mbv2_pw_144_24": "conv:N=1,K=24,C=144,P=56,Q=56,R=1,S=1",
    "bert_base_qkv": "gemm:M=512,N=768,K=768",
    "bert_base_ffn1": "gemm:M=512,N=3072,K=768",
}

# name -> extra marlmap-explore arguments
SEARCHERS = {
    "random": ["--searcher", "random"],
    "genetic": ["--searcher", "genetic"],
    "annealing": ["--searcher", "annealing"],
    "sarl": ["--searcher", "sarl"],
    "marl": ["--searcher", "marl"],
    "marl-per-decision": ["--searcher", "marl", "--agents", "per-decision"],
    "marl-random-clusters": ["--searcher", "marl", "--agents", "random"],
}


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


def spread(values):
    finite = [v for v in values if v is not None and v != float("inf")]
    if not finite:
        return "-"
    return (f"{statistics.median(finite):.3g} "
            f"[{min(finite):.3g}, {max(finite):.3g}]")


def run(explore, layer, preset, searcher, seed, budget, objective):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([explore, "--layer", layer, "--arch", preset,
                        *SEARCHERS[searcher], "--budget", str(budget),
                        "--seed", str(seed), "--objective", objective,
                        "--json", out.name], check=False,
                       capture_output=True)
        text = pathlib.Path(out.name).read_text()
    return json.loads(text) if text else {"curve": [], "seconds": 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--explore", required=True)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--budget", type=int, default=10000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--presets", default="eyeriss,simba")
    parser.add_argument("--layers", default=",".join(LAYERS))
    parser.add_argument("--searchers", default=",".join(SEARCHERS))
    parser.add_argument("--objective", default="edp")
    parser.add_argument("--iso", default="500,2000,10000")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    presets = args.presets.split(",")
    layers = args.layers.split(",")
    searchers = args.searchers.split(",")
    iso = [s for s in map(int, args.iso.split(",")) if s <= args.budget]

    results = {}  # (preset, layer, searcher) -> [run per seed]
    for preset in presets:
        for layer in layers:
            for searcher in searchers:
                runs = [run(args.explore, LAYERS[layer], preset, searcher,
                            seed, args.budget, args.objective)
                        for seed in range(1, args.seeds + 1)]
                results[(preset, layer, searcher)] = runs
                print(f"{preset} {layer} {searcher}: "
                      f"{spread([best_at(r['curve'], args.budget) for r in runs])}",
                      file=sys.stderr)

    lines = [f"# Searcher study ({args.objective})", "",
             "Command:", "", "```",
             " ".join(["python3 python/search_study.py",
                       f"--explore {args.explore}", f"--budget {args.budget}",
                       f"--seeds {args.seeds}", f"--presets {args.presets}",
                       f"--layers {args.layers}",
                       f"--searchers {args.searchers}",
                       f"--objective {args.objective}",
                       f"--out {args.out}"]), "```", "",
             "Costs are medians over seeds with [min, max]; every sample counts,",
             "valid or not.", ""]
    ratios_iso = {s: [] for s in iso}
    ratios_samples = []
    for preset in presets:
        lines += [f"## {preset}", ""]
        for s in iso:
            lines += [f"### Best {args.objective} after {s} samples", "",
                      "| layer | " + " | ".join(searchers) + " |",
                      "|---|" + "---:|" * len(searchers)]
            for layer in layers:
                cells = [spread([best_at(r["curve"], s) for r in
                                 results[(preset, layer, name)]])
                         for name in searchers]
                lines.append(f"| {layer} | " + " | ".join(cells) + " |")
                if "marl" in searchers and "sarl" in searchers:
                    marl = [best_at(r["curve"], s)
                            for r in results[(preset, layer, "marl")]]
                    sarl = [best_at(r["curve"], s)
                            for r in results[(preset, layer, "sarl")]]
                    for m, q in zip(marl, sarl):
                        if m not in (0, float("inf")) and q != float("inf"):
                            ratios_iso[s].append(q / m)
            lines.append("")
        if "marl" in searchers and "sarl" in searchers:
            lines += ["### Samples to reach sarl's final cost (per seed)", "",
                      "| layer | sarl | marl | sarl / marl | best found | "
                      "x lower bound |", "|---|---:|---:|---:|---:|---:|"]
            for layer in layers:
                sarl_runs = results[(preset, layer, "sarl")]
                marl_runs = results[(preset, layer, "marl")]
                sarl_n, marl_n, ratio = [], [], []
                for q, m in zip(sarl_runs, marl_runs):
                    target = best_at(q["curve"], args.budget)
                    if target == float("inf"):
                        continue
                    a, b = samples_to(q["curve"], target), samples_to(
                        m["curve"], target)
                    sarl_n.append(a)
                    marl_n.append(b if b is not None else float("inf"))
                    if b:
                        ratio.append(a / b)
                        ratios_samples.append(a / b)
                everything = [best_at(r["curve"], args.budget)
                              for name in searchers
                              for r in results[(preset, layer, name)]]
                best = min(everything)
                bound = next((r["lower_bound"][args.objective if
                              args.objective != "latency" else "cycles"]
                              for r in sarl_runs if "lower_bound" in r), None)
                lines.append(
                    f"| {layer} | {spread(sarl_n)} | {spread(marl_n)} | "
                    f"{spread(ratio)} | {best:.3g} | "
                    f"{best / bound if bound else float('nan'):.2f} |")
            lines.append("")
    if ratios_samples or any(ratios_iso.values()):
        lines += ["## Overall", "",
                  f"- samples-to-target ratio sarl / marl, median over layers "
                  f"and seeds: {spread(ratios_samples)}"]
        for s in iso:
            lines.append(f"- cost ratio sarl / marl after {s} samples: "
                         f"{spread(ratios_iso[s])}")
        lines.append("")
    (args.out / "REPORT.md").write_text("\n".join(lines))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not found: no plots", file=sys.stderr)
        return
    for preset in presets:
        for layer in layers:
            fig, ax = plt.subplots(figsize=(6, 4))
            xs = sorted({x for x in range(0, args.budget + 1,
                                          max(1, args.budget // 100))} | {1})
            for name in searchers:
                runs = results[(preset, layer, name)]
                curves = [[best_at(r["curve"], x) for x in xs] for r in runs]
                med = [statistics.median(c[i] for c in curves)
                       for i in range(len(xs))]
                lo = [min(c[i] for c in curves) for i in range(len(xs))]
                hi = [max(c[i] for c in curves) for i in range(len(xs))]
                ax.plot(xs, med, label=name)
                ax.fill_between(xs, lo, hi, alpha=0.15)
            ax.set_yscale("log")
            ax.set_xlabel("samples")
            ax.set_ylabel(f"best {args.objective} so far")
            ax.set_title(f"{layer} on {preset}")
            ax.legend(fontsize=7)
            fig.tight_layout()
            fig.savefig(args.out / f"{preset}_{layer}.png", dpi=90)
            plt.close(fig)


if __name__ == "__main__":
    main()
