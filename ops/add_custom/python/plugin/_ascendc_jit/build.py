"""One kernel build: bisheng (with a depfile) then llvm-objcopy, served from the kernel cache."""

import os
import shlex
import sys
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

from .kernel_cache import CacheRequest, KernelCache
from .toolchain import Toolchain, find_toolchain

AICORE_SECTION = ".aicore_binary"


class KernelBuildError(RuntimeError):
    """The kernel did not compile (message carries the compiler's diagnostics)."""


@dataclass(frozen=True)
class KernelBuild:
    binary: bytes
    from_cache: bool


def parse_depfile(text: str, base_dir: Path) -> List[str]:
    """Prerequisites of a make-style depfile (`target: a b \\` continuation lines)."""
    joined = text.replace("\\\n", " ")
    deps: List[str] = []
    for line in joined.splitlines():
        _, colon, rest = line.partition(": ")
        if not colon:
            continue
        tokens, current, escaped = [], "", False
        for ch in rest:
            if escaped:
                current += ch
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch.isspace():
                if current:
                    tokens.append(current)
                current = ""
            else:
                current += ch
        if current:
            tokens.append(current)
        deps.extend(str((base_dir / t).resolve()) for t in tokens)
    return deps


def _run(argv: Sequence[str], what: str, cwd: str, subject: str) -> None:
    try:
        run = subprocess.run(list(argv), capture_output=True, text=True, cwd=cwd)
    except OSError as exc:
        raise KernelBuildError(f"{what} could not start ({argv[0]}): {exc.strerror}") from None
    if run.returncode != 0:
        diagnostics = (run.stderr or run.stdout).strip()
        raise KernelBuildError(f"{what} failed (exit {run.returncode}) on {subject}\n$ {shlex.join(argv)}\n{diagnostics}")


def _compile(toolchain: Toolchain, source: Path, flags: Sequence[str]) -> tuple:
    with tempfile.TemporaryDirectory(prefix="ascendc-jit-") as work:
        host_o = os.path.join(work, "host.o")
        aicore_o = os.path.join(work, "k.aicore.o")
        depfile = os.path.join(work, "host.d")
        _run([toolchain.bisheng, "-c", str(source), "-o", host_o, *flags, "-MD", "-MF", depfile],
             "bisheng", work, str(source))
        _run([toolchain.objcopy, "-O", "binary", f"--only-section={AICORE_SECTION}", host_o, aicore_o],
             "llvm-objcopy", work, host_o)
        binary = Path(aicore_o).read_bytes()
        if not binary:
            raise KernelBuildError(f"llvm-objcopy extracted an empty {AICORE_SECTION} section from {source}")
        try:
            deps = parse_depfile(Path(depfile).read_text(encoding="utf-8"), Path(work))
        except OSError:
            deps = []  # no depfile: still correct, just not cacheable
        src = str(source.resolve())
        return binary, [d for d in deps if d != src], bool(deps)


def build_kernel(source: Path, *, soc: str, npu_arch: str, extra_flags: Sequence[str] = (),
                 cache: Optional[KernelCache] = None, toolchain: Optional[Toolchain] = None) -> KernelBuild:
    """Device binary bytes of ``source`` for one SoC/arch (cache hit, else compile and store)."""
    cache = cache if cache is not None else KernelCache()
    toolchain = toolchain if toolchain is not None else find_toolchain(cache.identity_dir)
    arch = npu_arch[4:] if npu_arch.startswith("dav-") else npu_arch
    flags = [f"--npu-arch=dav-{arch}", *(f"-I{d}" for d in toolchain.include_dirs), *extra_flags]
    try:
        source_bytes = Path(source).read_bytes()
    except OSError as exc:
        raise KernelBuildError(f"cannot read kernel source {source}: {exc.strerror}") from None
    request = CacheRequest(source_bytes, toolchain.identity, flags, soc, arch)
    discarded_before = len(cache.discarded)
    cached = cache.lookup(request)
    for path in cache.discarded[discarded_before:]:
        print(f"kernel cache: entry {path} failed verification; discarded, rebuilding", file=sys.stderr, flush=True)
    if cached is not None:
        return KernelBuild(cached, True)
    binary, headers, cacheable = _compile(toolchain, Path(source), flags)
    if cacheable:
        cache.store(request, headers, binary)
    return KernelBuild(binary, False)
