#!/usr/bin/env python3
"""How far the exact searcher gets: for each layer of the search study (the
ten of python/search_study.py) on each accelerator, runs marlmap-explore
with searcher=optimal under a time limit and reports whether it proved the
optimum, the best EDP it found, the lower bound it certified and the gap
between them, beside marl's EDP at the same time and how far that is above
the bound. One case at a time, so that each has a core to itself.

usage: python3 benchmarks/optimal_proofs.py [--explore build/bin/marlmap-explore]
           [--time 60] [--archs eyeriss,simba] [--layers NAME,...]
"""

import argparse
import json
import subprocess
import time

# The layers of the search study (python/search_study.py).
LAYERS = {
    "resnet50_conv1": "conv:N=1,K=64,C=3,P=112,Q=112,R=7,S=7,stride=2",
    "resnet50_res2_1x1": "conv:N=1,K=256,C=64,P=56,Q=56,R=1,S=1",
    "resnet50_res2_3x3": "conv:N=1,K=64,C=64,P=56,Q=56,R=3,S=3",
    "resnet50_res5_3x3": "conv:N=1,K=512,C=512,P=7,Q=7,R=3,S=3",
    "vgg16_conv1_1": "conv:N=1,K=64,C=3,P=224,Q=224,R=3,S=3",
    "vgg16_conv3_2": "conv:N=1,K=256,C=256,P=56,Q=56,R=3,S=3",
    "mbv2_dw3x3_144": "dwconv:N=1,C=144,P=56,Q=56,R=3,S=3",
    "mbv2_pw_144_24": "conv:N=1,K=24,C=144,P=56,Q=56,R=1,S=1",
    "bert_base_qkv": "gemm:M=512,N=768,K=768",
    "bert_base_ffn1": "gemm:M=512,N=3072,K=768",
}


def explore(binary, layer, arch, searcher, seconds):
    """The explorer's JSON for one search, and its wall time."""
    start = time.perf_counter()
    out = subprocess.run(
        [binary, f"--layer={layer}", f"--arch={arch}",
         f"--searcher={searcher}", f"--time={seconds:g}", "--seed=1",
         "--format=json", "--progress=none"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--explore", default="build/bin/marlmap-explore")
    parser.add_argument("--time", type=float, default=60.0,
                        help="seconds per case for each searcher")
    parser.add_argument("--archs", default="eyeriss,simba")
    parser.add_argument("--layers", default=",".join(LAYERS))
    args = parser.parse_args()
    print("| layer | arch | proved | s | optimal EDP | lower bound | gap "
          "| marl EDP | marl / bound |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    proved = cases = 0
    for name in args.layers.split(","):
        for arch in args.archs.split(","):
            exact, wall = explore(args.explore, LAYERS[name], arch, "optimal",
                                  args.time)
            marl, _ = explore(args.explore, LAYERS[name], arch, "marl",
                              args.time)
            bound = exact["objective_lower_bound"]
            best = exact.get("edp", float("inf"))  # absent when nothing valid was found
            cases += 1
            proved += bool(exact["proved_optimal"])
            print(f"| {name} | {arch} | "
                  f"{'yes' if exact['proved_optimal'] else 'no'} | "
                  f"{wall:.1f} | {best:.4g} | {bound:.4g} | "
                  f"{best / bound - 1:.1%} | {marl['edp']:.4g} | "
                  f"{marl['edp'] / bound:.3f} |", flush=True)
    print(f"\n{proved} of {cases} cases proved within {args.time:g} s each.")


if __name__ == "__main__":
    main()
