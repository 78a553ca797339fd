"""--twin-cache-key=FILE: the kernel cache key report, from every file the preprocessor reads."""

import os
import subprocess
import sys

from .depfile import parse_deps
from .errors import BishengError
from .flags import host_flags, kernel_attrs, prelude
from .options import Options
from .publish import publish
from .runner import Run
from .toolchain import ResourceDirs, Tools


def scan_deps(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: Run, report: bool = True) -> list:
    """Every file the preprocessor reads for the source (clang -M): no parse, no code.
    report=False: a failure is not shown (the compile that follows shows it)."""
    deps_path = os.path.join(workdir, "scan.d")
    cmd = (
        [tools.clang]
        + host_flags(opts, tools, res)
        + prelude(res)
        + kernel_attrs(res)
        + ["-w", "-M", "-MF", deps_path, "-MT", "scan", opts.source]
    )
    proc = run(cmd, "dependency scan", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        if report:
            sys.stderr.buffer.write(proc.stderr)
            sys.stderr.flush()
        raise BishengError(f"dependency scan of '{opts.source}' failed", proc.returncode)
    with open(deps_path, encoding="utf-8") as f:
        return parse_deps(f.read())


def write_key_report(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, deps: list) -> str:
    from .cache_key import key_report

    path = os.path.join(workdir, "key.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(key_report(opts, tools, res, deps))
    return path


def report_key_only(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: Run) -> None:
    report = write_key_report(opts, tools, res, workdir, scan_deps(opts, tools, res, workdir, run))
    publish(report, opts.publish_path)  # the key report: --twin-cache-key-only
