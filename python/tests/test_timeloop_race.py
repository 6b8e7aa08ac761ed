"""The race against Timeloop's mapper: its own constraint checker, and one
case run end to end."""

import pytest

import marlmap
from marlmap.studies import timeloop_race
from marlmap.studies.paths import TIMELOOP_REFERENCE as REFERENCE
from marlmap.studies.timeloop_rules import violations


@pytest.fixture(scope="module")
def cases():
    if not (REFERENCE / "mapper-anchors.csv").is_file():
        pytest.skip(f"no reference in {REFERENCE}")
    return {case["name"]: case for case in
            timeloop_race.load_cases(REFERENCE, ["resnet50_res2_3x3_64"])}


def bounds(case):
    import yaml
    instance = yaml.safe_load(case["problem_yaml"])["problem"]["instance"]
    return {dim: value for dim, value in instance.items() if len(dim) == 1}


def test_the_checker_passes_timeloops_own_mappings(cases):
    import json
    for name, case in cases.items():
        mapping = json.loads((REFERENCE / "cases" / f"{name}__best_edp.json")
                             .read_text())["timeloop_inputs"]["mapping_yaml"]
        assert violations(case["constraints_yaml"], mapping,
                          bounds(case)) == [], name


def test_the_checker_catches_a_mapping_the_array_cannot_run(cases,
                                                            tmp_path):
    # The weight-stationary array's space without its constraints: the
    # best mapping of a search there spreads what the array cannot.
    case = cases["ws16__resnet50_res2_3x3_64"]
    arch_path = tmp_path / "arch.yaml"
    problem_path = tmp_path / "problem.yaml"
    arch_path.write_text(case["arch_yaml"])
    problem_path.write_text(case["problem_yaml"])
    found = marlmap.search(marlmap.timeloop_problem(str(problem_path)),
                           marlmap.arch(str(arch_path)), budget=2000)
    broken = violations(case["constraints_yaml"],
                        found.mapping.timeloop_yaml(), bounds(case))
    assert broken, "an unconstrained mapping passed the checker"


def test_a_race_of_one_case(cases, tmp_path):
    case = cases["ws16__resnet50_res2_3x3_64"]
    run = timeloop_race.race_one(case, tmp_path, "genetic", 200, 1)
    assert run["edp"] > 0 and run["seconds"] >= 0
