"""The study of every searcher's distance from the proven optimum."""

import json
import time

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
    # Nothing found anywhere: no reference, every gap infinite.
    nothing = optimum.reference(dict(unproved, edp=None), [None], "case")
    assert optimum.gap(None, nothing) == optimum.gap(9.0, nothing) > 1e300


def test_measurements_are_kept_for_a_resumed_study(tmp_path):
    path = tmp_path / "study.runs.json"
    calls = []
    runs = optimum.Runs(path, resume=False)
    runs.get("a", lambda: calls.append(1) or {"edp": 1.0})
    runs.get("a", lambda: calls.append(1) or {"edp": 2.0})
    assert calls == [1]

    def never():
        raise AssertionError("a kept measurement was made again")

    assert optimum.Runs(path, resume=True).get("a", never)["edp"] == 1.0
    fresh = optimum.Runs(path, resume=False, commit="abc123")
    assert fresh.get("a", lambda: {"edp": 3.0}) == {"edp": 3.0,
                                                    "commit": "abc123"}


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
    # The bound is below every run; the reference need not be.
    for gaps in cell["gaps_to_bound"].values():
        assert all(gap >= 0 for gap in gaps)


def test_ops_that_share_a_location_are_measured_apart(tmp_path):
    # A module called twice (ResNet's shared ReLU) gives two ops one
    # location; each keeps its own figures.
    op = ('%{out} = linalg.matmul ins(%a, %b : tensor<16x8xf32>, '
          'tensor<8x16xf32>) outs(%c : tensor<16x16xf32>) -> '
          'tensor<16x16xf32> loc("shared")')
    text = ("func.func @f(%a: tensor<16x8xf32>, %b: tensor<8x16xf32>, "
            "%c: tensor<16x16xf32>) -> tensor<16x16xf32> {\n" +
            op.format(out="0") + "\n" + op.format(out="1") +
            "\nreturn %1 : tensor<16x16xf32>\n}\n")
    run = optimum.map_network(text, "shared.mlir", "edge", "random", 0.1, 1)
    assert len(run["ops"]) == 2
    # An op another run left unmapped changes no other op's key.
    seen = {}
    keys = [optimum.op_key({"location": location, "op": "linalg.matmul"},
                           seen) for location in ("a", "shared", "shared")]
    assert keys == ["a|linalg.matmul|1", "shared|linalg.matmul|1",
                    "shared|linalg.matmul|2"]


def test_a_failed_measurement_stops_the_study_at_once(tmp_path):
    runs = optimum.Runs(tmp_path / "study.runs.json", resume=False)
    made = []

    def fails():
        raise SystemExit("a check failed")

    with pytest.raises(SystemExit, match="a check failed"):
        runs.all(1, [("a", fails)] + [
            (key, lambda key=key: made.append(key) or {"edp": 1.0})
            for key in "bcdefgh"])
    assert len(made) <= 1  # at most the one already started
    # Two at a time: a failure is seen as it happens, not once the
    # measurement started before it ends, so the other worker does not go
    # on through the list meanwhile (each of those takes 0.3 s, the long
    # one 2.4 s: the study must see the failure within 0.6 s, even on a
    # busy machine).
    def slow(key):
        time.sleep(0.3)
        made.append(key)
        return {"edp": 1.0}

    made.clear()
    with pytest.raises(SystemExit, match="a check failed"):
        runs.all(2, [("long", lambda: time.sleep(2.4) or {"edp": 1.0}),
                     ("fails", fails)] +
                 [(key, lambda key=key: slow(key)) for key in "ijklmnop"])
    assert len(made) <= 2


def test_a_network_reference_takes_each_ops_best_and_bounds_every_run():
    def op(edp, energy, bound, proved=False):
        return {"edp": edp, "energy": energy, "cycles": edp / energy,
                "proved": proved, "bound": bound}

    exact = {"ops": {"a": op(100.0, 1.0, 100.0, proved=True),
                     "b": op(50.0, 5.0, 20.0)}}
    runs = [{"ops": {"a": op(104.0, 2.0, 1.0), "b": op(40.0, 4.0, 1.0)},
             "edp": 0.0},
            {"ops": {"a": op(120.0, 2.0, 1.0)}, "edp": 0.0}]
    ref = optimum.network_reference(exact, runs, "net")
    # a at its proven optimum (1 pJ, 100 cycles), b at the better run's
    # (4 pJ, 10 cycles); the bound is (sqrt(100) + sqrt(20))^2.
    assert ref["edp"] == pytest.approx(5.0 * 110.0)
    assert ref["bound"] == pytest.approx((10 + 20 ** 0.5) ** 2)
    assert ref["proved"] == 1 and ref["ops"] == 2
    # A run that left an op unmapped has no gap.
    assert optimum.network_gaps(runs[1], ref)[0] > 1e300
    # A run below a proven op optimum stops the study.
    runs[0]["ops"]["a"] = op(90.0, 1.0, 1.0)
    with pytest.raises(SystemExit, match="below the proven optimum"):
        optimum.network_reference(exact, runs, "net")
