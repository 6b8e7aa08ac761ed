#!/usr/bin/env python3
"""marlmap's searchers against Timeloop's mapper, on Timeloop's own inputs.

../shared/reference/timeloop holds Timeloop v3.0.3 hybrid-mapper runs: per
architecture and layer, the architecture, problem and mapspace constraints
the mapper searched, how many mappings it evaluated and how long it took
(mapper-anchors.csv). This script runs marlmap's searchers in-process (the
marlmap module of the build, docs/Python.md) on the same inputs, with the
same constraints, at a tenth of the mappings Timeloop evaluated (valid plus
invalid, as marlmap counts its budget) and at as many, several seeds each,
one search at a time, and writes REPORT (Markdown) and its JSON:

  * per architecture and searcher: on how many cases the median EDP over the
    seeds is at most the lowest EDP of Timeloop's three runs of the case,
    the median EDP ratio, and the median time ratio;
  * the target: marl at a tenth of the evaluations, in less wall time than
    Timeloop took, at most Timeloop's lowest EDP on at least 80% of cases;
  * every case, every searcher.

Every mapping reported is checked against the case's constraints file by
this script's own reading of Timeloop's rules (not marlmap's), on the
Timeloop mapping marlmap writes for it; a violation stops the race.

    /usr/bin/python3 python/timeloop_race.py --seeds 3 \\
        --out docs/study/TIMELOOP_RACE.md
"""

import argparse
import csv
import json
import pathlib
import statistics
import sys
import tempfile
import time

import yaml

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import search_study  # noqa: E402

CHECKOUT = pathlib.Path(__file__).resolve().parent.parent
DIMS = "NKCPQRSG"


# --- Timeloop's constraint rules, read independently of marlmap ------------

def targets(constraints_yaml):
    """Flat (target, type, body) triples of a Timeloop constraints file."""
    root = yaml.safe_load(constraints_yaml)
    section = root.get("mapspace", root.get("mapspace_constraints", {}))
    items = section.get("constraints", []) if isinstance(section, dict) \
        else section
    flat = []
    if not items:
        raise SystemExit("no constraint targets found in a case's "
                         "constraints file: the checker reads the "
                         "mapspace: {constraints: [...]} layout")
    for item in items:
        for nested in item.get("constraints", [item]):
            body = dict(nested.get("attributes", {}), **nested)
            flat.append((item.get("target", nested.get("target")),
                         nested["type"], body))
    return flat


def factors(text):
    """{'R': ('=', 1), 'C': ('<=', 4)} from 'R1 C<=4'."""
    out, i = {}, 0
    text = str(text)
    while i < len(text):
        if not text[i].isalpha():
            i += 1
            continue
        dim = text[i]
        i += 1
        op = "="
        if text.startswith("<=", i):
            op, i = "<=", i + 2
        while i < len(text) and text[i] in "= ":
            i += 1
        j = i
        while j < len(text) and text[j].isdigit():
            j += 1
        out[dim] = (op, int(text[i:j]))
        i = j
    return out


def mapping_levels(mapping_yaml):
    """Per level: temporal factors and permutation, spatial factors and the
    dims on X, keep list."""
    levels = {}
    for entry in yaml.safe_load(mapping_yaml)["mapping"]:
        level = levels.setdefault(entry["target"], {})
        if entry["type"] == "datatype":
            level["keep"] = set(entry.get("keep") or [])
        elif entry["type"] == "temporal":
            level["temporal"] = {d: v for d, (_, v) in
                                 factors(entry["factors"]).items()}
            level["permutation"] = entry["permutation"].replace(" ", "")
        elif entry["type"] == "spatial":
            level["spatial"] = {d: v for d, (_, v) in
                                factors(entry["factors"]).items()}
            perm = entry["permutation"].replace(" ", "")
            level["on_x"] = set(perm[:int(entry.get("split", len(perm)))])
    return levels


def violations(constraints_yaml, mapping_yaml, bounds):
    """What the Timeloop mapping breaks of the constraints, as text."""
    levels = mapping_levels(mapping_yaml)
    broken = []
    for target, kind, body in targets(constraints_yaml):
        target = str(target).split("[")[0]
        if target not in levels:
            raise SystemExit(f"the mapping has no level '{target}'")
        level = levels[target]
        if kind in ("temporal", "spatial"):
            have = level.get(kind, {})
            written = body.get("factors", "")
            if isinstance(written, list):
                written = " ".join(written)
            for dim, (op, value) in factors(written).items():
                if dim not in bounds:
                    continue
                got = have.get(dim, 1)
                want = bounds[dim] if value == 0 else value
                if op == "<=" and got > value:
                    broken.append(f"{target} {kind} {dim}<={value}: {got}")
                elif op == "=" and want <= bounds[dim] and got != want:
                    broken.append(f"{target} {kind} {dim}={want}: {got}")
        if kind == "temporal" and "permutation" in body:
            # Listed dims are the innermost; only loops that iterate count.
            listed = [d for d in "".join(body["permutation"]) if d in bounds]
            temporal = level.get("temporal", {})
            moving = [d for d in level.get("permutation", "")
                      if temporal.get(d, 1) > 1]
            inner = [d for d in listed if temporal.get(d, 1) > 1]
            if moving[:len(inner)] != inner:
                broken.append(f"{target} permutation {body['permutation']}: "
                              f"{level.get('permutation')}")
        if kind == "spatial" and "split" in body:
            perm = "".join(body["permutation"]).replace(" ", "")
            split = int(body["split"])
            x = set(perm[:split]) | (set(DIMS) - set(perm)
                                     if split >= len(perm) else set())
            for dim, got in level.get("spatial", {}).items():
                on_x = dim in level.get("on_x", set())
                if got > 1 and on_x != (dim in x):
                    broken.append(f"{target} spatial {dim} along "
                                  f"{'X' if on_x else 'Y'}")
        if kind in ("datatype", "bypass", "bypassing", "dataspace"):
            keep = level.get("keep", set())
            for space in body.get("keep") or []:
                if space not in keep:
                    broken.append(f"{target} keep {space}")
            for space in body.get("bypass") or []:
                if space in keep and target != list(levels)[-1]:
                    broken.append(f"{target} bypass {space}")
    return broken


# --- the race --------------------------------------------------------------

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


def race_one(marlmap, case, folder, searcher, budget, seed):
    """One search: EDP, seconds, and the constraints checked."""
    paths = {}
    for key in ("arch_yaml", "problem_yaml", "constraints_yaml"):
        paths[key] = folder / f"{case['name']}.{key.split('_')[0]}.yaml"
        paths[key].write_text(case[key])
    arch = marlmap.arch(str(paths["arch_yaml"]),
                        constraints=str(paths["constraints_yaml"]))
    problem = marlmap.timeloop_problem(str(paths["problem_yaml"]))
    start = time.perf_counter()
    found = marlmap.search(problem, arch, searcher=searcher, budget=budget,
                           seed=seed)
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
        "Written by `python/timeloop_race.py` "
        f"(`{' '.join(sys.argv[1:])}`).", "",
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
        "| arch | searcher | budget | cases won | won in less time | "
        "median EDP ratio | median time ratio |",
        "|---|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['arch']} | {row['searcher']} | "
                     f"{row['fraction']:g}x | {row['wins']}/{row['cases']} | "
                     f"{row['fast_wins']}/{row['cases']} | "
                     f"{row['edp_ratio']:.3f} | {row['time_ratio']:.3g} |")
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
              "| case | Timeloop evaluations | Timeloop s | " +
              " | ".join(f"{s} {f:g}x" for s in options.searchers
                         for f in fractions) + " |",
              "|---|---:|---:|" + "---:|" * (len(options.searchers) *
                                          len(fractions))]
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
        lines.append(f"| {case['name']} | {case['evaluated']} | "
                     f"{case['seconds']:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", type=pathlib.Path,
                        default=CHECKOUT.parent / "shared" / "reference" /
                        "timeloop")
    parser.add_argument("--build", type=pathlib.Path,
                        help="build folder with the marlmap module "
                             "(default: the checkout's build/)")
    parser.add_argument("--searchers", nargs="+",
                        default=["marl", "genetic", "random"])
    parser.add_argument("--fractions", nargs="+", type=float,
                        default=[0.1, 1.0],
                        help="budgets as fractions of Timeloop's evaluations")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--cases", nargs="*", default=[],
                        help="only cases whose name contains one of these")
    parser.add_argument("--out", type=pathlib.Path, required=True,
                        help="the report (Markdown); its JSON goes beside it")
    options = parser.parse_args()
    search_study.import_marlmap(options.build)
    marlmap = search_study.marlmap

    cases = load_cases(options.reference, options.cases)
    if not cases:
        raise SystemExit(f"no cases in {options.reference}")
    # The policy library's one-time load, measured on its own.
    start = time.perf_counter()
    marlmap.search(marlmap.layer("gemm:M=2,N=2,K=2"), marlmap.arch("edge"),
                   searcher="marl", budget=1)
    load_seconds = time.perf_counter() - start

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
                        race_one(marlmap, case, folder, searcher, budget,
                                 seed) for seed in range(1, options.seeds + 1)]
            print(f"{case['name']}: done", file=sys.stderr)
    rows = summarise(cases, results, options.searchers, options.fractions)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(report(options, cases, results, rows,
                                  load_seconds))
    options.out.with_suffix(".json").write_text(json.dumps(
        {"cases": [{k: v for k, v in case.items() if not k.endswith("yaml")}
                   for case in cases],
         "results": results, "summary": rows,
         "policy_load_seconds": load_seconds}, indent=1) + "\n")


if __name__ == "__main__":
    main()
