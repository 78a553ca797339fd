"""Runs the sample's Python flows in a clean environment, the way a user's shell would:
only the CANN-like tree (ASCEND_HOME_PATH, its site-packages and lib64), the OPP root and the
plugin directory (ASCEND_CUSTOM_OPP_PATH), and the generated ES module directory.

Paths come from Bazel runfiles; outside Bazel set ASCEND_HOME_PATH, ADD_CUSTOM_OPP_ROOT (a
directory holding libcust_opapi.so) and ADD_CUSTOM_ES_DIR (holding gen_esb's es_custom_ops.py and
the es_custom package).
"""

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Sequence

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
    opp_root: Path     # holds libcust_opapi.so (CANN's "new .so delivery" OPP root)
    plugin_dir: Path   # python/plugin: the compile holder
    es_dir: Path       # holds the generated es_custom_ops.py and the es_custom package
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
    return SamplePaths(cann, opp, pkg / "python" / "plugin", es, pkg / "run.py", pkg / "kernel" / "add_custom.asc",
                       soc)


def scratch_dir(name: str) -> Path:
    base = Path(os.environ.get("TEST_TMPDIR") or tempfile.gettempdir())
    path = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))
    return path


def clean_env(paths: SamplePaths, *, opp_path: Optional[str] = None, kernel_cache: Optional[Path] = None,
              cann_home: Optional[Path] = None, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    cann = cann_home or paths.cann_home
    env = {
        "PATH": f"{cann}/bin:/usr/bin:/bin",
        "HOME": os.environ.get("TEST_TMPDIR") or os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "ASCEND_HOME_PATH": str(cann),
        "LD_LIBRARY_PATH": f"{cann}/lib64",
        "PYTHONPATH": f"{cann}/python/site-packages:{paths.es_dir}",
        "ASCEND_CUSTOM_OPP_PATH": opp_path if opp_path is not None else f"{paths.opp_root}:{paths.plugin_dir}",
        "ASCEND_TWIN_KERNEL_CACHE": str(kernel_cache or scratch_dir("kcache")),
        "PYTHONDONTWRITEBYTECODE": "1",
        # the twin "machine": its device is of the SoC under test (runtime: ASCEND_TWIN_SOC_VERSION)
        "ASCEND_TWIN_SOC_VERSION": paths.soc,
    }
    env.update(extra or {})
    return env


def run_python(args: Sequence[str], env: Dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    """Runs the pinned interpreter (the one running this test) with a clean environment."""
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout)
    print(f"$ {' '.join(args)}\n--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}--- exit {proc.returncode}")
    return proc


def run_script(source: str, env: Dict[str, str], name: str = "case") -> subprocess.CompletedProcess:
    script = scratch_dir(name) / f"{name}.py"
    script.write_text(source)
    return run_python([str(script)], env)


def new_seed() -> int:
    import random
    seed = int(os.environ.get("ADD_CUSTOM_SEED", random.SystemRandom().randrange(2 ** 32)))
    print(f"seed={seed}")
    return seed
