"""The study of every searcher's distance from the proven optimum."""

import json

import pytest

import marlmap
from marlmap.studies import optimum


def test_gaps_are_measured_from_a_proven_optimum():
    problem = marlmap.layer("gemm:M=16,N=16,K=8")
    arch = marlmap.arch("edge")
    exact = optimum.search(problem, arch, "optimal", 30, 1)
    assert exact["proved"] and exact["bound"] == pytest.approx(exact["edp"])
    found = optimum.search(problem, arch, "random", 0.1, 1)
    ref = optimum.reference(exact, [found["edp"]], "gemm")
    assert ref["best"] == exact["edp"]
    assert optimum.gap(found["edp"], ref) >= 0


def test_a_run_below_a_proven_optimum_stops_the_study():
    proved = {"edp": 10.0, "proved": True, "bound": 10.0}
    with pytest.raises(SystemExit, match="below the proven optimum"):
        optimum.reference(proved, [9.0], "case")
    # Without a proof, the best run is what gaps are measured against.
    unproved = dict(proved, proved=False, bound=5.0)
    assert optimum.reference(unproved, [9.0, None], "case")["best"] == 9.0


def test_measurements_are_kept_for_a_resumed_study(tmp_path):
    path = tmp_path / "study.runs.json"
    calls = []
    runs = optimum.Runs(path, resume=False)
    runs.get("a", lambda: calls.append(1) or {"edp": 1.0})
    runs.get("a", lambda: calls.append(1) or {"edp": 2.0})
    assert calls == [1]

    def never():
        raise AssertionError("a kept measurement was made again")

    assert optimum.Runs(path, resume=True).get("a", never) == {"edp": 1.0}
    assert optimum.Runs(path, resume=False).get("a", lambda: 3) == 3


def test_networks_are_measured_against_their_ops_optima(source_dir, tmp_path):
    out = tmp_path / "OPTIMUM.md"
    optimum.main(["--parts", "networks",
                  "--networks", str(source_dir / "examples" / "model.mlir"),
                  "--network-archs", "edge", "--searchers", "random", "marl",
                  "--network-seconds", "0.2", "--network-prove-seconds", "2",
                  "--out", str(out)])
    assert "## Whole networks" in out.read_text()
    cell, = json.loads(out.with_suffix(".json").read_text())["networks"]
    ref = cell["reference"]
    assert ref["ops"] == 5 and ref["bound"] <= ref["edp"]
    for gaps in cell["gaps"].values():
        assert all(gap >= 0 for gap in gaps)
