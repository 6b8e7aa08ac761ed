#!/usr/bin/env python3
"""Checks marlmap-opt on every network of a corpus folder.

For each file:
  * round trip: marlmap-opt prints it exactly as stock mlir-opt does, its
    output is a fixed point, and the generic form parses back to the same IR;
  * inventory: --marl-describe lists every linalg op, every convolution and
    (batch) matmul is mappable, and the counts of named ops match the corpus
    README's table where it has a row for the file.
"""

import argparse
import collections
import pathlib
import re
import subprocess
import sys

# Column of the README table -> op name that --marl-describe prints.
README_COLUMNS = {
    "conv_2d_nchw_fchw": "linalg.conv_2d_nchw_fchw",
    "depthwise_conv_2d_nchw_chw": "linalg.depthwise_conv_2d_nchw_chw",
    "matmul": "linalg.matmul",
    "batch_matmul": "linalg.batch_matmul",
    "generic": "linalg.generic",
}


def run(args, stdin=None):
    result = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stderr}")
    return result.stdout


def readme_counts(readme):
    """{file stem prefix: {op: count}} from the corpus README's op table."""
    counts = {}
    header = None
    for line in readme.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "file" and "generic" in cells:
            header = cells
            continue
        if header and len(cells) == len(header) and not set(cells[0]) <= {"-"}:
            row = dict(zip(header, cells))
            counts[row["file"]] = {
                op: int(row[column])
                for column, op in README_COLUMNS.items()
                if column in row
            }
        elif header and not line.strip():
            header = None
    return counts


def counts_for(stem, table):
    """The README names files by a short name: resnet18, deepseek decode."""
    for name, counts in table.items():
        key = name.split()[0]
        if stem.endswith(key) or stem.startswith(key) or key in stem:
            return counts
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("corpus", type=pathlib.Path)
    args = parser.parse_args()

    table = readme_counts(args.corpus / "README.md")
    failures = 0
    files = sorted(args.corpus.glob("*.mlir"))
    for path in files:
        problems = []
        printed = run([args.opt, str(path)])
        if printed != run([args.reference, str(path)]):
            problems.append("prints differently from stock mlir-opt")
        if run([args.opt, "-"], stdin=printed) != printed:
            problems.append("printed form is not a fixed point")
        generic = run([args.opt, "--mlir-print-op-generic", str(path)])
        if run([args.opt, "-"], stdin=generic) != printed:
            problems.append("generic form does not parse back to the same IR")

        described = run([args.opt, "--marl-describe", "-o", "/dev/null", str(path)])
        listed = re.findall(r"^  #\d+ (\S+) at ", described, re.M)
        total = int(re.search(r"^linalg ops: (\d+)", described, re.M).group(1))
        if total != len(listed):
            problems.append(f"lists {len(listed)} of {total} linalg ops")
        found = collections.Counter(listed)
        # Every contraction a real network holds must be mappable.
        for op in re.findall(r"^  #\d+ (\S+) at \S+: not mappable", described, re.M):
            if op in README_COLUMNS.values() and op != "linalg.generic":
                problems.append(f"a {op} is not mappable")
        expected = counts_for(path.stem, table)
        # The README's table does not cover every file; round trip still does.
        for op, count in (expected or {}).items():
            if found[op] != count:
                problems.append(f"{op}: {found[op]} listed, README says {count}")
        status = "ok" if not problems else "FAIL: " + "; ".join(problems)
        checked = "" if expected else " (no README counts)"
        print(f"{path.name}: {total} linalg ops{checked}: {status}")
        failures += bool(problems)
    print(f"{len(files) - failures} passed, {failures} failed")
    return 1 if failures or not files else 0


if __name__ == "__main__":
    sys.exit(main())
