"""Where the tests find marlmap's build: MARLMAP_BUILD (the lit test sets it
to the build tree, whose python/ folder is on PYTHONPATH); and its sources:
this checkout."""

import os
import pathlib

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]
# marlmap.studies finds the checkout from where the package is, which a
# build tree outside the checkout does not say: it is this one.
os.environ.setdefault("MARLMAP_SOURCE", str(SOURCE))


@pytest.fixture(scope="session")
def build_dir():
    build = os.environ.get("MARLMAP_BUILD")
    if not build:
        pytest.skip("MARLMAP_BUILD names no build tree")
    return pathlib.Path(build)


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE
