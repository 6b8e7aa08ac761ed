"""The studies' command lines: the options several of them take, spelt and
explained once."""

import argparse
import pathlib

from . import paths


def parser(doc):
    """A study's parser, its description the first line of `doc` (the
    module's docstring)."""
    return argparse.ArgumentParser(description=doc.split("\n")[0])


def add_archs(parser):
    parser.add_argument("--archs", nargs="+", default=["eyeriss", "simba"],
                        help="accelerators: presets, .mlir descriptions or "
                             "Timeloop architecture files")


def add_seeds(parser, default):
    parser.add_argument("--seeds", type=int, default=default,
                        help="runs of each case, with seeds 1 to SEEDS")


def add_jobs(parser):
    parser.add_argument("--jobs", type=int, default=1,
                        help="searches run side by side")


def add_report_out(parser):
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="the report (Markdown); its JSON goes beside it")


def add_explore(parser):
    parser.add_argument("--explore", type=pathlib.Path, default=paths.EXPLORE,
                        help="the marlmap-explore to run (default: the "
                             "build's, MARLMAP_BUILD or the checkout's build/)")


def settings(text):
    """{'a': '1', 'b': '2'} from 'a=1,b=2' ('' gives {}); None when an item
    has no '='."""
    items = [item for item in text.split(",") if item]
    if any("=" not in item for item in items):
        return None
    return dict(item.split("=", 1) for item in items)
