"""Whole networks at equal samples: marl variants' median network EDP.

Runs `--marl-map` in-process (the marlmap module) with searcher=marl,
BUDGET samples per distinct problem, seeds 1 to 3, on ResNet-50, VGG16,
the BERT encoder and MobileNetV2 (or --networks) on `eyeriss` and `simba`,
once per CONFIG (NAME=OPTION=VALUE,...; NAME= for the defaults), and prints
each cell's median network EDP and wall time, then how many cells each
variant's median is below each other's.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.network_samples \\
        2000 marl= share8=policy-share=8
"""

import statistics
import time

import marlmap

from . import cli
from .workloads import COMPARED_FACTORS, HELD_OUT, NETWORKS, network_file

DEFAULT_NETWORKS = ["resnet50", "vgg16", "bert_base_encoder", "mobilenet_v2"]


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("budget", type=int)
    parser.add_argument("configs", nargs="+", metavar="CONFIG")
    cli.add_seeds(parser, 3)
    parser.add_argument("--networks", nargs="+", default=DEFAULT_NETWORKS,
                        choices=list(NETWORKS) + list(HELD_OUT))
    options = parser.parse_args()
    configs = {}
    for text in options.configs:
        name, _, rest = text.partition("=")
        settings = cli.settings(rest)
        if not name or settings is None:
            parser.error(f"'{text}' is not NAME=OPTION=VALUE,...")
        configs[name] = settings
    medians = {}
    for network in options.networks:
        text = network_file(network).read_text()
        for arch in ["eyeriss", "simba"]:
            cell = medians[f"{network}|{arch}"] = {}
            line = []
            for name, settings in configs.items():
                edps, walls = [], []
                for seed in range(1, options.seeds + 1):
                    start = time.perf_counter()
                    mapped = marlmap.map_module(
                        text, arch=arch, searcher="marl", options=settings,
                        budget=options.budget, seed=seed, name=network,
                        factors=COMPARED_FACTORS)
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
