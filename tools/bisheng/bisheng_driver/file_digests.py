"""sha256 of files the caches' keys name (headers, the twin tree), remembered across compiles
by each file's stat, as ccache does: hashing the ~400 headers of an Ascend C program (6 MB) on
every compile cost more than the look-ups it serves.

A remembered digest is used only while the file's inode, size, mtime and ctime are those it
was computed for (ctime cannot be set back by a user: any write or `touch` moves it), and is
remembered only for a file last changed more than TOO_NEW_S before it was hashed, so a file
rewritten within the file system's timestamp granularity is always hashed again. Kept in the
PCH cache directory (cache_root.cache_dir) as one JSON object, written when a compile learnt
something new (atomically, by cache_support's rule); without a cache every file is hashed."""

import atexit
import json
import os
import threading
import time
from typing import Optional

from .cache_support import sha256_file, write_atomic

MEMO_FILE = "file-digests.json"
TOO_NEW_S = 2.0
MAX_FILES = 8192
_lock = threading.Lock()
_memo: Optional[dict] = None
_where: Optional[str] = None
_dirty = False


def _load() -> Optional[dict]:
    global _memo, _where
    if _where is None:
        from .cache_root import cache_dir

        _where = cache_dir() or ""
        _memo = {}
        if _where:
            try:
                with open(os.path.join(_where, MEMO_FILE), encoding="utf-8") as f:
                    data = json.load(f)
                _memo = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                pass
    return _memo if _where else None


def _save() -> None:
    with _lock:
        if not _dirty or not _where or _memo is None:
            return
        data = dict(_memo) if len(_memo) <= MAX_FILES else {}
    try:
        write_atomic(os.path.join(_where, MEMO_FILE), json.dumps(data).encode())
    except OSError:
        pass  # a memo that cannot be written only costs time


def digest(path: str) -> str:
    """sha256 of the file's content; raises OSError when it cannot be read."""
    global _dirty
    info = os.stat(path)
    stamp = [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]
    with _lock:
        memo = _load()
        known = memo.get(path) if memo is not None else None
    if isinstance(known, list) and known[:4] == stamp:
        return known[4]
    value = sha256_file(path)
    if memo is not None and time.time() - max(info.st_mtime_ns, info.st_ctime_ns) / 1e9 > TOO_NEW_S:
        with _lock:
            if not _dirty:
                atexit.register(_save)
            memo[path] = stamp + [value]
            _dirty = True
    return value
