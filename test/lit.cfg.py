# -*- Python -*-
# lit configuration for marlmap's IR, tool and end-to-end tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "marlmap"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.marlmap_obj_root, "test")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

plugin = os.path.join(config.marlmap_lib_dir, "MarlmapPlugin" + config.llvm_shlib_ext)
config.substitutions.append(("%marlmap_plugin", plugin))
config.substitutions.append(("%marlmap_src", config.marlmap_src_root))
config.substitutions.append(("%marlmap_obj", config.marlmap_obj_root))
config.substitutions.append(("%python", config.python_executable))
for runtime in ["mlir_runner_utils", "mlir_c_runner_utils"]:
    config.substitutions.append(
        ("%" + runtime,
         os.path.join(config.llvm_tools_dir, "..", "lib",
                      "lib" + runtime + config.llvm_shlib_ext)))

# ../shared/corpus and ../shared/reference live beside the checkout; tests that
# read them run only where they exist (they do in CI).
shared = os.path.abspath(config.marlmap_shared_dir)
config.substitutions.append(("%shared", shared))
if os.path.isdir(os.path.join(shared, "corpus")):
    config.available_features.add("shared-corpus")
if os.path.isdir(os.path.join(shared, "reference", "timeloop")):
    config.available_features.add("shared-reference")

# Built with the sanitizers (utils/sanitize.sh): a test that loads marlmap
# into an uninstrumented host cannot run.
if getattr(config, "marlmap_sanitized", False):
    config.available_features.add("sanitized")

# The Python module, with the interpreter it is built for (Debian's python3,
# whose pytest runs its tests).
if config.marlmap_python_module:
    config.available_features.add("python-module")
    config.substitutions.append(
        ("%marlmap_python", "env PYTHONPATH=%s MARLMAP_BUILD=%s %s" % (
            os.path.join(config.marlmap_obj_root, "python"),
            config.marlmap_obj_root, config.marlmap_python_module)))
    config.substitutions.append(
        ("%{marlmap_python_interpreter}", config.marlmap_python_module))

# Whether a test can make a file this process cannot write (by its mode, or
# for root by the immutable attribute), as a read-only mount would.
def can_make_unwritable():
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile(delete=False) as probe:
        path = probe.name
    try:
        os.chmod(path, 0o444)
        if not os.access(path, os.W_OK):
            return "chmod 444"
        if subprocess.run(["chattr", "+i", path], capture_output=True).returncode == 0:
            subprocess.run(["chattr", "-i", path], capture_output=True)
            return "chattr +i"
        return None
    except OSError:
        return None
    finally:
        os.chmod(path, 0o644)
        os.remove(path)


unwritable = can_make_unwritable()
if unwritable:
    config.available_features.add("unwritable-files")
    config.substitutions.append(("%make_unwritable", unwritable))
    config.substitutions.append(
        ("%make_writable", "chattr -i" if unwritable == "chattr +i" else "chmod 644"))

# The HTML report's browser test needs Debian's chromium (utils/setup.sh
# installs it); without it that test reports UNSUPPORTED.
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.marlmap_tools_dir, config.llvm_tools_dir]
tools = [
    "marlmap-opt",
    "marlmap-explore",
    "marlmap-cache",
    "marlmap-example-map-network",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
