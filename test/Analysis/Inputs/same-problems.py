"""Checks that two --marl-describe=format=json reports list the same
problems, op by op, whatever the loops are named."""

import json
import re
import sys


def problems(path):
    found = []
    for op in json.load(open(path))["ops"]:
        if not op["mappable"]:
            found.append(None)
            continue
        # Loop names become their positions: d0, d1, ...
        rename = {name: f"d{i}" for i, name in enumerate(op["loop_names"])}
        anonymous = lambda text: re.sub(
            r"[A-Za-z_][A-Za-z_0-9]*", lambda m: rename.get(m.group(0),
                                                            m.group(0)), text)
        found.append({
            "loops": op["loops"],
            "iterators": op["iterators"],
            "operands": [dict(o, projection=[anonymous(p) for p in
                                             o["projection"]])
                         for o in op["operands"]],
        })
    return found


named, generic = problems(sys.argv[1]), problems(sys.argv[2])
assert named == generic, "the problems differ"
print(f"{len(named)} ops, the same problems")
