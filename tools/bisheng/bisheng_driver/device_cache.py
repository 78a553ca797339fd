"""The device binary of a compile, cached by the content of everything that determines it.

A compile whose device pass would see exactly what an earlier one saw reuses that compile's
device binary (`device.so`) and parameter records instead of running the device preprocess,
compile and link again: the second and later compiles of an unchanged file (edit-compile-run of
another file, a rebuild after `make clean`, CMake re-running a target) skip most of their time.

The key is deliberately conservative — it is spelled, not normalized like the kernel cache key
(cache_key.py), so a hit is exactly a repeat of a compile that already ran:
  the driver identity (driver code digest, clang and lld versions), the twin header tree digest,
  the working directory, the source as spelled and its content, every header the host pass read
  (clang -MD: path as listed and content), every command-line flag that reaches a clang pass,
  the NPU architecture and the kernel list the host object gave.
A hit yields the same bytes as compiling: the entry is what a compile of the same inputs wrote.

Entries live in `device/` under the PCH cache directory (same rules: BISHENG_PCH_CACHE=off
disables both, BISHENG_DEVICE_CACHE=off this one alone; same ownership check): `<key>.so` and
`<key>.json` (the parameter records and the sha256 of the .so, checked on every hit), each
written to a temporary file and renamed, the .json last. The MAX_ENTRIES most recently used are kept.
"""

import dataclasses
import functools
import hashlib
import json
import os
from typing import Optional

from .cache_support import hash_fields, sweep_temporaries, write_atomic

SCHEME = "asc-twin-device-binary/3"  # 2: keyed by the device text; 3: headers hashed apart
MAX_ENTRIES = 64
SUBDIR = "device"
CACHE_ENV = "BISHENG_DEVICE_CACHE"  # off: this cache alone is off (the PCH cache stays)


@functools.lru_cache(maxsize=None)  # once per process: cache_dir() may print a note
def directory() -> Optional[str]:
    from .cache_root import cache_dir

    if os.environ.get(CACHE_ENV, "").strip().lower() in ("off", "0", "no"):
        return None
    base = cache_dir()
    if base is None:
        return None
    path = os.path.join(base, SUBDIR)
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path


def _digest(path: str) -> str:
    from .file_digests import digest

    return digest(path)


@functools.lru_cache(maxsize=4)  # both keys, the guess's and the compile's: one header list
def headers_digest(deps: tuple, source: str) -> str:
    """Paths and contents of the host pass's headers (the source by name only)."""
    fields = [str(len(deps))]
    for dep in deps:
        fields += [dep, "the source" if dep == source else _digest(dep)]
    return hash_fields(fields)


def source_digest(path: str) -> str:
    return _digest(path)


def text_digest(text: str) -> str:
    """The digest of a device text compile.py wrote in place of the source (device_source.py)."""
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def key_of(identity: str, twin_tree: str, opts, device_text_digest: str, deps: list, kernels: list) -> str:
    """deps: the host pass's -MD prerequisites (the source first: its content counts only as
    the text its device pass compiles, `device_text_digest`, so a host-only edit keeps the key)."""
    fields = [
        SCHEME,
        identity,
        twin_tree,
        os.getcwd(),
        opts.source,
        device_text_digest,
        f"--npu-arch={opts.arch.flag}",
        opts.core_macro or "",
        opts.std,
        opts.opt_level,
        opts.debug_flag or "",
    ]
    for group in (opts.preprocessor_flags, opts.extra_flags):
        fields += [str(len(group)), *group]
    fields.append(headers_digest(tuple(deps), opts.source))
    fields.append(str(len(kernels)))
    for k in kernels:
        fields += [k.stub, k.name, k.ref, str(k.local)]
    return hash_fields(fields)


def load(key: str, workdir: str, info_type) -> Optional[tuple]:
    """(path of a copy of the cached device.so in workdir, parameter infos) or None."""
    where = directory()
    if where is None:
        return None
    so, meta = os.path.join(where, key + ".so"), os.path.join(where, key + ".json")
    try:
        with open(meta, encoding="utf-8") as f:
            record = json.load(f)
        with open(so, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() != record["so_sha256"]:
            return None  # torn or altered entry: compile instead
        infos = [info_type(list(r["sizes"]), list(r["kinds"])) for r in record["infos"]]
        os.utime(meta)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    copy = os.path.join(workdir, "device.so")
    with open(copy, "wb") as f:
        f.write(data)
    return copy, infos


def store(key: str, device_so: str, infos: list) -> None:
    where = directory()
    if where is None:
        return
    try:
        with open(device_so, "rb") as f:
            data = f.read()
        record = {
            "scheme": SCHEME,
            "so_sha256": hashlib.sha256(data).hexdigest(),
            "infos": [{"sizes": i.sizes, "kinds": i.kinds} for i in infos],
        }
        write_atomic(os.path.join(where, key + ".so"), data)
        write_atomic(os.path.join(where, key + ".json"), json.dumps(record, sort_keys=True).encode())
        _evict(where)
    except OSError:
        pass  # a cache that cannot be written only costs speed


# The registration object of a cached device binary is a function of that binary, its kernels
# and parameter records (all determined by the key), the driver and the twin headers (in the
# key): kept beside it, `<key>.reg.o` + `<key>.reg.sha256` (written last, checked on use).
def load_registration(key: str, workdir: str) -> bool:
    """Copies the cached register.o of key into workdir; False when there is none (or damaged)."""
    where = directory()
    if where is None:
        return False
    try:
        with open(os.path.join(where, key + ".reg.sha256"), encoding="ascii") as f:
            want = f.read().strip()
        with open(os.path.join(where, key + ".reg.o"), "rb") as f:
            data = f.read()
    except OSError:
        return False
    if hashlib.sha256(data).hexdigest() != want:
        return False
    with open(os.path.join(workdir, "register.o"), "wb") as f:
        f.write(data)
    return True


def store_registration(key: str, reg_obj: str) -> None:
    where = directory()
    if where is None:
        return
    try:
        with open(reg_obj, "rb") as f:
            data = f.read()
        write_atomic(os.path.join(where, key + ".reg.o"), data)
        write_atomic(os.path.join(where, key + ".reg.sha256"), hashlib.sha256(data).hexdigest().encode())
    except OSError:
        pass


def _evict(where: str) -> None:
    """Keeps the MAX_ENTRIES most recently used binaries and as many `.last` records."""
    sweep_temporaries(where)
    names = os.listdir(where)
    for suffix, companions in ((".json", (".so", ".reg.o", ".reg.sha256")), (".last", ())):
        kept = [os.path.join(where, n) for n in names if n.endswith(suffix) and not n.endswith(".reg.sha256")]
        if len(kept) <= MAX_ENTRIES:
            continue
        kept.sort(key=lambda p: os.stat(p).st_mtime)
        for path in kept[: len(kept) - MAX_ENTRIES]:
            for victim in (path, *(path[: -len(suffix)] + c for c in companions)):
                try:
                    os.unlink(victim)
                except OSError:
                    pass


# What the last compile of the same source, in the same directory with the same flags, found:
# its kernels and its headers. With them the next compile can start its device pass beside the
# host pass (compile.py), unless the device binary they predict is cached already.
def _last_path(where: str, opts) -> str:
    fields = [
        SCHEME,
        "last",
        os.getcwd(),
        opts.source,
        f"--npu-arch={opts.arch.flag}",
        opts.core_macro or "",
        opts.std,
        opts.opt_level,
        opts.debug_flag or "",
        *opts.preprocessor_flags,
        *opts.extra_flags,
    ]
    return os.path.join(where, hash_fields(fields) + ".last")


def remember(opts, kernels: list, deps: list) -> None:
    where = directory()
    if where is None:
        return
    record = {"kernels": [dataclasses.asdict(k) for k in kernels], "deps": deps}
    try:
        write_atomic(_last_path(where, opts), json.dumps(record, sort_keys=True).encode())
    except OSError:
        pass


def last(opts, kernel_type) -> Optional[tuple]:
    """(kernels, deps) of the last compile of this source, or None."""
    where = directory()
    if where is None:
        return None
    try:
        with open(_last_path(where, opts), encoding="utf-8") as f:
            record = json.load(f)
        return [kernel_type(**k) for k in record["kernels"]], list(record["deps"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def has(key: str) -> bool:
    where = directory()
    return where is not None and os.path.isfile(os.path.join(where, key + ".json"))
