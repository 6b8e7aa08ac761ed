#!/usr/bin/env python3
"""Checks marlmap's presets against the architectures of the Timeloop
reference cases they reproduce: same levels in the same order, same sizes,
meshes and bandwidths, the PAT energies Timeloop computed for those levels, and
`holds` that allow everything the reference mappings keep."""

import argparse
import json
import math
import pathlib
import subprocess
import sys

PRESETS = {"eyeriss": "eyeriss", "simba": "simba", "systolic-ws": "ws16",
           "systolic-os": "os16"}
ROLES = {"Inputs": "inputs", "Weights": "weights", "Outputs": "outputs"}


def describe(opt, preset):
    out = subprocess.run(
        [opt, "-", "-o", "/dev/null",
         f"--marl-describe=arch={preset} format=json"],
        input="module {}\n", capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["target"]


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-12)


def check(preset, arch, cases):
    problems = []
    reference = cases[0]["arch"]
    # Levels that hold nothing and have no room only carry a fanout in
    # Timeloop; marlmap's mappings name X and Y spatial factors directly.
    ref_levels = [l for l in reference["storage_levels_inner_to_outer"]
                  if not (l["entries"] == 0 and not l["keeps"])]
    names = [l["name"] for l in arch["levels"]]
    if names != [l["name"] for l in ref_levels]:
        return [f"levels {names} differ from {[l['name'] for l in ref_levels]}"]
    kept = {l["name"]: set() for l in ref_levels}
    for case in cases:
        for level in case["arch"]["storage_levels_inner_to_outer"]:
            if level["name"] in kept:
                kept[level["name"]] |= {ROLES[k] for k in level["keeps"]}
    for ours, ref in zip(arch["levels"], ref_levels):
        name = ours["name"]
        for field in ["entries", "word_bits", "block_size", "instances",
                      "mesh_x", "mesh_y"]:
            if ours[field] != ref[field]:
                problems.append(f"{name}.{field}: {ours[field]} != {ref[field]}")
        for field in ["read_bandwidth", "write_bandwidth"]:
            if not close(ours[field], ref[field]):
                problems.append(f"{name}.{field}: {ours[field]} != {ref[field]}")
        for role, energy in ref["energy_per_access_pJ"].items():
            for field in ["read_energy", "write_energy", "update_energy"]:
                if not close(ours[field], energy):
                    problems.append(f"{name}.{field}: {ours[field]} != "
                                    f"{energy} ({role})")
        if not kept[name] <= set(ours["holds"]):
            problems.append(f"{name}.holds {ours['holds']} lacks "
                            f"{sorted(kept[name] - set(ours['holds']))}")
    macs = reference["arithmetic"]
    for field, ref_field in [("instances", "instances"), ("mesh_x", "mesh_x"),
                             ("mesh_y", "mesh_y"),
                             ("energy_per_mac", "energy_per_mac_pJ")]:
        if not close(float(arch["compute"][field]), float(macs[ref_field])):
            problems.append(f"compute.{field}: {arch['compute'][field]} != "
                            f"{macs[ref_field]}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("cases", type=pathlib.Path)
    args = parser.parse_args()
    failures = 0
    for preset, ref_name in PRESETS.items():
        cases = [json.loads(p.read_text())
                 for p in sorted(args.cases.glob(f"{ref_name}__*.json"))]
        problems = (check(preset, describe(args.opt, preset), cases)
                    if cases else ["no reference cases"])
        print(f"{preset} vs {ref_name} ({len(cases)} cases): "
              + ("ok" if not problems else "FAIL: " + "; ".join(problems)))
        failures += bool(problems)
    print(f"{len(PRESETS) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
