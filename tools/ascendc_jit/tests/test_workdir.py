"""Build directories of killed kernel builds are swept by the next build (ascendc_jit.workdir)."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from ascendc_jit import workdir

# A build that makes its directory, fills it like a compile would, and waits to be killed.
CHILD = """
import sys, time
from ascendc_jit import workdir
with workdir.build_dir("compile") as work:
    open(work + "/host.o", "wb").write(b"x" * 100000)
    print(work, flush=True)
    time.sleep(600)
"""


@pytest.fixture()
def tmp_parent(tmp_path, monkeypatch):
    parent = tmp_path / "tmp"
    parent.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(parent))
    monkeypatch.setattr(workdir, "_swept_dirs", set())
    return parent


def _killed_build(parent: Path) -> Path:
    env = dict(os.environ, TMPDIR=str(parent), PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True, env=env)
    work = Path(child.stdout.readline().strip())
    assert work.parent == parent and (work / "host.o").exists()
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert work.exists()  # SIGKILL left it behind
    return work


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_killed_build_dir_is_swept_by_the_next_build(tmp_parent: Path) -> None:
    orphan = _killed_build(tmp_parent)
    _age(orphan, workdir.ORPHAN_AGE_SECONDS + 5)
    with workdir.build_dir("compile") as work:  # the next build sweeps first
        assert os.path.isdir(work)
    assert not orphan.exists()
    assert list(tmp_parent.iterdir()) == []  # its own directory is gone too


def test_live_young_and_foreign_dirs_are_kept(tmp_parent: Path) -> None:
    young = _killed_build(tmp_parent)  # dead, but younger than the age limit
    unrelated = tmp_parent / "ascendc-jit-not-a-build"
    unrelated.mkdir()  # no lock file: not made by build_dir
    _age(unrelated, 3600)
    with workdir.build_dir("key") as live:
        _age(Path(live), 3600)  # old, but its build holds the lock
        assert workdir.sweep_orphans(str(tmp_parent)) == []
        assert os.path.isdir(live)
    assert young.exists() and unrelated.exists()
    _age(young, workdir.ORPHAN_AGE_SECONDS + 5)
    assert workdir.sweep_orphans(str(tmp_parent)) == [str(young)]
