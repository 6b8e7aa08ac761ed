#!/usr/bin/env python3
"""Runs --marl-map, then --marl-apply, on networks and checks the results.

For each file: both passes succeed, both outputs verify, every convolution,
depthwise convolution, matmul and batch_matmul carries an accel.mapping and
an accel.cost after --marl-map, and none is left after --marl-apply (every
mapped op became loops around its tile). Says how many of the mapped ops
the report gives partial tiles (a factor space other than perfect).
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys
import tempfile

CONTRACTIONS = ("linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf",
                "linalg.depthwise_conv_2d_nchw_chw", "linalg.matmul",
                "linalg.batch_matmul")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--opt", required=True)
    parser.add_argument("--options", default="")
    parser.add_argument("files", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    failures = 0
    for path in args.files:
        problems = []
        partial = 0
        with tempfile.NamedTemporaryFile(suffix=".mlir") as out, \
                tempfile.NamedTemporaryFile(suffix=".json") as report:
            mapped = subprocess.run(
                [args.opt, str(path),
                 f"--marl-map={args.options} report={report.name}",
                 "-o", out.name], capture_output=True, text=True)
            if mapped.returncode == 0:
                partial = sum(op.get("factors", "perfect") != "perfect"
                              for op in json.load(report)["ops"])
            if mapped.returncode != 0:
                problems.append("marl-map failed: " + mapped.stderr[-500:])
            else:
                verified = subprocess.run([args.opt, out.name, "-o", "/dev/null"],
                                          capture_output=True, text=True)
                if verified.returncode != 0:
                    problems.append("output does not verify: " +
                                    verified.stderr[-500:])
                text = pathlib.Path(out.name).read_text()
                applied = subprocess.run(
                    [args.opt, out.name, "--marl-apply"], capture_output=True,
                    text=True)
                if applied.returncode != 0:
                    problems.append("marl-apply failed: " + applied.stderr[-500:])
                elif "accel.mapping" in applied.stdout:
                    problems.append("marl-apply left a mapping")
                else:
                    reparsed = subprocess.run(
                        [args.opt, "-", "-o", "/dev/null"], input=applied.stdout,
                        capture_output=True, text=True)
                    if reparsed.returncode != 0:
                        problems.append("applied output does not verify: " +
                                        reparsed.stderr[-500:])
                ops = 0
                for line in text.splitlines():
                    match = re.search(r"= (linalg\.[a-z_0-9]+)", line)
                    if not match or match.group(1) not in CONTRACTIONS:
                        continue
                    ops += 1
                    if "accel.mapping" not in line or "accel.cost" not in line:
                        problems.append(f"unmapped: {line.strip()[:120]}")
        status = "ok" if not problems else "FAIL: " + "; ".join(problems[:3])
        print(f"{path.name}: {ops if not problems else '?'} contractions: "
              f"{status}, {partial} ops with partial tiles")
        failures += bool(problems)
    print(f"{len(args.files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
