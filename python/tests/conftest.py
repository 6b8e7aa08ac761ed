"""Where the tests find marlmap's build: MARLMAP_BUILD (the lit test sets it
to the build tree, whose python/ folder is on PYTHONPATH)."""

import os
import pathlib

import pytest

SOURCE = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def build_dir():
    build = os.environ.get("MARLMAP_BUILD")
    if not build:
        pytest.skip("MARLMAP_BUILD names no build tree")
    return pathlib.Path(build)


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE
