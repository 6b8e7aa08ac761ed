# -*- Python -*-
# Runs the GoogleTest unit tests under unittests/ as part of check-marlmap.

import os

import lit.formats

config.name = "marlmap-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.marlmap_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
