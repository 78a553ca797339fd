"""The first output line of a tool query (`clang --version`, `ld.lld --version`,
`clang -print-resource-dir`), remembered in the PCH cache directory (pch.py) under the query
and the tool binary's path, size and modification time, so a compile does not start three
processes (~20 ms each) to learn what has not changed. Without a cache the tool is run."""

import json
import os
import subprocess
import tempfile
from typing import Optional

from .errors import BishengError
from .timing import PHASES

FACTS_FILE = "tool_facts.json"
_memory: dict = {}
_loaded_from: Optional[str] = None


def _identity(cmd: list) -> str:
    info = os.stat(os.path.realpath(cmd[0]))
    return json.dumps([cmd, os.path.realpath(cmd[0]), info.st_size, info.st_mtime_ns])


def _run(cmd: list) -> str:
    try:
        with PHASES.measure("tool queries (--version, resource dir)"):
            out = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout
    except OSError as e:
        raise BishengError(f"cannot run {cmd[0]}: {e.strerror}")
    return out.splitlines()[0].strip() if out.strip() else "unknown"


def _load(directory: str) -> None:
    global _loaded_from
    if _loaded_from == directory:
        return
    _loaded_from = directory
    try:
        with open(os.path.join(directory, FACTS_FILE), encoding="utf-8") as f:
            data = json.load(f)
        if isinstance(data, dict):
            _memory.update({k: v for k, v in data.items() if isinstance(v, str)})
    except (OSError, ValueError):
        pass


def _store(directory: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=FACTS_FILE + ".", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(_memory, f, sort_keys=True)
        os.replace(tmp, os.path.join(directory, FACTS_FILE))
    except OSError:
        pass


def first_line(cmd: list) -> str:
    from .cache_root import cache_dir

    try:
        key = _identity(cmd)
    except OSError:
        return _run(cmd)  # not a file we can stat: ask the tool (it reports the error)
    if key in _memory:
        return _memory[key]
    directory = cache_dir()
    if directory is not None:
        _load(directory)
        if key in _memory:
            return _memory[key]
    _memory[key] = _run(cmd)
    if directory is not None:
        _store(directory)
    return _memory[key]
