#!/usr/bin/env python3
"""Whole networks at equal samples: marl variants' median network EDP.

Runs `--marl-map` in-process (the build's marlmap module, docs/Python.md)
with searcher=marl, BUDGET samples per distinct problem, seeds 1 to 3, on
ResNet-50, VGG16, the BERT encoder and MobileNetV2 (or --networks) on
`eyeriss` and `simba`, once per CONFIG (NAME=OPTION=VALUE,...; NAME= for the defaults),
and prints each cell's median network EDP and wall time, then how many
cells each variant's median is below each other's.

    /usr/bin/python3 python/network_samples.py 2000 marl= \\
        share8=policy-share=8
"""

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import network_race  # noqa: E402
import search_study  # noqa: E402

NETWORKS = ["resnet50", "vgg16", "bert_base_encoder", "mobilenet_v2"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("budget", type=int)
    parser.add_argument("configs", nargs="+", metavar="CONFIG")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--networks", nargs="+", default=NETWORKS,
                        choices=list(network_race.NETWORKS) +
                        list(network_race.HELD_OUT))
    parser.add_argument("--build", type=pathlib.Path)
    options = parser.parse_args()
    configs = {}
    for text in options.configs:
        name, _, rest = text.partition("=")
        settings = [s for s in rest.split(",") if s]
        if not name or any("=" not in s for s in settings):
            parser.error(f"'{text}' is not NAME=OPTION=VALUE,...")
        configs[name] = dict(s.split("=", 1) for s in settings)
    search_study.import_marlmap(options.build)
    marlmap = search_study.marlmap
    medians = {}
    for network in options.networks:
        text = (network_race.NETWORKS.get(network) or
                network_race.HELD_OUT[network]).read_text()
        for arch in ["eyeriss", "simba"]:
            cell = medians[f"{network}|{arch}"] = {}
            line = []
            for name, settings in configs.items():
                edps, walls = [], []
                for seed in range(1, options.seeds + 1):
                    start = time.perf_counter()
                    mapped = marlmap.map_module(
                        text, arch=arch, searcher="marl", options=settings,
                        budget=options.budget, seed=seed, name=network)
                    walls.append(time.perf_counter() - start)
                    edps.append(mapped.report["totals"]["edp"])
                cell[name] = statistics.median(edps)
                line.append(f"{name} {cell[name]:.3g} "
                            f"({statistics.median(walls):.1f} s)")
            print(f"{network}|{arch}: " + "  ".join(line), flush=True)
    for a in configs:
        for b in configs:
            if a != b:
                below = sum(cell[a] < cell[b] for cell in medians.values())
                print(f"{a} below {b}: {below} of {len(medians)}")


if __name__ == "__main__":
    main()
