"""Median best EDP of searcher configurations over seeds, per case.

Each case is LAYER@ARCH (a marlmap-explore --layer shorthand and a preset);
each config is NAME=ARGS (marlmap-explore's searcher flags, quoted: --searcher,
the searchers' options, --victory-condition, --policy-library). The searches
run in-process, with the marlmap module. Prints one markdown row per case,
one column per config:

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.median_edp \\
        --budget 2000 --seeds 5 \\
        --case conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3,stride=1@eyeriss \\
        --config "genetic=--searcher genetic" --config "marl=--searcher marl"
"""

import concurrent.futures
import shlex
import statistics

import marlmap

from . import cli, reports
from .running import search_json
from .workloads import LAYERS

# marlmap-explore flags that are search() arguments of their own, with
# their types.
ARGUMENTS = {"victory-condition": ("stop_after", int),
             "policy-library": ("policy_library", str)}


def search_arguments(args):
    """search() keyword arguments for the marlmap-explore flags `args` (a
    list): --searcher, the options marlmap.searchers() lists, and
    ARGUMENTS. ValueError for anything else."""
    known = {option["name"] for searcher in marlmap.searchers()
             for option in searcher["options"]}
    found = {"options": {}}
    args = list(args)
    while args:
        flag = args.pop(0)
        # --name value or --name=value, as the explorer takes them.
        name, equals, value = flag.removeprefix("--").partition("=")
        if not flag.startswith("--") or not (
                name == "searcher" or name in known or name in ARGUMENTS):
            raise ValueError(f"'{flag}' is not --searcher, a searcher "
                             f"option or --{', --'.join(ARGUMENTS)}")
        if not equals:
            if not args:
                raise ValueError(f"'{flag}' needs a value")
            value = args.pop(0)
        if name == "searcher":
            found["searcher"] = value
        elif name in ARGUMENTS:
            argument, kind = ARGUMENTS[name]
            try:
                found[argument] = kind(value)
            except ValueError:  # only int() refuses
                raise ValueError(f"--{name} takes an integer, not "
                                 f"'{value}'") from None
        else:
            # Options stay text: the searcher checks them, as the
            # explorer's flags do.
            found["options"][name] = value
    if "searcher" not in found:
        raise ValueError("no --searcher")
    return found


def best(layer, arch, budget, seconds, seed, arguments):
    """The best EDP of one search, under `budget` samples or, when
    `seconds` is set, that much wall-clock time alone."""
    limit = {"time": seconds} if seconds else {}
    figures = search_json(layer, arch, budget=None if seconds else budget,
                          seed=seed, objective="edp", **limit, **arguments)
    return figures.get("edp", float("inf"))


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--seconds", type=float,
                        help="a wall-clock budget per search instead of "
                             "--budget (run with --jobs 1: searches side "
                             "by side would share the cores)")
    cli.add_seeds(parser, 5)
    parser.add_argument("--case", action="append", default=[])
    parser.add_argument("--study-cases", metavar="PRESETS",
                        help="also every layer of the search study on each "
                             "of these comma-separated presets")
    parser.add_argument("--config", action="append", required=True)
    parser.add_argument("--ratio", metavar="NAME:A,B,..",
                        help="add a column: NAME's median over the lowest "
                             "of configs A, B, ..; and a count of the rows "
                             "where it is below 1")
    cli.add_jobs(parser)
    options = parser.parse_args()
    # (what the row is called, layer shorthand, preset)
    cases = [(case, *case.rsplit("@", 1)) for case in options.case]
    if options.study_cases:
        cases += [(f"{name}@{preset}", layer, preset)
                  for preset in options.study_cases.split(",")
                  for name, layer in LAYERS.items()]
    if not cases:
        parser.error("give --case or --study-cases")
    configs = []
    for config in options.config:
        name, _, args = config.partition("=")
        try:
            configs.append((name, search_arguments(shlex.split(args))))
        except ValueError as error:
            parser.error(f"--config {config}: {error}")
    names = [name for name, _ in configs]
    ratio = None
    if options.ratio:
        subject, _, others = options.ratio.partition(":")
        unknown = [n for n in [subject] + others.split(",") if n not in names]
        if not others or unknown:
            parser.error(f"--ratio takes NAME:A,B,.. of config names; "
                         f"unknown: {', '.join(unknown) or '(none given)'}")
        ratio = (names.index(subject),
                 [names.index(other) for other in others.split(",")])
    print(reports.row(["case"] + names +
                      ([f"{subject} / best of {others}"] if ratio else [])))
    print(reports.rule("l" + "r" * (len(configs) + bool(ratio))))
    below = 0
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        for shown, layer, arch in cases:
            runs = [[pool.submit(best, layer, arch, options.budget,
                                 options.seconds, seed, arguments)
                     for seed in range(1, options.seeds + 1)]
                    for _, arguments in configs]
            medians = [statistics.median(run.result() for run in seeds)
                       for seeds in runs]
            # The lowest median of the row in bold.
            cells = [f"**{m:.3g}**" if m == min(medians) else f"{m:.3g}"
                     for m in medians]
            if ratio:
                value = medians[ratio[0]] / min(medians[i] for i in ratio[1])
                below += value < 1
                cells.append(f"{value:.2f}")
            print(reports.row([shown] + cells), flush=True)
    if ratio:
        print(f"\n{subject} below the best of {others} on {below} of "
              f"{len(cases)} cases")


if __name__ == "__main__":
    main()
