"""marlmap's searchers against Timeloop's mapper, on Timeloop's own inputs.

../shared/reference/timeloop holds Timeloop v3.0.3 hybrid-mapper runs: per
architecture and layer, the architecture, problem and mapspace constraints
the mapper searched, how many mappings it evaluated and how long it took
(mapper-anchors.csv). This study runs marlmap's searchers in-process (the
marlmap module) on the same inputs, with the same constraints, at a tenth
of the mappings Timeloop evaluated (valid plus invalid, as marlmap counts
its budget) and at as many, several seeds each, one search at a time, and
writes REPORT (Markdown) and its JSON:

  * per architecture and searcher: on how many cases the median EDP over the
    seeds is at most the lowest EDP of Timeloop's three runs of the case,
    the median EDP ratio, and the median time ratio;
  * the target: marl at a tenth of the evaluations, in less wall time than
    Timeloop took, at most Timeloop's lowest EDP on at least 80% of cases;
  * every case, every searcher.

Every mapping reported is checked against the case's constraints file by
the study's own reading of Timeloop's rules (timeloop_rules, not
marlmap's), on the Timeloop mapping marlmap writes for it; a violation
stops the race.

    PYTHONPATH=build/python /usr/bin/python3 -m marlmap.studies.timeloop_race \\
        --seeds 3 --out docs/study/TIMELOOP_RACE.md
"""

import csv
import json
import pathlib
import statistics
import sys
import tempfile
import time

import yaml

import marlmap

from . import cli, paths, reports
from .running import policy_load_seconds
from .timeloop_rules import violations
from .workloads import COMPARED_FACTORS


def load_cases(reference, only):
    """Per arch x layer of mapper-anchors.csv: Timeloop's figures and the
    inputs its mapper searched."""
    cases = []
    with open(reference / "mapper-anchors.csv") as anchors:
        for row in csv.DictReader(anchors):
            name = f"{row['arch']}__{row['layer']}"
            if only and not any(part in name for part in only):
                continue
            case = json.loads((reference / "cases" /
                               f"{name}__best_edp.json").read_text())
            inputs = case["timeloop_inputs"]
            cases.append({
                "name": name,
                "arch": row["arch"],
                "evaluated": int(row["valid_evaluated"]) +
                int(row["invalid_evaluated"]),
                "seconds": float(row["wall_s"]),
                "edp": float(row["lowest_edp_of_3_pJ_cycles"]),
                "arch_yaml": inputs["arch_yaml"],
                "problem_yaml": inputs["problem_yaml"],
                "constraints_yaml": inputs["mapper_inputs_for_reference"]
                ["constraints_yaml"],
            })
    return cases


def case_inputs(case, folder):
    """The case's problem and its constrained architecture, read from the
    files Timeloop's mapper searched (written into `folder`)."""
    files = {}
    for key in ("arch_yaml", "problem_yaml", "constraints_yaml"):
        files[key] = folder / f"{case['name']}.{key.split('_')[0]}.yaml"
        files[key].write_text(case[key])
    arch = marlmap.arch(str(files["arch_yaml"]),
                        constraints=str(files["constraints_yaml"]))
    return marlmap.timeloop_problem(str(files["problem_yaml"])), arch


def race_one(case, folder, searcher, budget, seed):
    """One search: EDP, seconds, and the constraints checked."""
    problem, arch = case_inputs(case, folder)
    start = time.perf_counter()
    found = marlmap.search(problem, arch, searcher=searcher, budget=budget,
                           seed=seed, factors=COMPARED_FACTORS)
    seconds = time.perf_counter() - start
    if not found.found:
        return {"edp": None, "seconds": seconds}
    bounds = {dim: value for dim, value in
              yaml.safe_load(case["problem_yaml"])["problem"]["instance"]
              .items() if len(dim) == 1}
    broken = violations(case["constraints_yaml"],
                        found.mapping.timeloop_yaml(), bounds)
    if broken:
        raise SystemExit(f"{case['name']}: {searcher} seed {seed} broke "
                         f"{broken}")
    figures = found.figures
    return {"edp": figures["energy_pJ"] * figures["cycles"],
            "seconds": seconds}


def summarise(cases, results, searchers, fractions):
    """Per arch, searcher and fraction: wins, median ratios."""
    rows = []
    for arch in sorted({case["arch"] for case in cases}):
        mine = [case for case in cases if case["arch"] == arch]
        for searcher in searchers:
            for fraction in fractions:
                wins = fast_wins = 0
                edp_ratios, time_ratios = [], []
                for case in mine:
                    runs = results[case["name"]][searcher][str(fraction)]
                    edps = [run["edp"] or float("inf") for run in runs]
                    edp = statistics.median(edps)
                    seconds = statistics.median(run["seconds"]
                                                for run in runs)
                    wins += edp <= case["edp"]
                    fast_wins += edp <= case["edp"] and \
                        seconds < case["seconds"]
                    edp_ratios.append(edp / case["edp"])
                    time_ratios.append(seconds / case["seconds"])
                rows.append({"arch": arch, "searcher": searcher,
                             "fraction": fraction, "cases": len(mine),
                             "wins": wins, "fast_wins": fast_wins,
                             "edp_ratio": statistics.median(edp_ratios),
                             "time_ratio": statistics.median(time_ratios)})
    return rows


def report(options, cases, results, rows, load_seconds):
    """REPORT.md's text."""
    fractions = options.fractions
    lines = [
        "# marlmap against Timeloop's mapper on Timeloop's inputs", "",
        reports.written_by("marlmap.studies.timeloop_race"), "",
        f"Measured at commit {reports.commit()}.", "",
        "Each case is one architecture x layer of "
        "`../shared/reference/timeloop` (Timeloop v3.0.3, hybrid mapper, "
        "2 threads on this 2-core machine): marlmap searches the same "
        "architecture, problem and mapspace constraints (read from the "
        "case's files by `marlmap.arch(spec, constraints=file)`), with the "
        "same cost model (marlmap's reproduces timeloop-model on every "
        "reference case), one search at a time on one thread, "
        f"{options.seeds} seeds per case. The budget is a fraction of the "
        "mappings Timeloop's mapper evaluated, valid plus invalid, as "
        "marlmap counts its samples. A case is won when the median EDP over "
        "the seeds is at most the lowest EDP of Timeloop's three runs of "
        "the case (`lowest_edp_of_3_pJ_cycles`); *won in less time* also "
        "needs the median search time below the wall time of Timeloop's "
        "run. Ratios are marlmap / Timeloop (below 1: marlmap better or "
        "faster), medians over the cases. Every mapping reported was "
        "checked against the case's constraints file by the script's own "
        "reading of Timeloop's rules.", "",
        f"The policy library (LibTorch) loads once per process, before the "
        f"first learned search: {load_seconds:.2f} s here, not counted in "
        f"the search times.", "",
        reports.row(["arch", "searcher", "budget", "cases won",
                     "won in less time", "median EDP ratio",
                     "median time ratio"]),
        reports.rule("llrrrrr")]
    for row in rows:
        lines.append(reports.row([
            row["arch"], row["searcher"], f"{row['fraction']:g}x",
            f"{row['wins']}/{row['cases']}",
            f"{row['fast_wins']}/{row['cases']}",
            f"{row['edp_ratio']:.3f}", f"{row['time_ratio']:.3g}"]))
    # The target, over every case.
    tenth = min(fractions)
    marl = [row for row in rows
            if row["searcher"] == "marl" and row["fraction"] == tenth]
    if marl:
        won = sum(row["fast_wins"] for row in marl)
        total = sum(row["cases"] for row in marl)
        verdict = "met" if won >= 0.8 * total else "missed"
        lines += ["", f"**Target** (marl at {tenth:g}x Timeloop's "
                  f"evaluations, in less wall time, EDP at most Timeloop's "
                  f"lowest on at least 80% of cases): {won}/{total} cases "
                  f"({100 * won / total:.0f}%), {verdict}."]
    lines += ["", "## Every case", "",
              "EDP ratio (median over seeds, min-max) and median seconds; "
              "Timeloop's evaluations and seconds.", "",
              reports.row(["case", "Timeloop evaluations", "Timeloop s"] +
                          [f"{s} {f:g}x" for s in options.searchers
                           for f in fractions]),
              reports.rule("lrr" + "r" * (len(options.searchers) *
                                          len(fractions)))]
    for case in cases:
        cells = []
        for searcher in options.searchers:
            for fraction in fractions:
                runs = results[case["name"]][searcher][str(fraction)]
                ratios = [(run["edp"] or float("inf")) / case["edp"]
                          for run in runs]
                seconds = statistics.median(run["seconds"] for run in runs)
                cells.append(f"{statistics.median(ratios):.3f} "
                             f"({min(ratios):.2f}-{max(ratios):.2f}), "
                             f"{seconds:.2f} s")
        lines.append(reports.row([case["name"], str(case["evaluated"]),
                                  f"{case['seconds']:.1f}"] + cells))
    return "\n".join(lines) + "\n"


def main():
    parser = cli.parser(__doc__)
    parser.add_argument("--reference", type=pathlib.Path,
                        default=paths.TIMELOOP_REFERENCE,
                        help="Timeloop's runs (default: "
                             "../shared/reference/timeloop)")
    parser.add_argument("--searchers", nargs="+",
                        default=["marl", "genetic", "random"])
    parser.add_argument("--fractions", nargs="+", type=float,
                        default=[0.1, 1.0],
                        help="budgets as fractions of Timeloop's evaluations")
    cli.add_seeds(parser, 3)
    parser.add_argument("--cases", nargs="*", default=[],
                        help="only cases whose name contains one of these")
    cli.add_report_out(parser)
    options = parser.parse_args()

    cases = load_cases(options.reference, options.cases)
    if not cases:
        raise SystemExit(f"no cases in {options.reference}")
    load_seconds = policy_load_seconds()

    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        for case in cases:
            results[case["name"]] = {}
            for searcher in options.searchers:
                per = results[case["name"]][searcher] = {}
                for fraction in options.fractions:
                    budget = max(1, round(fraction * case["evaluated"]))
                    per[str(fraction)] = [
                        race_one(case, folder, searcher, budget, seed)
                        for seed in range(1, options.seeds + 1)]
            print(f"{case['name']}: done", file=sys.stderr)
    rows = summarise(cases, results, options.searchers, options.fractions)
    reports.write_report(
        options.out, report(options, cases, results, rows, load_seconds),
        {"cases": [{k: v for k, v in case.items() if not k.endswith("yaml")}
                   for case in cases],
         "results": results, "summary": rows,
         "policy_load_seconds": load_seconds})


if __name__ == "__main__":
    main()
