"""Plain C and C++ sources: bisheng as a project's C and C++ compiler (CMAKE_C_COMPILER /
CMAKE_CXX_COMPILER), as CANN's bisheng, a clang, is used.

A C source (`.c`, `-x c`) is always plain C; a C++ source given without an NPU architecture is
plain C++ (no kernels, no device pass). Either is one clang compile with the user's flags and
the twin's header roots, published atomically like every bisheng output."""

import os
import subprocess
import sys
import tempfile

from .errors import BishengError
from .flags import include_flags  # the same header roots as the kernel pipeline's host pass
from .languages import language_of
from .options import Options
from .publish import check_paths
from .runner import Run
from .toolchain import ResourceDirs, Tools


def _flags(opts: Options, source: str, lang: str, res: ResourceDirs) -> list:
    if lang == "c":
        flags = ["--driver-mode=gcc", "-x", "c"] + ([f"-std={opts.c_std}"] if opts.c_std else [])
    else:
        if opts.c_std:
            raise BishengError(f"invalid argument '-std={opts.c_std}' not allowed with C++ source '{source}'")
        flags = ["--driver-mode=g++", "-x", "c++", f"-std={opts.std}"]
    flags += [opts.opt_level, "-fPIC"] + ([opts.debug_flag] if opts.debug_flag else [])
    if opts.arch is not None:
        flags += [f"-D__NPU_ARCH__={opts.arch.number}", f"-D__CCE_AICORE__={opts.arch.cce_aicore}"]
    return flags + list(opts.extra_flags) + include_flags(opts, res) + list(opts.warning_flags)


def _dep_flags(opts: Options) -> list:
    if not opts.dep_mode:
        return []
    flags = [opts.dep_mode] + (["-MF", opts.dep_file] if opts.dep_file else [])
    for kind, target in opts.dep_targets or [("-MT", opts.output)]:
        flags += [kind, target]
    return flags + (["-MP"] if opts.dep_phony else [])


def compile_plain(opts: Options, tools: Tools, res: ResourceDirs) -> None:
    """opts.source -> opts.output (an object), through a temporary file renamed into place."""
    check_paths(opts)
    lang = language_of(opts.source_path, opts.language)
    out_dir = os.path.dirname(os.path.abspath(opts.output_path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(opts.output_path)}.", suffix=".tmp", dir=out_dir)
    os.close(fd)
    try:
        cmd = [tools.clang] + _flags(opts, opts.source_path, lang, res) + _dep_flags(opts)
        if opts.verbose:
            cmd.append("-v")
        if sys.stderr.isatty():
            cmd.append("-fcolor-diagnostics")
        proc = Run(opts.verbose)(cmd + ["-c", opts.source, "-o", tmp], "plain compile", stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise BishengError(f"compilation of '{opts.source}' failed", proc.returncode)
        os.chmod(tmp, 0o644)
        os.replace(tmp, opts.output_path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
