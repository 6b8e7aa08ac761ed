#!/usr/bin/env python3
"""Runs --marl-map on networks of a corpus folder and checks the result.

For each file: the pass succeeds, the output verifies, and every
convolution, depthwise convolution, matmul and batch_matmul carries an
accel.mapping and an accel.cost.
"""

import argparse
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
        with tempfile.NamedTemporaryFile(suffix=".mlir") as out:
            mapped = subprocess.run(
                [args.opt, str(path), f"--marl-map={args.options}",
                 "-o", out.name], capture_output=True, text=True)
            if mapped.returncode != 0:
                problems.append("marl-map failed: " + mapped.stderr[-500:])
            else:
                verified = subprocess.run([args.opt, out.name, "-o", "/dev/null"],
                                          capture_output=True, text=True)
                if verified.returncode != 0:
                    problems.append("output does not verify: " +
                                    verified.stderr[-500:])
                text = pathlib.Path(out.name).read_text()
                ops = 0
                for line in text.splitlines():
                    match = re.search(r"= (linalg\.[a-z_0-9]+)", line)
                    if not match or match.group(1) not in CONTRACTIONS:
                        continue
                    ops += 1
                    if "accel.mapping" not in line or "accel.cost" not in line:
                        problems.append(f"unmapped: {line.strip()[:120]}")
        status = "ok" if not problems else "FAIL: " + "; ".join(problems[:3])
        print(f"{path.name}: {ops if not problems else '?'} contractions: {status}")
        failures += bool(problems)
    print(f"{len(args.files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
