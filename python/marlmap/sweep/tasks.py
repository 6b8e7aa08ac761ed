"""What a sweep's task is, and running one.

A task maps one network onto one accelerator with the Mapper, in the
worker's process, on one thread. It carries the network's text and the
accelerator's description text, not paths: a worker on another machine
sees neither the driver's files nor its folders.
"""

import hashlib
import itertools
import json
import os
import pathlib
import tempfile
from dataclasses import dataclass, field

import marlmap

# The network totals a row keeps, in the order the table shows them (the
# wall time is left out: it would make two runs of the same sweep differ).
TOTALS = ("energy_pJ", "cycles", "edp", "latency_s", "macs", "ops_mapped",
          "ops_not_mapped", "distinct_problems", "searched", "cache_hits",
          "samples")


@dataclass(frozen=True)
class Accelerator:
    """One accelerator of the sweep: its name, its description text, and
    the grid's settings that made it from its base (empty for a preset or
    a file taken as it is)."""
    name: str
    description: str
    settings: tuple = ()


#: The map spaces a sweep may search (marlmap-explore's --factors), and
#: `auto`, which gives each problem of a network one of them.
FACTOR_SPACES = tuple(marlmap.factors_options())


@dataclass(frozen=True)
class Search:
    """How every task searches, as marlmap-explore spells it."""
    searcher: str = "marl"
    budget: int = None
    time: float = None
    seed: int = 1
    objective: str = "edp"
    factors: str = "auto"
    cache: str = ""


@dataclass(frozen=True)
class Task:
    network: str
    network_text: str = field(repr=False)
    accelerator: Accelerator = field(repr=False)
    search: Search = Search()

    @property
    def key(self):
        """Names the task's result in the output folder: the same network
        text, accelerator and search give the same key, on any machine.
        Where results are cached changes no result: the cache (and any
        password in it) is not part of the key. The perfect space keys as
        before the option existed, so folders written then resume with
        --factors perfect (the default, auto, searches otherwise)."""
        search = {name: value for name, value in self.search.__dict__.items()
                  if name != "cache" and
                  not (name == "factors" and value == "perfect")}
        digest = hashlib.sha256()
        for part in (self.network, self.network_text, self.accelerator.name,
                     self.accelerator.description,
                     json.dumps(search, sort_keys=True)):
            digest.update(part.encode())
            digest.update(b"\0")
        return digest.hexdigest()[:24]


def networks(paths):
    """(name, text) per MLIR file, folders expanded to their .mlir files in
    name order; the name is the file's stem. ValueError for a path that is
    neither, or two networks of one name."""
    found = []
    for given in paths:
        path = pathlib.Path(given)
        if path.is_dir():
            files = sorted(path.glob("*.mlir"))
            if not files:
                raise ValueError(f"{given}: a folder with no .mlir file")
        elif path.is_file():
            files = [path]
        else:
            raise ValueError(f"{given}: no such file or folder")
        found.extend(files)
    _refuse_twice([file.stem for file in found],
                  "two networks are named {}: rename one of the files")
    return [(file.stem, file.read_text()) for file in found]


def _refuse_twice(names, message):
    """ValueError(message with the name) for a name given twice."""
    for name in names:
        if names.count(name) > 1:
            raise ValueError(message.format(name))


def parse_grid(text):
    """'pe=8x8,12x14 glb_kb=64,128' as [(key, [values])], in order.
    ValueError for a malformed item or a key given twice."""
    grid = []
    for item in text.split():
        key, equals, values = item.partition("=")
        if not equals or not key or not values or "" in values.split(","):
            raise ValueError(f"--grid: '{item}' is not KEY=VALUE[,VALUE...]")
        if key in (known for known, _ in grid):
            raise ValueError(f"--grid: {key} is given twice")
        grid.append((key, values.split(",")))
    return grid


def accelerators(choices, grid):
    """Every accelerator of `choices` (preset names and description files,
    in order) or, with a grid, every grid point over each of them: each is
    checked like any description, and named by its values."""
    found = []
    for choice in choices:
        base = marlmap.arch(choice)
        if not grid:
            found.append(Accelerator(base.name, base.description))
            continue
        keys = [key for key, _ in grid]
        for values in itertools.product(*(values for _, values in grid)):
            settings = tuple(zip(keys, values))
            variant = base.variant(dict(settings))
            found.append(Accelerator(variant.name, variant.description,
                                     settings))
    _refuse_twice([accelerator.name for accelerator in found],
                  "the accelerator {} is given twice")
    return found


#: The key of a row's warnings (a mapping cache that cannot be reached,
#: say) on their way to the driver, which shows them and stores the rest.
WARNINGS = "warnings"


def run(task):
    """The task's row: the network, the accelerator, the network totals and
    the grid's settings, and under WARNINGS what the compile warned of.
    Runs in a worker; marlmap.Error and ValueError come back to the driver
    as they are."""
    search = task.search
    with tempfile.TemporaryDirectory(prefix="marlmap-sweep-") as folder:
        description = os.path.join(folder, "accelerator.mlir")
        with open(description, "w") as out:
            out.write(task.accelerator.description)
        mapped = marlmap.map_module(
            task.network_text, arch=description, searcher=search.searcher,
            budget=search.budget, time=search.time, seed=search.seed,
            objective=search.objective, factors=search.factors, threads=1,
            cache=search.cache,
            name=f"{task.network}.mlir")
    totals = mapped.report["totals"]
    row = {"network": task.network, "accelerator": task.accelerator.name}
    row.update({name: totals[name] for name in TOTALS})
    row.update({key: _number(value)
                for key, value in task.accelerator.settings})
    row[WARNINGS] = [line.split(": warning: ", 1)[1]
                     for line in mapped.diagnostics
                     if ": warning: " in line]
    return row


def _number(text):
    """A grid value as the table shows it: a number when it is one."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
