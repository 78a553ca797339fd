"""Pieces every ascend-twin cache shares: the length-prefixed field hash its keys are made of,
file digests, and the trust rule for a cache directory. Used by bisheng's kernel cache key
(cache_key.py) and PCH cache (pch.py), and by the ascendc_jit kernel cache, which imports
this module from the installed driver package, so there is one definition of each."""

import hashlib
import os
import stat
import tempfile
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


def write_atomic(path: str, data: bytes) -> None:
    """Writes `data` to `path` through a temp file in the same folder and a rename: readers see
    the old file or the whole new one, never a part (the caches' one publishing rule)."""
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
