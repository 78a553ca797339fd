"""Locating and running the offline flow's programs inside a Bazel test.

The BUILD file passes runfiles paths in the environment (see offline/BUILD.bazel):
GRAPH_BUILD, ATC, MODEL_EXEC, CANN_HOME, OPP_ROOT, PLUGIN_FILE (a file in the Python plugin dir).
"""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

ATC_START = "ATC start working now, please wait for a moment."
ATC_SUCCESS = "ATC run success, welcome to the next use."
ATC_FAILURE = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"


def tool(name: str) -> Path:
    value = os.environ.get(name)
    assert value, f"the test environment lacks {name} (see offline/BUILD.bazel)"
    path = Path(value)
    assert path.exists(), f"{name}={value} does not exist"
    return path.absolute()  # keep runfiles paths (symlinks) as Bazel laid them out


def plugin_dir() -> Path:
    return tool("PLUGIN_FILE").parent


def base_env() -> Dict[str, str]:
    """A clean environment: nothing from the caller's CANN/Python setup leaks in."""
    keep = ("PATH", "TMPDIR", "LANG", "LC_ALL")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["PATH"] = "/usr/bin:/bin"
    env["HOME"] = os.environ.get("TEST_TMPDIR", "/tmp")  # CANN's logs ($HOME/ascend/log) stay in the test's dir
    return env


def atc_env(kernel_cache: Path) -> Dict[str, str]:
    env = base_env()
    home = tool("CANN_HOME")
    env["ASCEND_HOME_PATH"] = str(home)
    env["ASCEND_CUSTOM_OPP_PATH"] = f"{tool('OPP_ROOT')}:{plugin_dir()}"
    env["ASCEND_TWIN_KERNEL_CACHE"] = str(kernel_cache)
    env["PATH"] = f"{home / 'bin'}:{env['PATH']}"
    env["HOME"] = str(kernel_cache.parent)
    return env


def runner_env(soc: str) -> Dict[str, str]:
    """What the runner gets: the OPP root only (no Python plugin dir) and the device SoC."""
    env = base_env()
    env["ASCEND_CUSTOM_OPP_PATH"] = str(tool("OPP_ROOT"))
    env["ASCEND_TWIN_SOC_VERSION"] = soc
    return env


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> List[str]:
        return self.stdout.splitlines()


def run(args: List[str], env: Dict[str, str], timeout: int = 600) -> Result:
    proc = subprocess.run([str(a) for a in args], env=env, capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def graph_build(air: Path, n: Optional[int] = None) -> Result:
    args = [tool("GRAPH_BUILD"), air] + ([str(n)] if n is not None else [])
    return run(args, base_env())


def atc(args: List[str], kernel_cache: Path) -> Result:
    return run([tool("ATC")] + args, atc_env(kernel_cache))


def atc_compile(air: Path, output: Path, soc: str, kernel_cache: Path) -> Result:
    return atc([f"--model={air}", "--framework=1", f"--output={output}", f"--soc_version={soc}"], kernel_cache)


def model_exec(om: Path, soc: str) -> Result:
    return run([tool("MODEL_EXEC"), om], runner_env(soc))


def leftovers(directory: Path, keep: List[str]) -> List[str]:
    """Files in `directory` other than `keep` (temp files an atomic writer must not leave)."""
    return sorted(p.name for p in directory.iterdir() if p.name not in keep)
