#!/usr/bin/env python3
"""Which torchvision classification models the importer takes: imports each
(the architecture, no weights, on one example image), counts the
multiply-accumulates of the imported convolutions and matmuls, and
compares them with PyTorch's own count (its profiler's FLOPs of conv2d,
mm, addmm, bmm and matmul, two per MAC). One line per model, then a
summary; exits 1 if any model fails or differs.

usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/import_coverage.py
           [MODEL ...]     (default: every model torchvision lists)
"""

import sys
import time

import torch
import torchvision.models as models
from torch.profiler import ProfilerActivity, profile

import marlmap
from marlmap.importer import from_torch

COUNTED = {"aten::conv2d", "aten::mm", "aten::addmm", "aten::bmm",
           "aten::matmul"}


def pytorch_macs(model, image):
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU],
                                  with_flops=True) as run:
        model(image)
    return sum(event.flops for event in run.events()
               if event.flops and event.name in COUNTED) // 2


def imported_macs(text):
    return sum(op.problem.macs for op in marlmap.ops(text)
               if op.problem and ("conv" in op.op or "matmul" in op.op))


def main():
    names = sys.argv[1:] or models.list_models(module=models)
    failed = 0
    for name in names:
        with torch.random.fork_rng(devices=[]):
            model = getattr(models, name)(weights=None).eval()
        size = 299 if name.startswith("inception") else 224
        image = torch.zeros(1, 3, size, size)
        start = time.perf_counter()
        try:
            text = from_torch(model, image, name=name)
        except Exception as error:  # noqa: BLE001 (reported, counted)
            print(f"{name:22s} FAILED {type(error).__name__}: {error}")
            failed += 1
            continue
        seconds = time.perf_counter() - start
        ours, theirs = imported_macs(text), pytorch_macs(model, image)
        verdict = "equal" if ours == theirs else "DIFFER"
        failed += ours != theirs
        print(f"{name:22s} {seconds:5.1f} s  {len(marlmap.ops(text)):5d} "
              f"linalg ops  MACs {ours} (PyTorch {theirs}) {verdict}",
              flush=True)
    print(f"{len(names) - failed} of {len(names)} models imported with "
          "PyTorch's MAC count")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
