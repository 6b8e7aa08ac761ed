"""marlmap-sweep: maps networks onto accelerators, every (network,
accelerator) one task on Dask distributed, and writes DIR/sweep.csv,
DIR/sweep.json and DIR/sweep.html. A re-run into the same DIR skips the
tasks done there.

usage: marlmap-sweep NETWORK... --out DIR [--arch A,B,...]
           [--grid "pe=8x8,12x14 glb_kb=64,128"] [--searcher S]
           [--budget N | --time S] [--seed N] [--objective O]
           [--factors perfect|spatial-imperfect|imperfect|auto] [--cache FILE]
           [--workers N | --scheduler tcp://HOST:PORT]

NETWORK is an MLIR file or a folder of them; --arch takes presets and
.mlir descriptions; --grid varies each of those (docs/Sweep.md lists the
keys). Also `python3 -m marlmap.sweep`.
"""

import argparse
import logging
import sys

import marlmap

from . import engine, results
from . import tasks as sweep_tasks


def _parser():
    parser = argparse.ArgumentParser(
        prog="marlmap-sweep", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("networks", nargs="+", metavar="NETWORK")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--arch", default="eyeriss",
                        help="presets and .mlir descriptions, separated by "
                        "commas (default eyeriss)")
    parser.add_argument("--grid", default="",
                        help="KEY=V1,V2 ... varied over each --arch")
    parser.add_argument("--searcher", default="marl")
    parser.add_argument("--budget", type=int,
                        help="samples per distinct problem")
    parser.add_argument("--time", type=float,
                        help="seconds per network")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--objective", default="edp")
    parser.add_argument("--factors", default="auto",
                        choices=sweep_tasks.FACTOR_SPACES,
                        help="the factor space: whether tiles must divide "
                        "their loop, or auto (the default): partial tiles "
                        "where they pay (docs/MapSpace.md)")
    parser.add_argument("--cache", default="",
                        help="a mapping cache every task shares: an SQLite "
                             "file, or postgresql://... for workers on many "
                             "machines")
    parser.add_argument("--workers", type=int,
                        help="local worker processes (default: one per "
                        "core)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help="an existing Dask cluster instead")
    return parser


class Progress:
    """A bar on a terminal, a line per task in logs."""

    def __init__(self, total, stream):
        self.total, self.finished, self.stream = total, 0, stream
        self.bar = stream.isatty()

    def row(self, row):
        self.finished += 1
        if self.bar:
            filled = 30 * self.finished // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] "
                              f"{self.finished}/{self.total}")
            if self.finished == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(
                f"marlmap-sweep: {self.finished}/{self.total} "
                f"{row['network']} on {row['accelerator']}: "
                f"EDP {row['edp']:.4g}\n")
        self.stream.flush()


def sweep(args, client=None, on_row=None, runner=None):
    """Runs the sweep `args` describe (the command's parsed options); with
    `client`, on that Dask client instead of one of its own; `on_row(task,
    row)` after each new row is stored; `runner` in place of tasks.run (a
    test's that fails). Returns (rows, run, already done)."""
    if args.workers is not None and args.workers < 1:
        raise ValueError("--workers must be at least 1")
    if args.budget is not None and args.budget < 1:
        raise ValueError("--budget must be at least 1")
    if args.time is not None and not args.time > 0:
        raise ValueError("--time must be positive")
    search = sweep_tasks.Search(searcher=args.searcher, budget=args.budget,
                                time=args.time, seed=args.seed,
                                objective=args.objective,
                                factors=args.factors, cache=args.cache)
    known = {entry["name"]: entry for entry in marlmap.searchers()}
    if args.searcher not in known:
        raise ValueError(f"--searcher: unknown searcher '{args.searcher}' "
                         f"(known: {', '.join(known)})")
    if (args.factors not in ("perfect", "auto") and
            known[args.searcher]["perfect_factors_only"]):
        raise ValueError(f"--factors: searcher '{args.searcher}' searches "
                         f"only the perfect space, not '{args.factors}'")
    networks = sweep_tasks.networks(args.networks)
    accelerators = sweep_tasks.accelerators(
        [a for a in args.arch.split(",") if a],
        sweep_tasks.parse_grid(args.grid))
    every = [sweep_tasks.Task(name, text, accelerator, search)
             for name, text in networks for accelerator in accelerators]
    folder = results.Folder(args.out)
    rows, todo = [], []
    for task in every:
        row = folder.done(task)
        if row is None:
            todo.append(task)
        else:
            rows.append(row)
    progress = Progress(len(todo), sys.stderr)
    warned = set()

    def store(task, row):
        # Each warning once, with the first task that gave it: a cache
        # that went away warns in every task after.
        for warning in row.pop(sweep_tasks.WARNINGS, []):
            if warning not in warned:
                warned.add(warning)
                print(f"marlmap-sweep: warning: {task.network} on "
                      f"{task.accelerator.name}: {warning}", file=sys.stderr)
        folder.store(task, row)
        rows.append(row)
        progress.row(row)
        if on_row:
            on_row(task, row)

    runner = runner or sweep_tasks.run
    try:
        if todo and client is not None:
            engine.run(client, todo, store, runner)
        elif todo:
            with engine.client(args.workers, args.scheduler) as own:
                engine.run(own, todo, store, runner)
    except RuntimeError as error:
        raise RuntimeError(f"{error} ({len(rows)} of {len(every)} rows are "
                           f"stored in {args.out}: run again to resume)"
                           ) from None
    table = folder.write_table(rows, [name for name, _ in networks],
                               accelerators)
    return table, len(todo), len(every) - len(todo)


def main(argv=None):
    args = _parser().parse_args(argv)
    # The command says what failed in one line; Dask's client would log
    # its reconnection attempts and their tracebacks besides.
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        table, run, done = sweep(args)
    except (ValueError, RuntimeError, OSError, marlmap.Error) as error:
        sys.exit(f"marlmap-sweep: {error}")
    print(f"marlmap-sweep: {len(table)} tasks: {run} run, {done} already done")
