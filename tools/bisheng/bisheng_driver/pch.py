"""The prefix header of bisheng's clang passes and its precompiled form (clang PCH), cached.

An eligible source (prefix.py) is compiled with a prefix header in front: the pass's own
first twin header plus `kernel_operator.h`. The PCH cache keeps that header precompiled, keyed
like the kernel cache — the content of every twin header, the pass's flags, the driver and
the clang version — so a compile parses the ~90k lines behind `kernel_operator.h` once per
key instead of twice per compile. Without a usable cache the same prefix is given as text;
clang produces the same object either way (tested), so the bytes never depend on the cache.

Cache directory: `$BISHENG_PCH_CACHE` (`off` disables it), else
`$XDG_CACHE_HOME/ascend-twin/bisheng-pch`, else `~/.cache/ascend-twin/bisheng-pch`; none when
no home is known (e.g. a Bazel action). It must be owned by the user and not writable by
others, like the kernel cache. Entries `<key>.h` + `<key>.pch` are written to temporary files
and renamed; the oldest are removed beyond MAX_ENTRIES. A PCH clang refuses (a system header
changed under it) is deleted and the compile retried with the text prefix.
"""

import functools
import json
import os
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from .cache_root import cache_dir
from .cache_support import hash_fields, publish, sweep_temporaries, write_atomic

SCHEME = "asc-twin-pch/1"
MAX_ENTRIES = 24
HOST = "host"
DEVICE = "device"

PREFIX_TEXT = {
    # host pass: the prelude is force-included first anyway; kernel_operator.h follows it
    HOST: '#include "asc_twin/host_prelude.h"\n#include "kernel_operator.h"\n',
    # device pass: what the generated entries TU includes around the source
    DEVICE: (
        '#include "asc_twin/host_launch.h"\n#include "kernel_operator.h"\n'
        '#include "asc_twin/kernel_entry.h"\n#include "asc_twin/aicore_abi.h"\n'
    ),
}
# clang's complaints about a PCH it will not use (as opposed to errors in the user's code)
_PCH_REFUSALS = ("PCH file", "precompiled header", "has been modified since the", "was built with", "AST file")


def tree_digest(roots: Sequence[str]) -> str:
    """Names and contents of every file under the twin header roots (once per process: both
    passes and the device cache ask)."""
    return _tree_digest(tuple(roots))


@functools.lru_cache(maxsize=None)
def _tree_digest(roots: tuple) -> str:
    from .file_digests import digest

    fields = []
    for root in dict.fromkeys(roots):
        for dirpath, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                try:
                    fields += [os.path.relpath(path, root), digest(path)]
                except OSError:
                    fields += [os.path.relpath(path, root), "unreadable"]
    return hash_fields(fields)


def remembered(name: str, key_fields: Sequence[str], compute):
    """compute() (a JSON value) for key_fields, kept in the cache directory as
    `<name>-<key>.json`, so a fact that depends only on content is derived once per content
    (e.g. the twin headers' identifiers, prefix.py). Without a cache it is computed."""
    directory = cache_dir()
    if directory is None:
        return compute()
    path = os.path.join(directory, f"{name}-{hash_fields([SCHEME, name, *key_fields])}.json")
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
        os.utime(path)  # recently used: kept by the eviction
        return value
    except (OSError, ValueError):
        pass
    value = compute()
    try:
        write_atomic(path, json.dumps(value).encode())
        _evict_remembered(directory, name)
    except OSError:
        pass
    return value


REMEMBERED_PER_NAME = 64


def _evict_remembered(directory: str, name: str) -> None:
    """Keeps the REMEMBERED_PER_NAME most recently used facts of one name (a fact keyed by
    names in a source, like header-names, gets a new file per edit)."""
    facts = [
        os.path.join(directory, n) for n in os.listdir(directory) if n.startswith(name + "-") and n.endswith(".json")
    ]
    if len(facts) <= REMEMBERED_PER_NAME:
        return
    facts.sort(key=lambda p: os.stat(p).st_mtime)
    for path in facts[: len(facts) - REMEMBERED_PER_NAME]:
        try:
            os.unlink(path)
        except OSError:
            pass


@dataclass(frozen=True)
class Prefix:
    """The prefix of one pass: the header to include and, when cached, its PCH."""

    header: str
    pch: Optional[str]

    def flags(self) -> list:
        return ["-include-pch", self.pch] if self.pch else ["-include", self.header]

    def depfile_noise(self) -> set:
        return {p for p in (self.header, self.pch) if p}


# Where a prefix header lives (a compile's work directory, the cache) means nothing to a user;
# "In file included from" lines name it like this instead.
DISPLAY_NAME = "<bisheng: Ascend C prefix>"
_PREFIX_PATH_RE = re.compile(r"[^\s:'\"]*(?:bisheng_prefix_(?:host|device)|/[0-9a-f]{64})\.h")


def hide_prefix_paths(text: str) -> str:
    return _PREFIX_PATH_RE.sub(DISPLAY_NAME, text)


def refused_pch(stderr: bytes) -> bool:
    text = stderr.decode("utf-8", errors="replace")
    return any(marker in text for marker in _PCH_REFUSALS)


def discard(prefix: Prefix) -> None:
    if prefix.pch:
        try:
            os.unlink(prefix.pch)
        except OSError:
            pass


def _evict(directory: str) -> None:
    sweep_temporaries(directory)
    try:
        entries = [os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".pch")]
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort(key=lambda p: os.stat(p).st_atime)
        for pch in entries[: len(entries) - MAX_ENTRIES]:
            for path in (pch, pch[: -len(".pch")] + ".h"):
                try:
                    os.unlink(path)
                except OSError:
                    pass
    except OSError:
        pass


def prepare(kind: str, workdir: str, key_fields: Sequence[str], build) -> Prefix:
    """The prefix of a pass. `build(header, out)` runs clang to precompile `header` into `out`
    (returns True on success); it runs only when the cache lacks the key."""
    text = PREFIX_TEXT[kind].encode()
    directory = cache_dir()
    if directory is None:
        return prepare_text_only(kind, workdir)
    key = hash_fields([SCHEME, kind, *key_fields, "prefix", text.decode()])
    header = os.path.join(directory, key + ".h")
    pch = os.path.join(directory, key + ".pch")
    try:
        if not os.path.isfile(header):
            write_atomic(header, text)
        if os.path.isfile(pch):
            os.utime(pch)  # recently used: kept by the eviction
            return Prefix(header, pch)
        if not publish(pch, lambda tmp: build(header, tmp)):
            return Prefix(header, None)
        _evict(directory)
        return Prefix(header, pch)
    except OSError:
        return Prefix(header, None) if os.path.isfile(header) else prepare_text_only(kind, workdir)


def prepare_text_only(kind: str, workdir: str) -> Prefix:
    """The prefix as text in the compile's work directory (no cache, or a refused PCH)."""
    header = os.path.join(workdir, f"bisheng_prefix_{kind}.h")
    with open(header, "wb") as f:
        f.write(PREFIX_TEXT[kind].encode())
    return Prefix(header, None)
