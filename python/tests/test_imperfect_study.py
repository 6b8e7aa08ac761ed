"""The factor-space study on a small module."""

from marlmap.studies import imperfect


def test_a_run_names_the_loops_with_partial_tiles(source_dir):
    text = (source_dir / "examples" / "model.mlir").read_text()
    runs = {space: imperfect.run(text, "model.mlir", "edge", space,
                                 {"time": 0.3}, 1, searcher="genetic")
            for space in imperfect.SPACES}
    assert {run["ops_mapped"] for run in runs.values()} == {5}
    for space, run in runs.items():
        assert run["edp"] > 0 and run["samples"] > 0
        assert len(run["ops"]) == 5
        if space == "perfect":
            assert all(not op["partial"] for op in run["ops"])
        # Each op names the space it was searched in.
        assert {op["factors"] for op in run["ops"]} <= {space, "perfect"}
        assert run["partial_ops"] == sum(op["factors"] != "perfect"
                                         for op in run["ops"])
    rows = imperfect.cell_rows({"model|edge|0.3": {
        space: [run] for space, run in runs.items()}})
    assert rows[0]["change"]["perfect"] == 0.0
    changes = imperfect.layer_rows(runs["perfect"], runs["imperfect"])
    assert changes == sorted(changes, key=lambda row: row["change"])


def test_partial_loops_are_those_whose_factors_pass_their_bound():
    mapping = {"RF": {"temporal": {"m": 4}, "spatial_x": {}, "spatial_y": {}},
               "DRAM": {"temporal": {"m": 2, "k": 3},
                        "spatial_x": {"n": 2}, "spatial_y": {}}}
    assert imperfect.partial_loops(mapping, {"m": 7, "n": 2, "k": 3}) == ["m"]
    assert imperfect.partial_loops(mapping, {"m": 8, "n": 2, "k": 3}) == []
