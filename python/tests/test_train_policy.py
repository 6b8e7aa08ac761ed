"""Training agents on networks: the file the command writes."""

import io

import marlmap
from marlmap.studies import train_policy


def test_training_writes_the_same_file_twice_and_searches_start_from_it(
        source_dir, tmp_path):
    network = source_dir / "examples" / "model.mlir"
    files = []
    for name in ("first.txt", "second.txt"):
        out = tmp_path / name
        runs = train_policy.train([network], ["edge"], rounds=2, samples=128,
                                  seed=5, options={}, out=out,
                                  log=io.StringIO())
        assert [(r[0], r[2]) for r in runs] == [("model.mlir", 1),
                                                ("model.mlir", 2)]
        files.append(out.read_text())
    assert files[0] == files[1]
    assert files[0].startswith("marlmap-policy-weights 1\n")
    assert "\tedge|" in files[0]

    text = network.read_text()
    fresh = marlmap.map_module(text, arch="edge", searcher="marl", budget=128,
                               seed=2, threads=1)
    started = marlmap.map_module(
        text, arch="edge", searcher="marl", budget=128, seed=2, threads=1,
        options={"policy-weights": str(tmp_path / "first.txt")})
    assert started.report["totals"]["ops_mapped"] == \
        fresh.report["totals"]["ops_mapped"]
    assert started.text != fresh.text
