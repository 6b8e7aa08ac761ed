"""Problems, accelerators and mappings from every source marlmap reads."""

import pytest

import marlmap


def test_presets_and_searchers_are_listed():
    assert "eyeriss" in marlmap.presets()
    by_name = {s["name"]: s for s in marlmap.searchers()}
    assert {"random", "genetic", "annealing", "marl", "sarl"} <= set(by_name)
    assert by_name["marl"]["learns"] and not by_name["genetic"]["learns"]
    epochs = {o["name"]: o for o in by_name["marl"]["options"]}["policy-epochs"]
    assert epochs["default"] == "4"
    assert by_name["optimal"]["perfect_factors_only"]
    assert by_name["marl-polish"]["perfect_factors_only"]
    assert not by_name["marl"]["perfect_factors_only"]
    assert marlmap.factor_spaces() == ["perfect", "spatial-imperfect",
                                       "imperfect"]
    assert marlmap.factors_options() == marlmap.factor_spaces() + ["auto"]


def test_a_layer_is_a_problem():
    problem = marlmap.layer("conv:K=64,C=32,P=14,Q=14,R=3,S=3")
    assert problem.loops == {"R": 3, "S": 3, "P": 14, "Q": 14, "C": 32,
                             "K": 64, "N": 1}
    assert problem.macs == 3 * 3 * 14 * 14 * 32 * 64
    assert problem.operands == ["Weights", "Inputs", "Outputs"]
    assert problem.to_json()["loops"] == [3, 3, 14, 14, 32, 64, 1]
    assert problem == marlmap.layer("conv:C=32,K=64,P=14,Q=14,R=3,S=3")


@pytest.mark.parametrize("text, message", [
    ("conv:K=-1", "'K' must be positive"),
    ("pool:K=1", "conv:"),
    ("gemm:M=4,M=5", "M"),
])
def test_a_bad_layer_is_a_value_error(text, message):
    with pytest.raises(ValueError, match=message):
        marlmap.layer(text)


def test_archs_from_presets_mlir_and_timeloop(source_dir):
    eyeriss = marlmap.arch("eyeriss")
    assert eyeriss.levels[-1] == "DRAM"
    npu = marlmap.arch(str(source_dir / "examples/my-npu.mlir"))
    assert npu.name == "my-npu"
    assert npu.levels == ["RegFile", "GlobalBuffer", "DRAM"]
    timeloop = marlmap.arch(
        str(source_dir / "examples/timeloop/conv3x3.arch.yaml"))
    assert timeloop.levels
    assert "DRAM" in timeloop.timeloop_yaml()


def test_a_timeloop_arch_keeps_its_fill_rule_through_its_description(
        source_dir, tmp_path):
    # Timeloop's files count fills with Timeloop's walk; a description
    # written from one (a sweep's variant, say) must count them the same.
    folder = source_dir / "examples/timeloop"
    timeloop = marlmap.arch(str(folder / "conv3x3.arch.yaml"))
    assert "fills = timeloop" in timeloop.description
    written = tmp_path / "conv3x3.mlir"
    written.write_text(timeloop.description)
    again = marlmap.arch(str(written))
    assert again == timeloop
    problem = marlmap.timeloop_problem(str(folder / "conv3x3.problem.yaml"))
    figures = [marlmap.evaluate(marlmap.timeloop_mapping(
        str(folder / "conv3x3.mapping.yaml"), problem, arch))
        for arch in (timeloop, again)]
    assert figures[0] == figures[1] and figures[0]["valid"]
    assert "fills = timeloop" in timeloop.variant({"glb_kb": 64}).description
    assert "fills" not in marlmap.arch("eyeriss").description


@pytest.mark.parametrize("name, message", [
    ("nope", "unknown accelerator 'nope'"),
    ("/no/such/arch.yaml", "cannot read '/no/such/arch.yaml'"),
])
def test_a_bad_arch_is_a_value_error(name, message):
    with pytest.raises(ValueError, match=message):
        marlmap.arch(name)


def test_an_impossible_timeloop_arch_is_a_value_error(source_dir, tmp_path):
    text = (source_dir / "examples/timeloop/conv3x3.arch.yaml").read_text()
    bad = tmp_path / "bad.arch.yaml"
    bad.write_text(text.replace("vector-access-energy: 800",
                                "vector-access-energy: 8e12"))
    with pytest.raises(ValueError, match="'read_energy' must be at most"):
        marlmap.arch(str(bad))


def test_ops_of_a_module(source_dir):
    text = (source_dir / "test/Tools/Inputs/small-network.mlir").read_text()
    ops = marlmap.ops(text, "small.mlir")
    assert [op.op for op in ops] == ["linalg.matmul", "linalg.matmul",
                                     "linalg.conv_2d_nchw_fchw",
                                     "linalg.matmul"]
    assert ops[0].location == "small.mlir:7:10"
    assert ops[0].problem.loops == {"m": 16, "n": 8, "k": 32}
    assert ops[3].problem is None
    assert ops[3].skipped == "operand #0 has a dynamic shape"


def test_a_module_that_does_not_parse_says_where():
    with pytest.raises(ValueError, match=r"bad.mlir:1:\d+: expected"):
        marlmap.ops("module { func.func @f( }", "bad.mlir")


def test_mapping_text_round_trips():
    problem = marlmap.layer("gemm:M=64,N=32,K=16")
    arch = marlmap.arch("eyeriss")
    found = marlmap.search(problem, arch, budget=200).mapping
    again = marlmap.mapping(found.text, problem, arch)
    assert again == found
    assert again.text == found.text
    assert set(found.to_json()) == set(arch.levels)


@pytest.mark.parametrize("text, message", [
    ('#accel.mapping<[#accel.level<"DRAM", keep = [0, 1, 2]>]>',
     "the mapping has 1 levels"),
    ("42", "not an #accel.mapping"),
    ("#accel.mapping<", "not an attribute"),
])
def test_a_bad_mapping_is_a_value_error(text, message):
    problem = marlmap.layer("gemm:M=64,N=32,K=16")
    with pytest.raises(ValueError, match=message):
        marlmap.mapping(text, problem, marlmap.arch("eyeriss"))


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        marlmap.search("gemm:M=4", marlmap.arch("eyeriss"))
    with pytest.raises(TypeError):
        marlmap.layer(None)
