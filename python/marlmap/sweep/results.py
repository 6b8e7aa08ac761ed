"""The sweep's output folder.

Each finished task's row is written at once to `DIR/tasks/KEY.json` (a
temporary file renamed into place, so a row is whole or absent), which
is what makes a sweep resumable: a re-run skips the tasks whose row is
there. `sweep.json`, `sweep.csv` and `sweep.html` are written from those
rows at the end, sorted by network then accelerator in the order given.
"""

import csv
import json
import os
import pathlib

from . import page
from .tasks import TOTALS


class Folder:
    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.rows = self.path / "tasks"
        self.rows.mkdir(parents=True, exist_ok=True)

    def done(self, task):
        """The task's row if an earlier run stored it."""
        stored = self.rows / f"{task.key}.json"
        if not stored.exists():
            return None
        try:
            return json.loads(stored.read_text())["row"]
        except (ValueError, KeyError):
            return None  # damaged: the task runs again and replaces it

    def store(self, task, row):
        stored = self.rows / f"{task.key}.json"
        partial = stored.with_suffix(".partial")
        partial.write_text(json.dumps({"task": task.key, "row": row},
                                      sort_keys=True))
        os.replace(partial, stored)

    def write_table(self, rows, networks, accelerators):
        """sweep.json, sweep.csv and sweep.html from the rows, sorted by
        network then accelerator in the order given."""
        network_order = {name: i for i, name in enumerate(networks)}
        accelerator_order = {a.name: i for i, a in enumerate(accelerators)}
        rows = sorted(rows, key=lambda row: (network_order[row["network"]],
                                             accelerator_order[
                                                 row["accelerator"]]))
        settings = []
        for accelerator in accelerators:
            for key, _ in accelerator.settings:
                if key not in settings:
                    settings.append(key)
        columns = ["network", "accelerator", *TOTALS, *settings]
        flat = [{column: row.get(column) for column in columns}
                for row in rows]
        (self.path / "sweep.json").write_text(json.dumps(flat, indent=1) +
                                              "\n")
        with open(self.path / "sweep.csv", "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=columns)
            writer.writeheader()
            for row in flat:
                writer.writerow({key: "" if value is None else value
                                 for key, value in row.items()})
        (self.path / "sweep.html").write_text(
            page.render(flat, networks, [a.name for a in accelerators],
                        settings))
        return flat
