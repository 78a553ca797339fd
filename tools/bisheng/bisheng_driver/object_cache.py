"""The objects of a compile of an unchanged source, reused whole (ccache's job for bisheng):
the second `bisheng -x asc prog.asc -o prog` of a file nobody edited, a script that compiles
before it runs, a rebuild after `make clean`.

A compile's objects (the host object; in a program link also its registration object) are
a function of: the driver identity (driver code digest, clang and lld versions), the twin
header tree, the working directory, the source as spelled and its content, every header the
preprocessor reads for it (path and content) and every option that reaches a clang pass. The
look-up runs in two steps so an edit costs nothing: the entry's first half (all but the
headers) must exist — else the source or the flags changed since the last compile and the
compile goes ahead at once; then `clang -M` (compile.py's dependency scan: include resolution
by clang itself, so a header that now shadows another is seen) lists the headers, whose paths
and contents complete the key. A hit copies the objects; they are the bytes the compile wrote.

Only for compiles whose whole output is the objects: no -MD/-MMD depfile, no kernel cache key
report, no aclrtlaunch headers, no -dc, not under -v (whose command echo users read). Sources
that spell __DATE__, __TIME__ or __TIMESTAMP__ (in themselves or a header) are never cached.
Entries live in `objects/` of the PCH cache directory (same rules; BISHENG_DEVICE_CACHE=off
turns this cache off too, BISHENG_OBJECT_CACHE=off this one alone): `<key>.json` (file names,
sizes, sha256, kernel names) and the objects beside it, written by cache_support's publishing
rule, the JSON last; the MAX_ENTRIES most recently used are kept.
"""

import hashlib
import json
import os
from typing import List, Optional, Tuple

from .cache_support import hash_fields, sweep_temporaries, write_atomic

SCHEME = "asc-twin-objects/1"
SUBDIR = "objects"
CACHE_ENV = "BISHENG_OBJECT_CACHE"  # off: this cache alone is off
MAX_ENTRIES = 64
_CLOCK_MACROS = {"__DATE__", "__TIME__", "__TIMESTAMP__"}


def eligible(opts) -> bool:
    return not (
        opts.dep_mode
        or opts.twin_cache_key
        or opts.twin_key_only
        or opts.twin_aclrtlaunch_dir
        or opts.rdc
        or opts.verbose
    )


def directory() -> Optional[str]:
    from .device_cache import directory as device_directory

    if os.environ.get(CACHE_ENV, "").strip().lower() in ("off", "0", "no"):
        return None
    base = device_directory()
    if base is None:
        return None
    path = os.path.join(os.path.dirname(base), SUBDIR)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path


def first_half(identity: str, twin_tree: str, opts, res, source_digest: str, separate: bool) -> str:
    """The key without the headers: everything the command line and the source determine."""
    fields = [
        SCHEME,
        identity,
        twin_tree,
        os.getcwd(),
        opts.source,
        source_digest,
        str(opts.language),
        f"--npu-arch={opts.arch.flag}",
        opts.core_macro or "",
        opts.std,
        opts.opt_level,
        opts.debug_flag or "",
        res.asc_include,
        res.abi_include,
        *res.host_includes,
        "registration apart" if separate else "merged",
    ]
    for group in (opts.preprocessor_flags, opts.extra_flags, opts.warning_flags):
        fields += [str(len(group)), *group]
    return hash_fields(fields)


def full_key(half: str, headers_digest: str) -> str:
    return hash_fields([SCHEME, half, headers_digest])


def has_first_half(half: str) -> bool:
    where = directory()
    if where is None:
        return False
    try:
        os.utime(os.path.join(where, half + ".half"))  # recently used: kept by the eviction
        return True
    except OSError:
        return False


def spells_a_clock_macro(source: str, headers: List[str], headers_digest: str) -> bool:
    """Whether the source or a header spells __DATE__/__TIME__/__TIMESTAMP__ (the headers'
    answer remembered per header set and content: the scan reads every header)."""
    from .device_source import mentioned_in
    from .pch import remembered

    if mentioned_in([source], set(_CLOCK_MACROS)):
        return True
    return bool(
        remembered("clock-macros", [SCHEME, headers_digest], lambda: sorted(mentioned_in(headers, set(_CLOCK_MACROS))))
    )


def load(key: str, outputs: List[str]) -> Optional[Tuple[List[str], List[str]]]:
    """Copies the entry's objects to the first of `outputs` (in order; as many as it has);
    returns (the kernel names, the paths written), or None."""
    where = directory()
    if where is None:
        return None
    try:
        with open(os.path.join(where, key + ".json"), encoding="utf-8") as f:
            record = json.load(f)
        files = record["files"]
        if not 0 < len(files) <= len(outputs):
            return None
        blobs = []
        for name, digest in files:
            with open(os.path.join(where, name), "rb") as f:
                data = f.read()
            if hashlib.sha256(data).hexdigest() != digest:
                return None  # torn or altered: compile instead
            blobs.append(data)
        kernels = [str(k) for k in record["kernels"]]
        os.utime(os.path.join(where, key + ".json"))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    written = outputs[: len(blobs)]
    for data, out in zip(blobs, written):
        write_atomic(out, data)
        os.chmod(out, 0o644)
    return kernels, written


def store(half: str, key: str, objects: List[str], kernels: List[str]) -> None:
    where = directory()
    if where is None:
        return
    try:
        files = []
        for index, path in enumerate(objects):
            with open(path, "rb") as f:
                data = f.read()
            name = f"{key}.{index}.o"
            write_atomic(os.path.join(where, name), data)
            files.append([name, hashlib.sha256(data).hexdigest()])
        write_atomic(os.path.join(where, key + ".json"), json.dumps({"files": files, "kernels": kernels}).encode())
        write_atomic(os.path.join(where, half + ".half"), b"")
        _evict(where)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _evict(where: str) -> None:
    sweep_temporaries(where)
    names = os.listdir(where)
    for suffix in (".json", ".half"):
        entries = sorted(
            (os.path.join(where, n) for n in names if n.endswith(suffix)), key=lambda p: os.stat(p).st_mtime
        )
        for path in entries[: max(0, len(entries) - MAX_ENTRIES)]:
            stem = path[: -len(suffix)]
            for victim in [path] + ([stem + f".{i}.o" for i in range(2)] if suffix == ".json" else []):
                try:
                    os.unlink(victim)
                except OSError:
                    pass
