"""The host pass's second try for a function declared before the file's first kernel and
declared again after it.

Why: the host pass (asc_twin/host_prelude.h) makes every function declared before the first
`__global__` implicitly __host__ __device__ (clang's force_cuda_host_device pragma), so kernels
may call the twin, the C++ library and the user's helpers; the first kernel ends that region,
because clang 16 gives the pragma's attributes to kernels too and then rejects them. A function
that CANN code declares before its kernels and defines (or declares `extern`) after them — the
samples' host `GenerateTiling` does — is then host-only the second time, and clang refuses:
"__host__ function 'X' cannot overload __host__ __device__ function 'X'".

The driver then compiles a copy of the source in which each such later declaration carries
`__attribute__((host, device))`, so it agrees with the first. The copy starts with
`#line 1 "<source>"` (diagnostics, `__FILE__` and debug info name the user's file and lines)
and is compiled with `-iquote <the source's directory>` (its `#include "..."` resolve as from
the source); the depfile names the source, not the copy. Only declarations in the source file
itself are rewritten; a clash inside a header is reported as clang reports it.
"""

import os
import re
from typing import List, Optional, Tuple

ATTRIBUTE = "__attribute__((host, device)) "
COPY_DIR = "host_source"
MAX_TRIES = 4  # each try fixes every clash clang reported (it stops at 20 errors)

_CLASH_RE = re.compile(
    r"^(?P<file>[^\n]*?):(?P<line>\d+):(?P<col>\d+): error: __host__ function '[^'\n]+' "
    r"cannot overload __host__ __device__ function",
    re.M,
)
# `Ns::` / `Outer<T>::` qualifiers in front of a declarator-id: the attribute goes before them.
_QUALIFIER_RE = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*\s*(?:<[^<>;{}()]*>)?\s*::\s*)+$")


def clashes(stderr: str, source: str) -> List[Tuple[int, int]]:
    """(line, column) of every clash clang reported in `source` itself, 1-based."""
    want = os.path.realpath(source)
    found = []
    for m in _CLASH_RE.finditer(stderr):
        if os.path.realpath(m.group("file")) == want:
            found.append((int(m.group("line")), int(m.group("col"))))
    return sorted(set(found))


def read_source(source: str) -> str:
    with open(source, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def rewrite(text: str, positions: List[Tuple[int, int]]) -> Optional[str]:
    """`text` with ATTRIBUTE in front of the declarator-id at each position, or None if a
    position is not on an identifier of the text (nothing is guessed)."""
    lines = text.split("\n")
    by_line: dict = {}
    for line, col in positions:
        by_line.setdefault(line, []).append(col)
    for line, cols in by_line.items():
        if line < 1 or line > len(lines):
            return None
        s = lines[line - 1]
        for col in sorted(set(cols), reverse=True):  # right to left: earlier columns stay valid
            at = col - 1
            if at < 0 or at >= len(s) or not (s[at].isalpha() or s[at] == "_"):
                return None
            qualifier = _QUALIFIER_RE.search(s[:at])
            if qualifier:
                at = qualifier.start()
            s = s[:at] + ATTRIBUTE + s[at:]
        lines[line - 1] = s
    return "\n".join(lines)


def write_copy(source: str, text: str, workdir: str) -> str:
    """The rewritten source in workdir (same base name: clang's messages quote it), starting
    with the #line that gives diagnostics the source's own name and lines."""
    directory = os.path.join(workdir, COPY_DIR)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, os.path.basename(source))
    quoted = source.replace("\\", "\\\\").replace('"', '\\"')
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(f'#line 1 "{quoted}"\n{text}')
    return path


def quote_dir_flags(source: str) -> list:
    """What lets the copy's `#include "..."` find the source's neighbours."""
    return ["-iquote", os.path.dirname(os.path.abspath(source))]


def restore_depfile(deps_path: str, copy: str, source: str) -> None:
    """The depfile clang wrote for the copy, naming the source instead."""
    with open(deps_path, encoding="utf-8") as f:
        text = f.read()
    with open(deps_path, "w", encoding="utf-8") as f:
        f.write(text.replace(copy, source.replace(" ", "\\ ")))
