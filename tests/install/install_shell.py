"""Shared by the install tests: install the tree, and run a command as a CANN user would
(`env -i`, then `source PREFIX/set_env.sh`, then plain names from PATH)."""

import os
import subprocess
from pathlib import Path

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
INSTALL = RUNFILES / "twin/install"

# A shell with nothing set up: what `env -i bash` gives, plus a scratch HOME.
CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


def shell(prefix: Path, script: str, **env: str) -> subprocess.CompletedProcess:
    """Runs `script` in bash after `source PREFIX/set_env.sh`, in a clean environment."""
    base = dict(CLEAN_ENV, HOME=os.environ.get("TEST_TMPDIR", "/tmp"))
    proc = subprocess.run(
        [
            "env",
            "-i",
            *[f"{k}={v}" for k, v in {**base, **env}.items()],
            "bash",
            "-c",
            f"set -e; source {prefix}/set_env.sh; {script}",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(f"$ {script}\n{proc.stdout}{proc.stderr}")
    return proc


def install(prefix: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(INSTALL), str(prefix)], capture_output=True, text=True)
