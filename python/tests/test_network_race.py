"""The equal-time race over whole networks, on a small module."""

from marlmap.studies import network_race


def test_a_run_maps_the_network_within_its_time(source_dir):
    text = (source_dir / "examples" / "model.mlir").read_text()
    runs = {searcher: network_race.run(text, "model.mlir", "edge", searcher,
                                       0.2, 1)
            for searcher in ("genetic", "random")}
    assert {run["ops_mapped"] for run in runs.values()} == {5}
    for run in runs.values():
        assert run["edp"] > 0 and run["samples"] > 0
    rows = network_race.cell_rows(
        {"model|edge|0.2": {s: [r] for s, r in runs.items()}},
        ["genetic", "random"])
    assert rows[0]["winner"] == min(runs, key=lambda s: runs[s]["edp"])
