#!/usr/bin/env python3
"""What a sweep costs on Dask: the same tasks (networks x accelerators,
each mapped by the Mapper) run in this process one after another, then on
a local cluster of 1 and of 2 workers; reports the cluster's start-up, the
tasks per minute and the overhead per task against the in-process calls.
Docs/Sweep.md has its figures.

usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/sweep_throughput.py
           [--networks FOLDER_OR_FILES...] [--budget 1000]
"""

import argparse
import time

from marlmap.studies.paths import CORPUS
from marlmap.sweep import engine, tasks

NETWORKS = [CORPUS / f"{name}.mlir" for name in
            ("hf_bert_tiny", "torchvision_mobilenet_v2",
             "torchvision_resnet18", "torchvision_squeezenet1_1")]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--budget", type=int, default=1000)
    args = parser.parse_args()
    accelerators = tasks.accelerators(
        ["eyeriss", "simba"], tasks.parse_grid("pe=8x8,16x16 glb_kb=64,256"))
    search = tasks.Search(searcher="genetic", budget=args.budget)
    todo = [tasks.Task(name, text, accelerator, search)
            for name, text in tasks.networks(args.networks)
            for accelerator in accelerators]
    start = time.perf_counter()
    for task in todo:
        tasks.run(task)
    alone = time.perf_counter() - start
    print(f"{len(todo)} tasks (genetic, budget {args.budget}): in this "
          f"process {alone:.2f} s, {alone / len(todo) * 1000:.0f} ms a task")
    for workers in (1, 2):
        start = time.perf_counter()
        with engine.client(workers=workers) as client:
            up = time.perf_counter() - start
            start = time.perf_counter()
            engine.run(client, todo, lambda task, row: None)
            ran = time.perf_counter() - start
        print(f"{workers} worker(s): cluster up in {up:.2f} s; tasks "
              f"{ran:.2f} s, {len(todo) / ran * 60:.0f} a minute; "
              f"{(ran * workers - alone) / len(todo) * 1000:.0f} ms a task "
              "more than in this process")


if __name__ == "__main__":
    main()
