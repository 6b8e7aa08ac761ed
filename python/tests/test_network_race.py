"""The equal-time race over whole networks, on a small module."""

import pathlib
import sys

import marlmap

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import network_race  # noqa: E402


def test_a_run_maps_the_network_within_its_time(source_dir):
    text = (source_dir / "examples" / "model.mlir").read_text()
    runs = {searcher: network_race.run(marlmap, text, "model.mlir", "edge",
                                       searcher, 0.2, 1)
            for searcher in ("genetic", "random")}
    assert {run["ops_mapped"] for run in runs.values()} == {5}
    for run in runs.values():
        assert run["edp"] > 0 and run["samples"] > 0
    rows = network_race.cell_rows(
        {"model|edge|0.2": {s: [r] for s, r in runs.items()}},
        ["genetic", "random"])
    assert rows[0]["winner"] == min(runs, key=lambda s: runs[s]["edp"])
