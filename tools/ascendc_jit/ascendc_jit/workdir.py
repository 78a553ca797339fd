"""Private scratch directories for kernel builds, and the sweep of the ones a killed build left.

A build killed with SIGKILL (a holder's process ended by its parent or the OOM killer) cannot
remove its directory (about a megabyte of objects). Each directory therefore holds a lock
file that its build keeps flock'ed while it lives: the next build in any process removes every
such directory whose lock it can take, once it is a minute old (younger ones may be between
mkdtemp and flock)."""

import fcntl
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from typing import Iterator

PREFIX = "ascendc-jit-"
LOCK_NAME = ".owner.lock"
ORPHAN_AGE_SECONDS = 60

_swept_dirs: set[str] = set()  # temp dirs already swept by this process


def sweep_orphans(parent: str) -> list:
    """Removes this user's build directories under `parent` whose builds died; their paths."""
    removed: list[str] = []
    try:
        names = os.listdir(parent)
    except OSError:
        return removed
    cutoff = time.time() - ORPHAN_AGE_SECONDS
    for name in names:
        if not name.startswith(PREFIX):
            continue
        path = os.path.join(parent, name)
        try:
            st = os.lstat(path)
            if not os.path.isdir(path) or os.path.islink(path) or st.st_uid != os.getuid() or st.st_mtime > cutoff:
                continue
            fd = os.open(os.path.join(path, LOCK_NAME), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue  # no lock file: not ours, or being created
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # its build is alive
        try:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        finally:
            os.close(fd)
    return removed


@contextmanager
def build_dir(kind: str) -> Iterator[str]:
    """A fresh private directory for one build, removed afterwards; sweeps orphans first (once
    per process and temp dir)."""
    parent = tempfile.gettempdir()
    if parent not in _swept_dirs:
        _swept_dirs.add(parent)
        sweep_orphans(parent)
    path = tempfile.mkdtemp(prefix=f"{PREFIX}{kind}-")
    fd = -1
    try:
        fd = os.open(os.path.join(path, LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        if fd >= 0:
            os.close(fd)
