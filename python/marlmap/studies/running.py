"""Running searches for the studies: in-process through the marlmap module,
or through marlmap-explore for what measures the tool itself."""

import json
import subprocess
import time

import marlmap

from .workloads import COMPARED_FACTORS


def search_json(layer, arch, searcher, options, budget, seed, objective,
                **more):
    """The figures (marlmap-explore --json's) of one search of the layer
    shorthand `layer` on `arch`, in the perfect space unless `more` names
    `factors`; `more` are further search() arguments. A search that fails
    stops the study with its error."""
    more.setdefault("factors", COMPARED_FACTORS)
    try:
        # The GIL is released while searching: searches on threads run
        # side by side, each with the result it gives alone.
        return marlmap.search(marlmap.layer(layer), marlmap.arch(arch),
                              searcher=searcher, budget=budget, seed=seed,
                              objective=objective, options=options,
                              **more).figures
    # Nothing found is no failure (an empty curve, which counts as the
    # worst); a bad argument or a search that failed is.
    except (ValueError, marlmap.Error) as error:
        what = " ".join([searcher] + [f"{name}={value}" for name, value
                                      in {**options, **more}.items()])
        raise SystemExit(f"failed: {what} on {layer} on {arch}, seed "
                         f"{seed}: {error}") from None


def policy_load_seconds():
    """Loads the policy library (once per process, before the first learned
    search) and returns how long that took, so that no timed search pays
    for it."""
    start = time.perf_counter()
    marlmap.search(marlmap.layer("gemm:M=2,N=2,K=2"), marlmap.arch("edge"),
                   searcher="marl", budget=1)
    return time.perf_counter() - start


def explore(binary, layer, arch, searcher, seconds):
    """marlmap-explore's JSON for one search of `seconds` (seed 1) in the
    perfect space, and its wall time."""
    start = time.perf_counter()
    out = subprocess.run(
        [str(binary), f"--layer={layer}", f"--arch={arch}",
         f"--searcher={searcher}", f"--time={seconds:g}", "--seed=1",
         f"--factors={COMPARED_FACTORS}",
         "--format=json", "--progress=none"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.perf_counter() - start
