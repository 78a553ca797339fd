"""Persistent kernel cache (DESIGN.md §3 "Kernel cache").

Key = sha256 over: the kernel source content, the content of every header the compile read
(taken from bisheng's -MD depfile), the compiler identity (`bisheng --version`), the flags, the SoC
and the NpuArch. The header set is only known after a compile, so lookups go in two steps, as in
ccache's direct mode:

  manifests/<M>.json   M = sha256(source, identity, flags, soc, arch) -> the header paths read
  entries/<K>.aicore   K = sha256(M, (path, sha256(content)) of each listed header) -> binary

A changed header gives a new K (miss, recompile, manifest rewritten). Entries carry a header line
with the payload's sha256 and length, are written atomically (temp file + rename) and verified on
every read; a bad entry is deleted and reported as a miss, never used.
"""

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List, Optional, Sequence

from .atomic import write_atomically

ENTRY_MAGIC = b"ASCEND-TWIN-KCACHE 1"
LAYOUT = "v1"


def default_cache_dir() -> Path:
    configured = os.environ.get("ASCEND_TWIN_KERNEL_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "ascend-twin" / "kernels"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _hash_fields(fields: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for field in fields:
        encoded = field.encode("utf-8")
        digest.update(len(encoded).to_bytes(8, "little"))  # length-prefixed: no ambiguous joins
        digest.update(encoded)
    return digest.hexdigest()


@dataclass(frozen=True)
class CacheRequest:
    source: bytes
    identity: str
    flags: Sequence[str]
    soc: str
    npu_arch: str

    def manifest_key(self) -> str:
        return _hash_fields(["source", _sha256(self.source), "identity", self.identity,
                             "flags", *self.flags, "soc", self.soc, "npu_arch", self.npu_arch])


class KernelCache:
    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = (Path(root) if root is not None else default_cache_dir()) / LAYOUT
        self.discarded: List[str] = []  # entries found corrupt in this process (for reporting)

    @property
    def identity_dir(self) -> Path:
        return self.root / "identity"

    def _manifest_path(self, manifest_key: str) -> Path:
        return self.root / "manifests" / f"{manifest_key}.json"

    def _entry_path(self, key: str) -> Path:
        return self.root / "entries" / key[:2] / f"{key}.aicore"

    @staticmethod
    def _full_key(manifest_key: str, headers: Sequence[str]) -> Optional[str]:
        fields = ["manifest", manifest_key]
        for header in headers:
            try:
                with open(header, "rb") as src:  # plain open: pathlib costs more than hashing here
                    content = src.read()
            except OSError:
                return None  # a header vanished: the recorded set no longer applies
            fields += [header, _sha256(content)]
        return _hash_fields(fields)

    def lookup(self, request: CacheRequest) -> Optional[bytes]:
        manifest_key = request.manifest_key()
        try:
            manifest = json.loads(self._manifest_path(manifest_key).read_text(encoding="utf-8"))
            headers = [str(h) for h in manifest["headers"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        key = self._full_key(manifest_key, headers)
        return None if key is None else self._read_entry(key)

    def _read_entry(self, key: str) -> Optional[bytes]:
        path = self._entry_path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        head, sep, payload = blob.partition(b"\n")
        fields = head.split(b" ")
        valid = (sep == b"\n" and len(fields) == 4 and b" ".join(fields[:2]) == ENTRY_MAGIC
                 and fields[3] == str(len(payload)).encode() and fields[2] == _sha256(payload).encode()
                 and len(payload) > 0)
        if not valid:
            self.discarded.append(str(path))
            try:
                path.unlink()
            except OSError:
                pass
            return None
        return payload

    def store(self, request: CacheRequest, headers: Sequence[str], binary: bytes) -> None:
        manifest_key = request.manifest_key()
        headers = sorted(set(headers))
        key = self._full_key(manifest_key, headers)
        if key is None:
            return  # a header disappeared during the build; do not cache what we cannot key
        head = b" ".join([ENTRY_MAGIC, _sha256(binary).encode(), str(len(binary)).encode()])
        write_atomically(self._entry_path(key), head + b"\n" + binary)
        write_atomically(self._manifest_path(manifest_key),
                         json.dumps({"headers": headers}, indent=0).encode("utf-8"))
