"""Dataflow constraints from Python: presets, Timeloop specs and files."""

import pytest

import marlmap

WS16 = "examples/timeloop/ws16.arch.yaml"


def split_spec(source_dir, tmp_path):
    """The ws16 spec without its constraints, and the constraints alone."""
    text = (source_dir / WS16).read_text()
    cut = text.index("mapspace:")
    bare, constraints = tmp_path / "bare.yaml", tmp_path / "c.yaml"
    bare.write_text(text[:cut])
    constraints.write_text(text[cut:])
    return str(bare), str(constraints)


def test_a_spec_and_a_separate_file_give_the_same_accelerator(source_dir,
                                                              tmp_path):
    inline = marlmap.arch(str(source_dir / WS16))
    bare, constraints = split_spec(source_dir, tmp_path)
    separate = marlmap.arch(bare, constraints=constraints)
    assert inline.constraints == separate.constraints
    assert len(inline.constraints) == 2
    # Without constraints, only Timeloop's one axis per dim.
    assert marlmap.arch(bare).constraints == [
        '#accel.constraint<"GlobalBuffer", exclusive_axes = true>']


def test_searches_keep_the_dataflow():
    arch = marlmap.arch("systolic-ws")
    problem = marlmap.layer("conv:K=64,C=64,P=14,Q=14,R=3,S=3")
    for searcher in ("random", "genetic", "annealing"):
        found = marlmap.search(problem, arch, searcher=searcher, budget=300)
        levels = found.mapping.to_json()
        assert set(levels["GlobalBuffer"]["spatial_x"]) <= {"K"}
        assert set(levels["GlobalBuffer"]["spatial_y"]) <= {"C"}
        assert set(levels["WeightReg"]["temporal"]) <= {"P", "Q", "N"}


def test_a_mapping_that_breaks_one_is_refused_naming_it():
    problem = marlmap.layer("gemm:M=16,N=8,K=32")
    arch = marlmap.arch("systolic-ws")
    text = ('#accel.mapping<[#accel.level<"WeightReg", keep = [1]>, '
            '#accel.level<"GlobalBuffer", spatial_x = [2, 1, 1], '
            'keep = [0, 1, 2]>, #accel.level<"DRAM", '
            'temporal = [8, 8, 32], keep = [0, 1, 2]>]>')
    with pytest.raises(ValueError, match="breaks the constraint on "
                       "'GlobalBuffer' 'x_dims': loop M \\(P\\) is spread 2 "
                       "ways along X"):
        marlmap.mapping(text, problem, arch)


def test_what_marlmap_cannot_represent_is_a_value_error(source_dir, tmp_path):
    bare, _ = split_spec(source_dir, tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("mapspace:\n  constraints:\n"
                   "  - {target: GlobalBuffer, type: temporal, "
                   "factors: C>=2}\n")
    with pytest.raises(ValueError, match="bad.yaml:3: 'C>=': smallest "
                       "factors are not supported"):
        marlmap.arch(bare, constraints=str(bad))
