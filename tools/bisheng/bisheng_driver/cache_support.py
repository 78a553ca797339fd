"""Pieces every ascend-twin cache shares: the length-prefixed field hash its keys are made of,
file digests, the trust rule for a cache directory, and how entries are published and the
temporaries of killed compiles swept. Used by bisheng's kernel cache key
(cache_key.py) and PCH cache (pch.py), and by the ascendc_jit kernel cache, which imports
this module from the installed driver package, so there is one definition of each."""

import hashlib
import os
import re
import stat
import tempfile
import time
from typing import Iterable, Optional


def hash_fields(fields: Iterable[str]) -> str:
    """sha256 over the fields, each preceded by its UTF-8 length (8 bytes, little endian), so
    no two different field lists join to the same bytes."""
    digest = hashlib.sha256()
    for field in fields:
        data = field.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def sha256_file(path: str) -> str:
    """sha256 of a file's content; raises OSError when it cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def untrusted_reason(path) -> Optional[str]:
    """Why an existing cache directory may not be trusted, or None: it must be owned by this
    user or root and not writable by group or others (a missing one is created 0700)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if info.st_uid not in (os.getuid(), 0):
        return f"is owned by uid {info.st_uid}, not by this user (uid {os.getuid()})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by group or others (mode {stat.S_IMODE(info.st_mode):o})"
    return None


# Publishing rule of bisheng's caches (PCH, device binaries, their records): an entry is written
# to a temporary file beside it, named `.<entry>.<pid>-<random>.tmp`, and renamed into place,
# so readers see the old entry or the whole new one. A compile that is killed meanwhile leaves
# its temporary behind (a PCH is 13 MB): sweep_temporaries removes those of processes that are
# gone, once they are a minute old, and any older than a day (a pid can be reused).
TEMP_SUFFIX = ".tmp"
SWEEP_AFTER_S = 60
SWEEP_ANY_AFTER_S = 24 * 3600


def temporary_for(path: str) -> str:
    """A new, empty temporary file beside `path` (created 0600), for publish()."""
    fd, tmp = tempfile.mkstemp(
        prefix=f".{os.path.basename(path)}.{os.getpid()}-", suffix=TEMP_SUFFIX, dir=os.path.dirname(path)
    )
    os.close(fd)
    return tmp


def publish(path: str, fill) -> bool:
    """Runs fill(temporary) (it writes the temporary; False when it could not) and renames the
    temporary to `path`; the temporary never outlives the call. Returns what fill returned."""
    tmp = temporary_for(path)
    try:
        if not fill(tmp):
            return False
        os.replace(tmp, path)
        return True
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_atomic(path: str, data: bytes) -> None:
    """Writes `data` to `path` by the publishing rule above."""

    def fill(tmp: str) -> bool:
        with open(tmp, "wb") as f:
            f.write(data)
        return True

    publish(path, fill)


# `.<entry>.<pid>-<random>.tmp`, also with clang's own `-XXXXXXXX.tmp` after it (a PCH build)
_WRITER_RE = re.compile(r"\.(\d+)-[A-Za-z0-9_]+\.tmp")


def _writer_pid(name: str) -> Optional[int]:
    """The pid in a temporary's name, or None (a temporary of an older naming: by age alone)."""
    m = _WRITER_RE.search(name)
    return int(m.group(1)) if m else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


def sweep_temporaries(directory: str, now: Optional[float] = None) -> int:
    """Removes the temporaries of killed writers in `directory`; returns how many."""
    now = time.time() if now is None else now
    removed = 0
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    for name in names:
        if not name.endswith(TEMP_SUFFIX):
            continue
        pid = _writer_pid(name)
        path = os.path.join(directory, name)
        try:
            age = now - os.lstat(path).st_mtime
            if age > SWEEP_ANY_AFTER_S or (pid is not None and age > SWEEP_AFTER_S and not _alive(pid)):
                os.unlink(path)
                removed += 1
        except OSError:
            continue
    return removed
