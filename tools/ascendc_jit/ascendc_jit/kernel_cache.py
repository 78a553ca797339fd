"""Persistent kernel cache, keyed as tools/bisheng/README.md ("Kernel cache key") describes.

The key — one definition, shared with Bazel's ``ascendc_kernel`` — comes from the compiler:
bisheng (ascend-twin) writes it with its twin extension ``--twin-cache-key=FILE --twin-soc=SOC``
(tools/bisheng/README.md "Kernel cache key"). It is sha256 over the compiler identity (driver
code digest, clang/lld versions), the normalized flags (NPU arch, -D/-U, -std, -O, -g; not include
dirs or output paths), SoC and NpuArch, the source content and the sorted (logical name, sha256)
of every header the compile read (clang -MD, system headers included). It does not depend on
where any file lives, so a kernel Bazel built in its sandbox serves this cache unchanged
(``add_prebuilt``), and one built here under another directory is a hit too.

The header set is only known after preprocessing, so lookups go in steps, like ccache:

  1. direct mode: manifests/<M>.json, M = sha256(source content and absolute path,
     `bisheng --version`, flags as passed, SoC, arch) -> {"key": K, "headers": [[path, sha256],
     ...]}; if every listed header still has that sha256, K is current ->
     entries/<K[:2]>/<K>.aicore. No compiler runs. (M is this machine's index and names local
     paths; K never does.)
  2. preprocessor mode (on a direct-mode miss, when the cache holds any entry):
     ``bisheng --twin-cache-key-only`` computes K from a dependency scan; an entry under K
     (e.g. seeded from Bazel) is a hit and the manifest is written so the next lookup is direct.
  3. miss: compile (bisheng reports K with the same flags), store the entry and the manifest.

With a bisheng that lacks the twin extension (CANN's own), step 2 is skipped and K is a local
key, sha256(M, (path, sha256) of each header from the -MD depfile): cached, but not shareable.

Entries carry a header line with the payload's sha256 and length, are written atomically
(temp file, fsync, rename, directory fsync) and verified on every read; a bad entry is deleted
and reported as a miss, never used.

Trust (Ascend tooling's rule: inputs must not be writable by group or others): the cache root
must be owned by this user (or root) and not group/other-writable, else the cache is not used at
all — one warning line on stderr, every build compiles (ASCEND_TWIN_ALLOW_WRITABLE_PATHS=1 opts
out). Every entry and manifest read is held to the same rule, on the opened file (no symlinks)
and each folder below the root: one that fails is a miss with one warning line, and the compile
that follows replaces it. Directories the cache creates are 0700. One compile per key across processes: a miss takes
an flock on locks/<M>.lock and looks again before compiling. Temp files older than an hour
(left by killed writers) are swept when a process first opens the cache.
"""

import fcntl
import hashlib
import json
import os
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from bisheng_driver.tool_api import hash_fields, untrusted_reason  # one definition, shared with bisheng

from .atomic import TEMP_SUFFIX, write_atomically

ENTRY_MAGIC = b"ASCEND-TWIN-KCACHE 1"
LAYOUT = "v2"
KEY_PATTERN = re.compile(r"^[0-9a-f]{64}$")
ELF_MAGIC = b"\x7fELF"


def default_cache_dir() -> Path:
    configured = os.environ.get("ASCEND_TWIN_KERNEL_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "ascend-twin" / "kernels"


ALLOW_WRITABLE_ENV = "ASCEND_TWIN_ALLOW_WRITABLE_PATHS"
ORPHAN_AGE_SECONDS = 3600
_swept_roots: set = set()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as src:  # plain open: pathlib costs more than hashing here
            return _sha256(src.read())
    except OSError:
        return None


@dataclass(frozen=True)
class CacheRequest:
    source: bytes
    source_path: str  # absolute: `#include "x.h"` is looked up beside it, so the manifest's
    identity: str  # header list holds for this path only (the shared key K names no path)
    flags: Sequence[str]
    soc: str
    npu_arch: str

    def manifest_key(self) -> str:
        return hash_fields(
            [
                "source",
                _sha256(self.source),
                "source_path",
                self.source_path,
                "identity",
                self.identity,
                "flags",
                *self.flags,
                "soc",
                self.soc,
                "npu_arch",
                self.npu_arch,
            ]
        )


@dataclass(frozen=True)
class KeyedBuild:
    """A cache key and the headers (path on this machine, sha256) whose contents it covers."""

    key: str
    headers: Tuple[Tuple[str, str], ...]


class KernelCacheError(ValueError):
    """A prebuilt entry offered to the cache is not usable (bad key or binary)."""


class KernelCache:
    def __init__(self, root: Optional[Path] = None) -> None:
        base = Path(root) if root is not None else default_cache_dir()
        self.root = base / LAYOUT
        self.discarded: List[str] = []  # entries found corrupt in this process (for reporting)
        self.refused: List[str] = []  # cache files not used because others could have written them
        self.usable = True
        if os.environ.get(ALLOW_WRITABLE_ENV) != "1":
            for directory in (base, self.root):
                reason = untrusted_reason(directory)
                if reason is not None:
                    self.usable = False
                    print(
                        f"kernel cache: {directory} {reason}; the cache is not used (make it private with "
                        f"chmod go-w, or point ASCEND_TWIN_KERNEL_CACHE elsewhere; {ALLOW_WRITABLE_ENV}=1 "
                        f"trusts it anyway)",
                        file=sys.stderr,
                        flush=True,
                    )
                    break
        if self.usable and str(self.root) not in _swept_roots:
            _swept_roots.add(str(self.root))
            self._sweep_orphans()

    def _sweep_orphans(self) -> None:
        """Deletes temp files of writers that died (older than ORPHAN_AGE_SECONDS)."""
        cutoff = time.time() - ORPHAN_AGE_SECONDS
        for sub in ("entries", "manifests", "locks"):
            base = self.root / sub
            if not base.is_dir():
                continue
            for dirpath, _, files in os.walk(base):
                for name in files:
                    if not (name.startswith(".") and name.endswith(TEMP_SUFFIX)):
                        continue
                    path = os.path.join(dirpath, name)
                    try:
                        if os.lstat(path).st_mtime < cutoff:
                            os.unlink(path)
                    except OSError:
                        pass

    @contextmanager
    def build_lock(self, request: "CacheRequest"):
        """Held while one process compiles for `request`; others wait, then find the entry."""
        if not self.usable:
            yield
            return
        path = self.root / "locks" / f"{request.manifest_key()}.lock"
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            yield  # no lock possible (read-only cache): compile anyway
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock

    @property
    def identity_dir(self) -> Path:
        return self.root / "identity"

    def _manifest_path(self, manifest_key: str) -> Path:
        return self.root / "manifests" / f"{manifest_key}.json"

    def entry_path(self, key: str) -> Path:
        return self.root / "entries" / key[:2] / f"{key}.aicore"

    # --- step 1: direct mode -------------------------------------------------------------
    def lookup(self, request: CacheRequest) -> Optional[bytes]:
        if not self.usable:
            return None
        text = self._read_trusted(self._manifest_path(request.manifest_key()))
        if text is None:
            return None
        try:
            manifest = json.loads(text.decode("utf-8"))
            key = str(manifest["key"])
            headers = [(str(path), str(sha)) for path, sha in manifest["headers"]]
        except (ValueError, KeyError, TypeError):
            return None
        if not KEY_PATTERN.match(key):
            return None
        for path, sha in headers:
            if file_sha256(path) != sha:
                return None  # a header changed or vanished: the recorded key no longer applies
        return self.read_entry(key)

    def _read_trusted(self, path: Path) -> Optional[bytes]:
        """The bytes of a cache file, if it and every folder between it and the root pass the
        root's own rule (owner this user or root, not writable by group or others); else None
        after one warning line. Checked on the opened file (no symlink followed), so what is
        checked is what is read: an entry planted or loosened after the root was checked is
        never used, and the compile that follows replaces it."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None  # missing (a miss), or a symlink where an entry belongs
        with os.fdopen(fd, "rb") as f:
            if os.environ.get(ALLOW_WRITABLE_ENV) != "1":
                checks = [(str(path), fd)] + [
                    (str(d), str(d)) for d in path.parents if d != self.root and self.root in d.parents
                ]
                for shown, target in checks:
                    reason = untrusted_reason(target)
                    if reason is not None:
                        self.refused.append(shown)
                        print(
                            f"kernel cache: {shown} {reason}; not used, the kernel is compiled again "
                            f"(the cache's files must be as private as its root)",
                            file=sys.stderr,
                            flush=True,
                        )
                        return None
            return f.read()

    def has_entries(self) -> bool:
        """False for an empty cache: no key can hit, so asking bisheng for one is wasted."""
        if not self.usable:
            return False
        try:
            return any(True for _ in (self.root / "entries").iterdir())
        except OSError:
            return False

    def read_entry(self, key: str) -> Optional[bytes]:
        if not self.usable or not KEY_PATTERN.match(key):
            return None
        path = self.entry_path(key)
        blob = self._read_trusted(path)
        if blob is None:
            return None
        head, sep, payload = blob.partition(b"\n")
        fields = head.split(b" ")
        valid = (
            sep == b"\n"
            and len(fields) == 4
            and b" ".join(fields[:2]) == ENTRY_MAGIC
            and fields[3] == str(len(payload)).encode()
            and fields[2] == _sha256(payload).encode()
            and len(payload) > 0
        )
        if not valid:
            self.discarded.append(str(path))
            try:
                path.unlink()
            except OSError:
                pass
            return None
        return payload

    # --- writing -------------------------------------------------------------------------
    def _write_entry(self, key: str, binary: bytes) -> None:
        if not self.usable:
            return
        head = b" ".join([ENTRY_MAGIC, _sha256(binary).encode(), str(len(binary)).encode()])
        write_atomically(self.entry_path(key), head + b"\n" + binary)

    def remember(self, request: CacheRequest, keyed: KeyedBuild) -> None:
        """Writes the direct-mode manifest M -> (K, headers)."""
        if not self.usable:
            return
        write_atomically(
            self._manifest_path(request.manifest_key()),
            json.dumps({"key": keyed.key, "headers": [list(h) for h in keyed.headers]}, indent=0).encode("utf-8"),
        )

    def store(self, request: CacheRequest, keyed: KeyedBuild, binary: bytes) -> None:
        self._write_entry(keyed.key, binary)
        self.remember(request, keyed)  # after the entry: a manifest never points at nothing

    def add_prebuilt(self, key: str, binary: bytes) -> Path:
        """Seeds an entry built elsewhere under the shared key, e.g. Bazel's `<name>.aicore.o`
        with the `key` of its `<name>.cache_key`. Returns the entry path."""
        if not KEY_PATTERN.match(key):
            raise KernelCacheError(f"kernel cache key '{key}' is not 64 lowercase hex digits")
        if not binary.startswith(ELF_MAGIC):
            raise KernelCacheError("prebuilt kernel is not a device binary (no ELF header)")
        self._write_entry(key, binary)
        return self.entry_path(key)

    # --- fallback: a bisheng without the twin extension ----------------------------------
    @staticmethod
    def local_key(request: CacheRequest, header_paths: Sequence[str]) -> Optional[KeyedBuild]:
        headers = []
        for path in sorted(set(header_paths)):
            sha = file_sha256(path)
            if sha is None:
                return None  # a header disappeared during the build; do not cache what we cannot key
            headers.append((path, sha))
        fields = ["local", request.manifest_key()] + [f for h in headers for f in h]
        return KeyedBuild(hash_fields(fields), tuple(headers))
