"""One kernel build: bisheng (with a depfile) then llvm-objcopy, served from the kernel cache
(steps in kernel_cache.py: direct mode, then bisheng's key for the same command line, then compile)."""

import hashlib
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from bisheng_driver.tool_api import parse_deps  # the driver's own parser: one format

from .kernel_cache import CacheRequest, KernelCache, KeyedBuild
from .key_report import KeyReportError, keyed_build, read_key_report
from .toolchain import Toolchain, find_toolchain
from .workdir import build_dir

AICORE_SECTION = ".aicore_binary"


class KernelBuildError(RuntimeError):
    """The kernel did not compile (message carries the compiler's diagnostics)."""


@dataclass(frozen=True)
class KernelBuild:
    binary: bytes
    from_cache: bool


def parse_depfile(text: str, base_dir: Path) -> List[str]:
    """Prerequisites of bisheng's depfile, as absolute paths (relative ones are under base_dir)."""
    return [str((base_dir / t).resolve()) for t in parse_deps(text)]


def _run(argv: Sequence[str], what: str, cwd: str, subject: str) -> None:
    try:
        run = subprocess.run(list(argv), capture_output=True, text=True, cwd=cwd)
    except OSError as exc:
        raise KernelBuildError(f"{what} could not start ({argv[0]}): {exc.strerror}") from None
    if run.returncode != 0:
        diagnostics = (run.stderr or run.stdout).strip()
        raise KernelBuildError(
            f"{what} failed (exit {run.returncode}) on {subject}\n$ {shlex.join(argv)}\n{diagnostics}"
        )


def _key_flags(toolchain: Toolchain, report: str, soc: str) -> List[str]:
    return [f"--twin-cache-key={report}", f"--twin-soc={soc}"] if toolchain.shared_key else []


def _shared_key(
    toolchain: Toolchain, source: Path, flags: Sequence[str], soc: str, source_bytes: bytes
) -> Optional[KeyedBuild]:
    """bisheng's key for this command line without compiling (a dependency scan); None when it
    cannot tell (the compile that follows reports any real problem)."""
    with build_dir("key") as work:
        report_path = os.path.join(work, "key.json")
        argv = [
            toolchain.bisheng,
            "-c",
            str(source),
            "-o",
            os.path.join(work, "host.o"),
            *flags,
            *_key_flags(toolchain, report_path, soc),
            "--twin-cache-key-only",
        ]
        try:
            _run(argv, "bisheng --twin-cache-key-only", work, str(source))
            report = read_key_report(Path(report_path), Path(work))
        except (KernelBuildError, KeyReportError):
            return None
    if report.get("source_sha256") != hashlib.sha256(source_bytes).hexdigest():
        return None  # the source changed under us: this key is not the request's
    return keyed_build(report)


def _compile(
    toolchain: Toolchain,
    source: Path,
    flags: Sequence[str],
    request: CacheRequest,
) -> Tuple[bytes, Optional[KeyedBuild]]:
    """Device binary bytes and the key to store them under (None: not cacheable)."""
    with build_dir("compile") as work:
        host_o = os.path.join(work, "host.o")
        aicore_o = os.path.join(work, "k.aicore.o")
        depfile = os.path.join(work, "host.d")
        report_path = os.path.join(work, "key.json")
        _run(
            [
                toolchain.bisheng,
                "-c",
                str(source),
                "-o",
                host_o,
                *flags,
                "-MD",
                "-MF",
                depfile,
                *_key_flags(toolchain, report_path, request.soc),
            ],
            "bisheng",
            work,
            str(source),
        )
        _run(
            [toolchain.objcopy, "-O", "binary", f"--only-section={AICORE_SECTION}", host_o, aicore_o],
            "llvm-objcopy",
            work,
            host_o,
        )
        binary = Path(aicore_o).read_bytes()
        if not binary:
            raise KernelBuildError(f"llvm-objcopy extracted an empty {AICORE_SECTION} section from {source}")
        if toolchain.shared_key:
            try:
                report = read_key_report(Path(report_path), Path(work))
            except KeyReportError as exc:
                print(f"kernel cache: {exc}; not caching", file=sys.stderr, flush=True)
                return binary, None
            if report.get("source_sha256") != hashlib.sha256(request.source).hexdigest():
                return binary, None  # edited during the build: do not file it under the old source
            return binary, keyed_build(report)
        try:
            deps = parse_depfile(Path(depfile).read_text(encoding="utf-8"), Path(work))
        except OSError:
            return binary, None  # no depfile: still correct, just not cacheable
        src = str(source.resolve())
        return binary, KernelCache.local_key(request, [d for d in deps if d != src])


def build_kernel(
    source: Path,
    *,
    soc: str,
    npu_arch: str,
    extra_flags: Sequence[str] = (),
    cache: Optional[KernelCache] = None,
    toolchain: Optional[Toolchain] = None,
    op_type: Optional[str] = None,
    kernel_name: Optional[str] = None,
) -> KernelBuild:
    """Device binary bytes of ``source`` for one SoC/arch (cache hit, else compile and store).

    A holder passes ``op_type`` (and ``kernel_name`` when the op has several kernels): a failure
    then reads ``<op_type>: kernel [<kernel_name> ]failed to compile for <soc> (dav-<arch>): <cause>``,
    the one line GE shows for the node, followed by the compiler's diagnostics."""
    arch = npu_arch[4:] if npu_arch.startswith("dav-") else npu_arch
    try:
        return _build_kernel(Path(source), soc, arch, extra_flags, cache, toolchain)
    except KernelBuildError as exc:
        if op_type is None:
            raise
        kernel = f"kernel {kernel_name}" if kernel_name else "kernel"
        raise KernelBuildError(f"{op_type}: {kernel} failed to compile for {soc} (dav-{arch}): {exc}") from None


def _build_kernel(
    source: Path,
    soc: str,
    arch: str,
    extra_flags: Sequence[str],
    cache: Optional[KernelCache],
    toolchain: Optional[Toolchain],
) -> KernelBuild:
    cache = cache if cache is not None else KernelCache()
    toolchain = toolchain if toolchain is not None else find_toolchain(cache.identity_dir)
    flags = [f"--npu-arch=dav-{arch}", *(f"-I{d}" for d in toolchain.include_dirs), *extra_flags]
    try:
        source_bytes = Path(source).read_bytes()
    except OSError as exc:
        raise KernelBuildError(f"cannot read kernel source {source}: {exc.strerror}") from None
    request = CacheRequest(source_bytes, str(Path(source).resolve()), toolchain.identity, flags, soc, arch)
    discarded_before = len(cache.discarded)
    try:
        cached = cache.lookup(request)
        if cached is None and toolchain.shared_key and cache.has_entries():
            keyed = _shared_key(toolchain, Path(source), flags, soc, source_bytes)
            if keyed is not None:
                cached = cache.read_entry(keyed.key)
                if cached is not None:
                    cache.remember(request, keyed)  # next time: direct mode, no compiler run
        if cached is not None:
            return KernelBuild(cached, True)
    finally:
        for path in cache.discarded[discarded_before:]:
            print(f"kernel cache: entry {path} failed verification; discarded, rebuilding", file=sys.stderr, flush=True)
    with cache.build_lock(request):  # one compile per key across processes
        cached = cache.lookup(request)  # another process may have built it while we waited
        if cached is not None:
            return KernelBuild(cached, True)
        # A cold compile takes seconds: say so before it starts, so a waiting user knows why.
        print(f"ascendc_jit: compiling {source} for {soc} (dav-{arch}) with bisheng ...", file=sys.stderr, flush=True)
        binary, keyed = _compile(toolchain, Path(source), flags, request)
        if keyed is not None:
            cache.store(request, keyed, binary)
    return KernelBuild(binary, False)
