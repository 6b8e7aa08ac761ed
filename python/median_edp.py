#!/usr/bin/env python3
"""Median best EDP of searcher configurations over seeds, per case.

Each case is LAYER@ARCH (a marlmap-explore --layer shorthand and a preset);
each config is NAME=ARGS (marlmap-explore arguments, quoted). Prints one
markdown row per case, one column per config:

    python3 python/median_edp.py --explore build/bin/marlmap-explore \\
        --budget 2000 --seeds 5 \\
        --case conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3,stride=1@eyeriss \\
        --config "genetic=--searcher genetic" --config "marl=--searcher marl"
"""

import argparse
import json
import pathlib
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from search_study import LAYERS  # noqa: E402


def best(explore, layer, arch, budget, seed, args):
    run = subprocess.run(
        [explore, "--layer", layer, "--arch", arch, "--budget", str(budget),
         "--seed", str(seed), "--objective", "edp", "--json", "-"] + args,
        capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"marlmap-explore failed on {layer}@{arch} "
                         f"{' '.join(args)}:\n{run.stderr}")
    return json.loads(run.stdout)["edp"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--explore", default="build/bin/marlmap-explore")
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--case", action="append", default=[])
    parser.add_argument("--study-cases", metavar="PRESETS",
                        help="also every layer of search_study.py on each "
                             "of these comma-separated presets")
    parser.add_argument("--config", action="append", required=True)
    options = parser.parse_args()
    if options.study_cases:
        options.case += [f"{layer}@{preset}"
                         for preset in options.study_cases.split(",")
                         for layer in LAYERS.values()]
    if not options.case:
        parser.error("give --case or --study-cases")
    configs = [config.split("=", 1) for config in options.config]
    print("| case | " + " | ".join(name for name, _ in configs) + " |")
    print("|---" * (len(configs) + 1) + "|")
    for case in options.case:
        layer, arch = case.rsplit("@", 1)
        medians = [statistics.median(
            best(options.explore, layer, arch, options.budget, seed,
                 shlex.split(args))
            for seed in range(1, options.seeds + 1)) for _, args in configs]
        print(f"| {case} | " + " | ".join(f"{m:.3g}" for m in medians) + " |",
              flush=True)


if __name__ == "__main__":
    main()
