"""Where the studies find the checkout, the build and ../shared.

The package runs from the build tree (build/python/marlmap), from an
installation or from the sources, so nothing is at a fixed distance from
it. Each folder is an environment variable when set, otherwise:

  * the checkout (MARLMAP_SOURCE): the nearest folder above the package
    that holds marlmap's sources (a build tree inside the checkout finds
    it), otherwise the current directory;
  * the build (MARLMAP_BUILD): the checkout's build/;
  * the shared data (MARLMAP_SHARED): ../shared beside the checkout.
"""

import os
import pathlib


def _is_checkout(folder):
    # A build tree holds python/marlmap too, but no CMakeLists.txt.
    return ((folder / "CMakeLists.txt").is_file() and
            (folder / "python" / "marlmap" / "__init__.py").is_file())


def _found_checkout():
    here = pathlib.Path(__file__).resolve()
    return next((folder for folder in here.parents if _is_checkout(folder)),
                pathlib.Path.cwd())


def _from_environment(variable, default):
    value = os.environ.get(variable)
    return pathlib.Path(value) if value else default


CHECKOUT = _from_environment("MARLMAP_SOURCE", _found_checkout())
BUILD = _from_environment("MARLMAP_BUILD", CHECKOUT / "build")
SHARED = _from_environment("MARLMAP_SHARED", CHECKOUT.parent / "shared")

EXAMPLES = CHECKOUT / "examples"
# Networks no searcher is trained or tuned on (benchmarks/heldout/README.md).
HELD_OUT_FOLDER = CHECKOUT / "benchmarks" / "heldout"
# Networks whose loop bounds few factors divide (benchmarks/awkward).
AWKWARD_FOLDER = CHECKOUT / "benchmarks" / "awkward"
CORPUS = SHARED / "corpus"
# Timeloop's mapper runs, which timeloop_race races against.
TIMELOOP_REFERENCE = SHARED / "reference" / "timeloop"
EXPLORE = BUILD / "bin" / "marlmap-explore"
