"""Runs the sample's Python flows in a clean environment, the way a user's shell would:
only the CANN-like tree (ASCEND_HOME_PATH, its site-packages and lib64), the OPP root and the
plugin directory (ASCEND_CUSTOM_OPP_PATH), and the generated ES module directory.

Paths come from Bazel runfiles; outside Bazel set ASCEND_HOME_PATH, ADD_CUSTOM_OPP_ROOT (a
directory holding libcust_opapi.so) and ADD_CUSTOM_ES_DIR (holding gen_esb's es_custom_ops.py and
the es_custom package).
"""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional

import ge_op_testing

WORKSPACE = "ascend_twin"
PACKAGE = Path("ops") / "add_custom"


def _runfiles_root() -> Optional[Path]:
    for var in ("TEST_SRCDIR", "RUNFILES_DIR"):
        value = os.environ.get(var)
        if value and (Path(value) / WORKSPACE).is_dir():
            return Path(value) / WORKSPACE
    # `bazel run`: this file sits in <binary>.runfiles/<workspace>/... (absolute(), not resolve():
    # the runfiles entries are symlinks into the source tree)
    for parent in Path(__file__).absolute().parents:
        if parent.name == WORKSPACE and parent.parent.name.endswith(".runfiles"):
            return parent
    return None


@dataclass(frozen=True)
class SamplePaths:
    cann_home: Path
    opp_root: Path  # holds libcust_opapi.so (CANN's "new .so delivery" OPP root)
    plugin_dir: Path  # python/plugin: the compile holder
    es_dir: Path  # holds the generated es_custom_ops.py and the es_custom package
    run_py: Path
    kernel: Path
    soc: str


def sample_paths() -> SamplePaths:
    root = _runfiles_root()
    source = Path(__file__).resolve().parent.parent
    pkg = root / PACKAGE if root is not None else source
    cann = Path(os.environ["ASCEND_HOME_PATH"]) if root is None else root / "twin" / "cann_home"
    # in Bazel: the OPP root ge_custom_op lays out (//ops/add_custom:add_custom_opp_root)
    opp = Path(os.environ.get("ADD_CUSTOM_OPP_ROOT", pkg / "proto")) if root is None else pkg / "add_custom_opp_root"
    es = Path(os.environ.get("ADD_CUSTOM_ES_DIR", pkg / "es")) if root is None else pkg / "es"
    soc_file = pkg / "add_custom_soc.txt"
    soc = soc_file.read_text().strip() if soc_file.is_file() else os.environ.get("ADD_CUSTOM_SOC", "Ascend910B1")
    return SamplePaths(cann, opp, pkg / "python" / "plugin", es, pkg / "run.py", pkg / "kernel" / "add_custom.asc", soc)


# The clean environment and the printing runner are ge_custom_op's (tools/ge_op); SamplePaths has
# the fields they read.
scratch_dir = ge_op_testing.scratch_dir
clean_env = ge_op_testing.clean_env
run_python = ge_op_testing.run_python


def run_script(source: str, env: Dict[str, str], name: str = "case") -> subprocess.CompletedProcess:
    script = scratch_dir(name) / f"{name}.py"
    script.write_text(source)
    return run_python([str(script)], env)


def new_seed() -> int:
    import random

    seed = int(os.environ.get("ADD_CUSTOM_SEED", random.SystemRandom().randrange(2**32)))
    print(f"seed={seed}")
    return seed
