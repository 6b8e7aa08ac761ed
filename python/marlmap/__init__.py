"""marlmap: mapping DNN tensor operations onto spatial accelerators.

Problems come from layer shorthands (`layer`), Timeloop files
(`timeloop_problem`) or MLIR modules (`ops`); accelerators from presets,
`.mlir` descriptions or Timeloop YAML (`arch`); mappings from
`#accel.mapping` text (`mapping`) or from a search (`search`); whole
networks from MLIR text or from a PyTorch model (`from_torch`). `evaluate`
costs a mapping with the analytical model; `map_module` runs --marl-map on
a whole module. Figures are dicts with the keys marlmap-explore --json
writes. Bad arguments raise ValueError; failures underneath raise
marlmap.Error, with marlmap's message.
"""

import os as _os

from ._marlmap import (Arch, Error, MappedModule, Mapping, NetworkBuilder, Op,
                       Problem, SearchResult, arch, default_budget, evaluate,
                       factor_spaces, factors_options, layer, map_module,
                       mapping, ops, presets, search, searchers,
                       timeloop_mapping, timeloop_problem)
from . import _layout
from . import _marlmap


def _find_policy_library():
    """The policy library of this build or installation, if it is there."""
    here = _os.path.dirname(_os.path.abspath(__file__))
    for folder in _layout.POLICY_LIBRARY_FOLDERS:
        candidate = _os.path.normpath(
            _os.path.join(here, folder, "libMarlmapPolicy.so"))
        if _os.path.exists(candidate):
            return candidate
    return ""


_marlmap._set_policy_library_fallback(_find_policy_library())


def from_torch(module, example_inputs, target=None, name=None):
    """A torch.nn.Module as a module of linalg ops (its text):
    marlmap.importer.from_torch, which imports PyTorch only when called."""
    from .importer import from_torch as import_module
    return import_module(module, example_inputs, target=target, name=name)

__all__ = [
    "Arch", "Error", "MappedModule", "Mapping", "NetworkBuilder", "Op",
    "Problem",
    "SearchResult", "arch", "default_budget", "evaluate", "factor_spaces",
    "factors_options",
    "from_torch", "layer",
    "map_module", "mapping", "ops", "presets", "search", "searchers",
    "timeloop_mapping", "timeloop_problem",
]
