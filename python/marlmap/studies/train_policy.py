"""Trains marl's agents on whole networks and writes a policy-weights file.

For each accelerator, runs `--marl-map` with marl (in process, through the
marlmap module) on every training network in order, `--rounds` times over
the list: each run starts its agents from the file the last run wrote
(`policy-weights`) and writes what they learnt, with the agents it did not
use, to the next (`policy-save`). The file ends
up holding, for each accelerator, op kind and decision, the agent last
trained on it; `--marl-map="searcher=marl policy-weights=FILE"` starts from
it (docs/Search.md, "Pretrained agents").

Budgets are in samples per distinct problem, not seconds, so the file
depends on the networks, the accelerators, the options and the seed alone:
the same command writes the same file on any machine and thread count.

The default training set is the networks of examples/ and
../shared/corpus. The held-out networks of benchmarks/heldout are never
trained on: they are what trained agents are checked on.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.train_policy \\
        --archs eyeriss simba --out /tmp/marl-eyeriss-simba.txt
"""

import pathlib
import shutil
import sys
import tempfile
import time

import marlmap

from . import cli
from .workloads import COMPARED_FACTORS, TRAINING


def train(networks, archs, rounds, samples, seed, options, out,
          log=sys.stderr):
    """Runs the chain of trainings and writes `out`; returns the runs'
    (network, arch, round, seconds)."""
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        last = None
        step = 0
        for arch in archs:
            for round_ in range(rounds):
                for path in networks:
                    step += 1
                    saved = pathlib.Path(folder) / f"step{step}.txt"
                    run_options = dict(options, **{"policy-save": str(saved)})
                    if last is not None:
                        # Training goes on from the policies as saved; the
                        # temperature is for searches that start from them.
                        run_options.setdefault("policy-weights-temperature",
                                               "1")
                        run_options["policy-weights"] = str(last)
                    start = time.perf_counter()
                    marlmap.map_module(path.read_text(), arch=arch,
                                       searcher="marl", budget=samples,
                                       seed=seed + step, options=run_options,
                                       name=path.name,
                                       factors=COMPARED_FACTORS)
                    seconds = time.perf_counter() - start
                    runs.append((path.name, arch, round_ + 1, seconds))
                    print(f"{arch} round {round_ + 1}: {path.name} "
                          f"({seconds:.1f} s)", file=log)
                    last = saved
        if last is None:
            raise SystemExit("nothing to train on")
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(last, out)
    return runs


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--networks", nargs="+", type=pathlib.Path,
                        default=TRAINING,
                        help="MLIR files to train on, in order (default: "
                             "examples/ and ../shared/corpus)")
    cli.add_archs(parser)
    parser.add_argument("--rounds", type=int, default=2,
                        help="passes over the networks per accelerator")
    parser.add_argument("--samples", type=int, default=2000,
                        help="samples per distinct problem in each run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="a marl option for every run (the searches "
                             "that load the file must use the same "
                             "policy-hidden and policy-head)")
    parser.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args()
    if args.rounds < 1 or args.samples < 1:
        parser.error("--rounds and --samples must be at least 1")
    options = {}
    for text in args.option:
        name, equals, value = text.partition("=")
        if not equals or name in ("policy-save", "policy-weights"):
            parser.error(f"--option '{text}' is not NAME=VALUE of a marl "
                         "option other than policy-save and policy-weights")
        options[name] = value
    for path in args.networks:
        if not path.is_file():
            parser.error(f"no {path}")
    start = time.perf_counter()
    runs = train(args.networks, args.archs, args.rounds, args.samples,
                 args.seed, options, args.out)
    print(f"wrote {args.out}: {len(runs)} runs, "
          f"{time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
