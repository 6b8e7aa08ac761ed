"""Costing, searching and mapping modules, against the tools' own answers."""

import json
import subprocess
import threading

import pytest

import marlmap

LAYER = "conv:K=32,C=16,P=14,Q=14,R=3,S=3"


def explore(build_dir, *arguments):
    """marlmap-explore's JSON for the arguments."""
    result = subprocess.run(
        [str(build_dir / "bin/marlmap-explore"), "--format=json", *arguments],
        check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def test_evaluate_gives_the_explorers_figures(build_dir, source_dir):
    timeloop = source_dir / "examples/timeloop"
    arch = marlmap.arch(str(timeloop / "conv3x3.arch.yaml"))
    problem = marlmap.timeloop_problem(str(timeloop / "conv3x3.problem.yaml"))
    mapping = marlmap.timeloop_mapping(
        str(timeloop / "conv3x3.mapping.yaml"), problem, arch)
    figures = marlmap.evaluate(mapping)
    expected = explore(
        build_dir, "--timeloop-arch", str(timeloop / "conv3x3.arch.yaml"),
        "--timeloop-problem", str(timeloop / "conv3x3.problem.yaml"),
        "--timeloop-mapping", str(timeloop / "conv3x3.mapping.yaml"))
    assert figures["valid"]
    del figures["valid"], figures["lower_bound"]
    assert figures == expected


def test_an_invalid_mapping_says_why():
    problem = marlmap.layer("gemm:M=512,N=512,K=512")
    arch = marlmap.arch("eyeriss")
    # Everything at DRAM but one loop whole in the innermost register file.
    text = ('#accel.mapping<[#accel.level<"PsumRegFile", temporal = '
            '[512, 1, 1], keep = [2]>, #accel.level<"WeightRegFile", '
            'keep = []>, #accel.level<"InputRegFile", keep = []>, '
            '#accel.level<"GlobalBuffer", keep = []>, #accel.level<"DRAM", '
            'temporal = [1, 512, 512], keep = [0, 1, 2]>]>')
    figures = marlmap.evaluate(marlmap.mapping(text, problem, arch))
    assert not figures["valid"]
    assert "PsumRegFile" in figures["invalid_reason"]


@pytest.mark.parametrize("searcher", ["random", "genetic", "annealing",
                                      "marl", "sarl"])
def test_search_gives_the_explorers_result(build_dir, searcher):
    problem = marlmap.layer(LAYER)
    arch = marlmap.arch("eyeriss")
    result = marlmap.search(problem, arch, searcher=searcher, budget=200,
                            seed=7)
    expected = explore(build_dir, "--layer", LAYER, "--arch", "eyeriss",
                       "--searcher", searcher, "--budget", "200", "--seed",
                       "7")
    assert result.found
    assert result.samples == 200
    for key in ("edp", "cycles", "energy_pJ", "mapping", "curve",
                "valid_samples", "searcher"):
        assert result.figures[key] == expected[key], key
    assert [list(point) for point in result.curve] == expected["curve"]
    assert marlmap.evaluate(result.mapping)["edp"] == result.figures["edp"]


def test_search_is_deterministic_and_runs_beside_other_threads():
    problem = marlmap.layer(LAYER)
    arch = marlmap.arch("eyeriss")
    runs = [("genetic", 3), ("marl", 3), ("annealing", 4), ("marl", 5)]
    alone = [marlmap.search(problem, arch, searcher=s, budget=150, seed=seed)
             for s, seed in runs]
    together = [None] * len(runs)

    def run(index):
        searcher, seed = runs[index]
        together[index] = marlmap.search(problem, arch, searcher=searcher,
                                         budget=150, seed=seed)

    threads = [threading.Thread(target=run, args=(i,))
               for i in range(len(runs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for first, second in zip(alone, together):
        assert first.mapping == second.mapping
        assert first.curve == second.curve


def test_search_in_an_imperfect_space_is_the_explorers(build_dir):
    # 197 tokens: the imperfect space spreads them over whole rows.
    problem = marlmap.layer("gemm:M=197,N=64,K=64")
    arch = marlmap.arch("eyeriss")
    result = marlmap.search(problem, arch, searcher="genetic", budget=300,
                            seed=3, factors="imperfect")
    expected = explore(build_dir, "--layer", "gemm:M=197,N=64,K=64",
                       "--arch", "eyeriss", "--searcher", "genetic",
                       "--budget", "300", "--seed", "3",
                       "--factors", "imperfect")
    assert result.figures["factors"] == "imperfect"
    for key in ("edp", "mapping", "curve"):
        assert result.figures[key] == expected[key], key
    assert marlmap.evaluate(result.mapping)["edp"] == result.figures["edp"]
    with pytest.raises(ValueError, match="factors must be perfect"):
        marlmap.search(problem, arch, factors="ruby")
    mapped = marlmap.map_module(
        "module { func.func @f(%a: tensor<197x13xf32>, %b: tensor<13x8xf32>,"
        " %c: tensor<197x8xf32>) -> tensor<197x8xf32> { %0 = linalg.matmul "
        "ins(%a, %b : tensor<197x13xf32>, tensor<13x8xf32>) outs(%c : "
        "tensor<197x8xf32>) -> tensor<197x8xf32> return %0 : "
        "tensor<197x8xf32> } }", arch="eyeriss", searcher="random",
        budget=100, factors="spatial-imperfect")
    assert mapped.report["factors"] == "spatial-imperfect"
    assert mapped.report["ops"][0]["factors"] == "spatial-imperfect"


def test_auto_factors_give_partial_tiles_where_they_pay(build_dir):
    # 197 tokens take partial tiles; a 3x3 convolution whose 56 columns
    # fill eyeriss's 14-wide rows in whole steps keeps whole factors.
    arch = marlmap.arch("eyeriss")
    for layer, space in (("gemm:M=197,N=64,K=64", "spatial-imperfect"),
                         ("conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3",
                          "perfect")):
        result = marlmap.search(marlmap.layer(layer), arch, searcher="random",
                                budget=50, seed=2, factors="auto")
        assert result.figures["factors"] == space, layer
        assert result.figures["factors_option"] == "auto"
        expected = explore(build_dir, "--layer", layer, "--arch", "eyeriss",
                           "--searcher", "random", "--budget", "50",
                           "--seed", "2", "--factors", "auto")
        assert result.figures["edp"] == expected["edp"], layer


def test_search_options_and_their_errors():
    problem = marlmap.layer(LAYER)
    arch = marlmap.arch("eyeriss")
    result = marlmap.search(problem, arch, searcher="marl", budget=128,
                            options={"policy-epochs": 2,
                                     "policy-hidden": 16})
    assert "policy-epochs=2" in result.figures["searcher"]
    with pytest.raises(ValueError, match="policy-hidden must be"):
        marlmap.search(problem, arch, searcher="marl",
                       options={"policy-hidden": 0})
    with pytest.raises(ValueError, match="objective must be"):
        marlmap.search(problem, arch, objective="speed")
    with pytest.raises(ValueError, match="'nope'"):
        marlmap.search(problem, arch, searcher="nope")
    with pytest.raises(ValueError, match="budget"):
        marlmap.search(problem, arch, budget=0)
    with pytest.raises(ValueError, match="time"):
        marlmap.search(problem, arch, time=float("nan"))


def test_a_failure_underneath_is_a_marlmap_error():
    problem = marlmap.layer(LAYER)
    with pytest.raises(marlmap.Error, match="a failure made on purpose"):
        marlmap.search(problem, marlmap.arch("eyeriss"), searcher="marl",
                       budget=200, options={"policy-test-throw-after": 1})


def test_a_missing_policy_library_names_what_was_tried():
    problem = marlmap.layer(LAYER)
    with pytest.raises(ValueError, match="/no/such/library.so"):
        marlmap.search(problem, marlmap.arch("eyeriss"), searcher="marl",
                       policy_library="/no/such/library.so")


def test_map_module_is_the_pass(build_dir, source_dir, tmp_path):
    path = source_dir / "test/Tools/Inputs/small-network.mlir"
    mapped = marlmap.map_module(path.read_text(), searcher="annealing",
                                budget=300, seed=2, name=str(path))
    report = tmp_path / "report.json"
    pass_text = subprocess.run(
        [str(build_dir / "bin/marlmap-opt"), str(path),
         f"--marl-map=searcher=annealing budget=300 seed=2 progress=none "
         f"report={report}"],
        check=True, capture_output=True, text=True).stdout
    assert mapped.text.strip() == pass_text.strip()
    expected = json.loads(report.read_text())
    # The same figures; the seconds are the clock's.
    del mapped.report["totals"]["seconds"], expected["totals"]["seconds"]
    assert mapped.report["totals"] == expected["totals"]
    assert mapped.report["schema"] == "marlmap-report-1"
    assert any("dynamic shape" in line for line in mapped.diagnostics)
    # The text is a module marlmap reads back: its ops carry their mappings.
    assert [op.problem is not None for op in marlmap.ops(mapped.text)] == [
        True, True, True, False]


def test_map_module_errors():
    with pytest.raises(ValueError, match="unknown accelerator"):
        marlmap.map_module("module {}", arch="nope")
    with pytest.raises(ValueError, match="threads must be between 0"):
        marlmap.map_module("module {}", threads=5000)
    with pytest.raises(ValueError, match="time must be above 0"):
        marlmap.map_module("module {}", time=0)
    with pytest.raises(ValueError, match="stop_after must not be negative"):
        marlmap.search(marlmap.layer(LAYER), marlmap.arch("eyeriss"),
                       stop_after=-1)
    # What only the module's accelerator can judge fails with the module.
    with pytest.raises(marlmap.Error, match="unknown searcher 'nope'"):
        marlmap.map_module("module {}", searcher="nope")


def test_map_module_takes_options_as_they_are(source_dir, tmp_path):
    # No pipeline text in between: a file name may hold quotes and braces.
    cache = tmp_path / 'a "quoted" {braced} = name.sqlite'
    text = (source_dir / "test/Tools/Inputs/small-network.mlir").read_text()
    first = marlmap.map_module(text, searcher="random", budget=50,
                               cache=str(cache))
    searched = first.report["totals"]["searched"]
    assert searched > 0 and cache.exists()
    again = marlmap.map_module(text, searcher="random", budget=50,
                               cache=str(cache))
    assert again.report["totals"]["cache_hits"] == searched
    assert again.report["totals"]["searched"] == 0
    assert again.text == first.text
