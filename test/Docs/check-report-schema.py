"""Checks that a report has the fields of the example in docs/Report.md,
with the same types, and nothing else: the documented schema cannot drift
from what the tools write."""

import json
import re
import sys

# Objects keyed by names from the input (levels, operands, loops): their
# entries are checked against the example's first entry instead of by key.
NAMED = {"levels", "level_figures", "mapping", "temporal", "spatial_x",
         "spatial_y"}


def kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def compare(documented, actual, path, named=False, errors=None):
    if documented is None or actual is None:
        return  # null stands for "a value or none" (unbounded, no budget)
    if kind(documented) != kind(actual):
        errors.append(f"{path}: {kind(actual)}, documented {kind(documented)}")
        return
    if isinstance(documented, list):
        for item in actual[:1] if documented else []:
            compare(documented[0], item, path + "[]", errors=errors)
        return
    if not isinstance(documented, dict):
        return
    if named:
        if documented:
            sample = next(iter(documented.values()))
            for key, value in actual.items():
                compare(sample, value, f"{path}.<{key}>",
                        named=path.endswith(".levels"), errors=errors)
        return
    for key in sorted(set(documented) | set(actual)):
        if key not in actual:
            errors.append(f"{path}.{key}: documented, not written")
        elif key not in documented:
            errors.append(f"{path}.{key}: written, not documented")
        else:
            compare(documented[key], actual[key], f"{path}.{key}",
                    named=key in NAMED, errors=errors)


doc, report = sys.argv[1:3]
example = re.search(r"```json\n(.*?)\n```", open(doc).read(), re.S).group(1)
errors = []
compare(json.loads(example), json.load(open(report)), "report", errors=errors)
for error in errors:
    print(error)
print("schema ok" if not errors else f"{len(errors)} differences")
sys.exit(1 if errors else 0)
