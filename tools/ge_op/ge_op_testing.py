"""Runs an operator declared with ge_custom_op in a clean environment, the way a user's shell
would: only the CANN-like tree (ASCEND_HOME_PATH, its site-packages and lib64), the operator's OPP
root and plugin directory (ASCEND_CUSTOM_OPP_PATH) and its generated ES directory.

    paths = op_paths("ops/leaky_relu_custom", "leaky_relu_custom")   # from the test's runfiles
    proc = run_python([str(paths.package / "run.py"), ...], clean_env(paths))

A test depends on `:<name>_runtime` (ge_custom_op) and `//tools/ge_op:ge_op_testing`.
"""

import importlib.util
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Sequence

WORKSPACE = "ascend_twin"


def runfiles_root() -> Path:
    for var in ("TEST_SRCDIR", "RUNFILES_DIR"):
        value = os.environ.get(var)
        if value and (Path(value) / WORKSPACE).is_dir():
            return Path(value) / WORKSPACE
    # `bazel run`: the main script sits in <binary>.runfiles/<workspace>/... (absolute(), not
    # resolve(): runfiles entries are symlinks into the source tree)
    for parent in Path(sys.argv[0]).absolute().parents:
        if parent.name == WORKSPACE and parent.parent.name.endswith(".runfiles"):
            return parent
    raise RuntimeError("ge_op_testing: no Bazel runfiles tree (run through bazel test/run)")


@dataclass(frozen=True)
class OpPaths:
    package: Path  # the operator's package in the runfiles (run.py, tests/ ...)
    cann_home: Path  # //twin:cann_home
    opp_root: Path  # <name>_opp_root: holds libcust_opapi.so
    plugin_dir: Path  # the holder's directory
    es_dir: Path  # gen_esb's output (es_<module>_ops.py ...)
    soc: str  # the build's SoC (<name>_soc.txt)


def op_paths(package: str, name: str, plugin_dir: str = "python/plugin") -> OpPaths:
    root = runfiles_root()
    pkg = root / package
    soc = (pkg / f"{name}_soc.txt").read_text().strip()
    return OpPaths(pkg, root / "twin" / "cann_home", pkg / f"{name}_opp_root", pkg / plugin_dir, pkg / "es", soc)


def npu_arch(cann_home: Path, soc: str) -> str:
    """The decimal NpuArch of a SoC, from the tree's <SoC>.ini, read with the tree's own ini
    reader (python/site-packages/ascend_ini.py). Loaded from the tree rather than as a Bazel dep:
    a twin/ package in the runfiles would shadow the tree's `twin` modules for the tools a test
    starts from the runfiles root."""
    spec = importlib.util.spec_from_file_location(
        "ascend_ini", cann_home / "python" / "site-packages" / "ascend_ini.py"
    )
    reader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reader)
    ini = cann_home / "x86_64-linux" / "data" / "platform_config" / f"{soc}.ini"
    return reader.read_ini(ini)["version"]["NpuArch"]


def scratch_dir(name: str) -> Path:
    base = Path(os.environ.get("TEST_TMPDIR") or tempfile.gettempdir())
    return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))


def clean_env(
    paths: OpPaths,
    *,
    kernel_cache: Optional[Path] = None,
    extra: Optional[Dict[str, str]] = None,
    opp_path: Optional[str] = None,
    cann_home: Optional[Path] = None,
) -> Dict[str, str]:
    """Only what a user's shell would have after set_env.sh, for `paths` (any object with OpPaths'
    fields); `opp_path` replaces ASCEND_CUSTOM_OPP_PATH and `cann_home` the tree (bad-input tests)."""
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
        # the twin "machine": its device is of the SoC under test
        "ASCEND_TWIN_SOC_VERSION": paths.soc,
    }
    env.update(extra or {})
    return env


def user_run_settings() -> Dict[str, object]:
    """clean_env's keyword arguments for a `bazel run` target that runs as the user rather than as a
    test: the user's persistent kernel cache (ascendc_jit.default_cache_dir(), the one the holders
    use by default) and the user's HOME."""
    from ascendc_jit import default_cache_dir

    return {"kernel_cache": default_cache_dir(), "extra": {"HOME": os.environ.get("HOME", "/tmp")}}


def run_python(args: Sequence[str], env: Dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    """Runs the pinned interpreter (the one running this test) with `env`; prints what it did, so
    the markers are in the test log."""
    return run([sys.executable, *args], env, timeout)


def run(argv: Sequence[str], env: Dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run(list(argv), env=env, capture_output=True, text=True, timeout=timeout)
    print(
        f"$ {' '.join(map(str, argv))}\n--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}"
        f"--- exit {proc.returncode}",
        flush=True,
    )
    return proc


def new_seed(env_var: str = "GE_OP_TEST_SEED") -> int:
    """A random seed, printed; `env_var` replays one."""
    seed = int(os.environ.get(env_var, random.SystemRandom().randrange(2**32)))
    print(f"seed={seed} (replay: {env_var}={seed})", flush=True)
    return seed
