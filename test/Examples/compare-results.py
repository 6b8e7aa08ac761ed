"""Checks that the pass's report, the explorer's and the embedding example's
figures for one network are the same, op by op and in total."""

import json
import re
import sys

passed, explored, example = sys.argv[1:4]
pass_report = json.load(open(passed))
explore_report = json.load(open(explored))


def figures(report):
    ops = [(o["location"], o["cycles"], o["energy_pJ"], o["mapping"])
           for o in report["ops"]]
    totals = dict(report["totals"])
    del totals["seconds"]
    return ops, totals


assert figures(pass_report) == figures(explore_report), "pass != explorer"
lines = [l for l in open(example) if re.match(r".*: \d+ cycles, ", l)]
assert len(lines) == len(pass_report["ops"]), "example: wrong op count"
for line, op in zip(lines, pass_report["ops"]):
    location, cycles, energy = re.match(
        r"(.*): (\d+) cycles, (\S+) pJ", line).groups()
    assert location == op["location"], (location, op["location"])
    assert int(cycles) == op["cycles"], (cycles, op["cycles"])
    assert abs(float(energy) - op["energy_pJ"]) <= 1e-12 * op["energy_pJ"]
total = open(example).read().split("total: ")[1]
assert f"{pass_report['totals']['cycles']} cycles" in total, total
print(f"same figures: {len(lines)} ops")
