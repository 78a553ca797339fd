"""Locating bisheng and llvm-objcopy the way a CANN user's script does, and the compiler identity."""

import hashlib
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Tuple

OBJCOPY_NAMES = ("llvm-objcopy", "llvm-objcopy-16")
# bisheng (ascend-twin) lists its twin-only options in `--version`; CANN's bisheng has none.
TWIN_EXTENSIONS_LINE = "Twin extensions:"
SHARED_KEY_OPTION = "--twin-cache-key"
LLVM_FALLBACK_BIN = "/usr/lib/llvm-16/bin"


class ToolchainError(RuntimeError):
    """A tool the kernel build needs is missing or unusable."""


@dataclass(frozen=True)
class Toolchain:
    bisheng: str  # absolute path of the bisheng driver
    objcopy: str  # absolute path of llvm-objcopy
    include_dirs: Tuple[str, ...]  # -I directories of the CANN install (asc/include, include)
    identity: str  # `bisheng --version` output: part of every kernel cache key
    shared_key: bool = False  # bisheng has the twin extension --twin-cache-key (kernel_cache.py)


def _ascend_home() -> Path:
    home = os.environ.get("ASCEND_HOME_PATH")
    if not home:
        raise ToolchainError(
            "ASCEND_HOME_PATH is not set: cannot find bisheng "
            "(source the CANN set_env.sh or export ASCEND_HOME_PATH=<CANN install>)"
        )
    return Path(home)


def _find_bisheng(home: Path) -> str:
    path = home / "bin" / "bisheng"
    if not path.is_file() or not os.access(path, os.X_OK):
        raise ToolchainError(
            f"bisheng not found: {path} does not exist or is not executable (check ASCEND_HOME_PATH={home})"
        )
    return str(path)


def _find_objcopy(home: Path) -> str:
    for name in OBJCOPY_NAMES:
        candidate = home / "bin" / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
        found = shutil.which(name)
        if found:
            return found
    fallback = Path(LLVM_FALLBACK_BIN) / "llvm-objcopy"
    if fallback.is_file():
        return str(fallback)
    raise ToolchainError(f"llvm-objcopy not found in {home / 'bin'}, on PATH or in {LLVM_FALLBACK_BIN}")


def _stat_signature(bisheng: str) -> str:
    """Changes whenever the driver or a file next to it (its Python package) changes."""
    root = Path(bisheng).resolve().parent
    parts = []
    for path in sorted([Path(bisheng).resolve()] + [p for p in root.rglob("*.py")]):
        try:
            st = path.stat()
        except OSError:
            continue
        parts.append(f"{path}:{st.st_mtime_ns}:{st.st_size}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


_identity_lock = threading.Lock()
_identity_memo: Dict[str, str] = {}


def compiler_identity(bisheng: str, memo_dir: Optional[Path]) -> str:
    """`bisheng --version`, memoized per driver state in-process and (optionally) on disk: running
    the driver costs ~0.2 s, which would dominate a kernel cache hit."""
    signature = _stat_signature(bisheng)
    with _identity_lock:
        if signature in _identity_memo:
            return _identity_memo[signature]
    memo_file = memo_dir / f"{signature}.txt" if memo_dir is not None else None
    if memo_file is not None and memo_file.is_file():
        identity = memo_file.read_text(encoding="utf-8")
    else:
        try:
            run = subprocess.run([bisheng, "--version"], capture_output=True, text=True, timeout=60)
        except OSError as exc:
            raise ToolchainError(f"cannot run {bisheng} --version: {exc.strerror}") from None
        if run.returncode != 0:
            raise ToolchainError(f"{bisheng} --version failed (exit {run.returncode}): {run.stderr.strip()}")
        identity = run.stdout
        if memo_file is not None:
            from .atomic import write_atomically

            write_atomically(memo_file, identity.encode("utf-8"))
    with _identity_lock:
        _identity_memo[signature] = identity
    return identity


def find_toolchain(memo_dir: Optional[Path] = None) -> Toolchain:
    home = _ascend_home()
    bisheng = _find_bisheng(home)
    objcopy = _find_objcopy(home)
    include_dirs = tuple(str(d) for d in (home / "asc" / "include", home / "include") if d.is_dir())
    identity = compiler_identity(bisheng, memo_dir)
    return Toolchain(bisheng, objcopy, include_dirs, identity, supports_shared_key(identity))


def supports_shared_key(version_text: str) -> bool:
    for line in version_text.splitlines():
        if line.startswith(TWIN_EXTENSIONS_LINE):
            options = line[len(TWIN_EXTENSIONS_LINE) :].split()
            return any(opt.split("=")[0] == SHARED_KEY_OPTION for opt in options)
    return False
