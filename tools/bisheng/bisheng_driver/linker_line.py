"""The linker command the clang driver runs for a link, remembered, so a program link starts
ld.lld itself instead of clang, which only works the same command out again (a process and
its GCC-installation search: about a third of a small program's link).

The command is learnt once per key with `clang -###` (which prints it without running it) for
the same arguments, with the link's objects and output replaced by placeholders, and kept in
the PCH cache directory (pch.remembered). Keyed by everything the driver derives it from: the
clang binary (path, size, mtime), the argument list with placeholders, the environment
variables the driver reads for a link (LIBRARY_PATH, COMPILER_PATH, GCC_EXEC_PREFIX) and the
GCC installations it searches (each `…/gcc/<triple>` directory's modification time, which
changes when a GCC version is added or removed). Before use, every absolute path in the
command must still exist. Without a cache directory, or when anything is unsure, clang links.
"""

import os
import subprocess
from typing import List, Optional

_PLACEHOLDER = "@bisheng-link-{}@"
SCHEME = "linker-line/2"  # 2: arguments unescaped as clang prints them
_GCC_ROOTS = ("/usr/lib/gcc", "/usr/lib64/gcc", "/usr/lib/gcc-cross", "/lib/gcc", "/lib64/gcc")
_DRIVER_ENV = ("LIBRARY_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX")


def _gcc_installations(clang: str) -> List[str]:
    roots = list(_GCC_ROOTS) + [os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(clang))), "lib", "gcc")]
    fields = []
    for root in dict.fromkeys(roots):
        try:
            triples = sorted(os.listdir(root))
        except OSError:
            continue
        for triple in triples:
            path = os.path.join(root, triple)
            try:
                fields += [path, str(os.stat(path).st_mtime_ns)]
            except OSError:
                pass
    return fields


def _printed_args(line: str) -> list:
    """The arguments of a `clang -###` line: each one either bare or in double quotes, in
    which clang escapes `"`, `\\` and `$` with a backslash (shlex would keep `\\$`: an
    rpath of `$ORIGIN` must reach the linker as written)."""
    args, i, n = [], 0, len(line)
    while i < n:
        if line[i] == " ":
            i += 1
            continue
        if line[i] != '"':
            end = line.find(" ", i)
            end = n if end < 0 else end
            args.append(line[i:end])
            i = end
            continue
        i, arg = i + 1, []
        while i < n and line[i] != '"':
            if line[i] == "\\" and i + 1 < n:
                i += 1
            arg.append(line[i])
            i += 1
        args.append("".join(arg))
        i += 1
    return args


def _learn(cmd: list, paths: list) -> Optional[list]:
    """The linker argv of `cmd` (clang -###) with each of `paths` replaced by its placeholder."""
    try:
        proc = subprocess.run(cmd + ["-###"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    except OSError:
        return None
    lines = [line for line in proc.stderr.splitlines() if line.startswith(' "')]
    if proc.returncode != 0 or len(lines) != 1:
        return None  # not a single linker run: clang does more than one thing here
    argv = _printed_args(lines[0])
    template = []
    for arg in argv:
        template.append(_PLACEHOLDER.format(paths.index(arg)) if arg in paths else arg)
    if any(template.count(_PLACEHOLDER.format(i)) != 1 for i in range(len(paths))):
        return None  # an object or the output not passed through once as it is: clang links
    return template


def linker_command(cmd: list, paths: list) -> Optional[list]:
    """The command clang would run for the link `cmd` (its objects and output are `paths`,
    each spelled once in cmd), or None: then run cmd itself."""
    from .cache_root import cache_dir
    from .pch import remembered

    if cache_dir() is None or len(set(paths)) != len(paths):
        return None
    generic = [_PLACEHOLDER.format(paths.index(a)) if a in paths else a for a in cmd]
    try:
        info = os.stat(os.path.realpath(cmd[0]))
    except OSError:
        return None
    key = [
        SCHEME,
        os.path.realpath(cmd[0]),
        str(info.st_size),
        str(info.st_mtime_ns),
        *generic,
        *(f"{name}={os.environ.get(name, '')}" for name in _DRIVER_ENV),
        *_gcc_installations(cmd[0]),
    ]

    def learn():
        template = _learn(cmd, paths)
        return template if template is not None else []

    template = remembered("linker-line", key, learn)
    if not template or not isinstance(template, list):
        return None
    if not all(os.path.exists(a) for a in template if a.startswith("/")) or not all(
        os.path.isdir(a[2:]) or not os.path.isabs(a[2:]) for a in template if a.startswith("-L")
    ):
        return None
    line = list(template)
    for i, path in enumerate(paths):
        line[line.index(_PLACEHOLDER.format(i))] = path
    return line
