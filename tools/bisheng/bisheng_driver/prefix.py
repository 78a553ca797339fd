"""Whether a source may take the Ascend C twin headers as a prefix (precompiled or not).

Both clang passes spend most of their time parsing `kernel_operator.h` (~90k lines with the
C++ library it pulls in). bisheng therefore compiles an eligible source with a *prefix
header* in front — the pass's own first header plus `kernel_operator.h` — given to clang as a
precompiled header when the PCH cache has it (pch.py) and as text otherwise, so the output
bytes never depend on the cache. Putting the header first is only the same program when
nothing the source does before its own `#include "kernel_operator.h"` could change what that
header means. Eligible, decided from the text alone:

- the source reaches `#include "kernel_operator.h"` / `<kernel_operator.h>` (resolving to the
  twin's) with only `#include` directives before it — no `#define`, `#undef`, `#if...`,
  `#pragma` (comments and blank lines are fine);
- each of those includes is a system header (`<...>`), a twin header (acl/..., asc include
  roots), or a user header whose text (and that of the user headers it includes) neither
  includes a twin Ascend C header nor defines/undefines a macro that is reserved (leading
  `_`) or is an identifier of the twin headers;
- the command line has no `-include`.

Anything else compiles exactly as written, without a prefix.
"""

import os
import re
from typing import Iterable, List, Optional, Sequence

PREFIX_TRIGGER = "kernel_operator.h"
_DIRECTIVE_RE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")
_INCLUDE_RE = re.compile(r'^\s*(?:<([^>]+)>|"([^"]+)")')
_MACRO_NAME_RE = re.compile(r"^\s*([A-Za-z_]\w*)")
_IDENT_RE = re.compile(rb"[A-Za-z_]\w*")
_MAX_DEPTH = 8


def _logical_lines(text: str) -> List[str]:
    """Source lines with comments removed and backslash continuations joined (string literals
    are kept as they are: a directive line never depends on their contents here)."""
    out, i, n = [], 0, len(text)
    buf = []
    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if ch == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            buf.append(" ")
            i = n if j < 0 else j + 2
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            buf.append(text[i : j + 1])
            i = j + 1
            continue
        if ch == "\\" and text.startswith("\\\n", i):
            i += 2
            continue
        if ch == "\n":
            out.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
        i += 1
    out.append("".join(buf))
    return out


def _both_forms(paths: Iterable[str]) -> List[str]:
    out = []
    for p in paths:
        out += [os.path.normpath(os.path.abspath(p)), os.path.realpath(p)]
    return list(dict.fromkeys(out))


def _read(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


class PrefixCheck:
    """The eligibility rules above, for one compile's include paths and twin roots."""

    def __init__(
        self,
        source: str,
        quote_dirs: Sequence[str],
        angle_dirs: Sequence[str],
        twin_roots: Sequence[str],
        host_roots: Sequence[str],
    ) -> None:
        self.source = source
        self.quote_dirs = list(quote_dirs)  # -iquote then -I then -isystem, as clang looks
        self.angle_dirs = list(angle_dirs)  # -I then -isystem
        # as spelled and with symlinks resolved: a Bazel runfiles or sandbox tree is a real
        # directory of symlinked files, an installed tree may be reached through a symlink
        self.twin_roots = _both_forms(twin_roots)
        self._twin_given = list(twin_roots)  # as the PCH key digests them (one digest per process)
        self.host_roots = _both_forms(host_roots)
        self._twin_identifiers: Optional[set] = None

    def _resolve(self, name: str, quoted: bool, including_dir: str) -> Optional[str]:
        dirs = ([including_dir] + self.quote_dirs) if quoted else self.angle_dirs
        for d in dirs:
            path = os.path.join(d, name)
            if os.path.isfile(path):
                return os.path.normpath(os.path.abspath(path))
        return None

    def _under(self, path: str, roots: Iterable[str]) -> bool:
        return any(p == r or p.startswith(r + os.sep) for p in _both_forms([path]) for r in roots)

    def _is_twin_trigger(self, path: Optional[str]) -> bool:
        return path is not None and os.path.basename(path) == PREFIX_TRIGGER and self._under(path, self.twin_roots)

    def twin_identifiers(self) -> set:
        if self._twin_identifiers is None:
            # a function of the twin headers' content: read once per content (PCH cache directory)
            from .pch import remembered, tree_digest

            roots = self._twin_given
            self._twin_identifiers = set(
                remembered("twin-identifiers", [tree_digest(roots), *roots], lambda: sorted(self._scan_identifiers()))
            )
        return self._twin_identifiers

    def _scan_identifiers(self) -> set:
        names: set = set()
        for root in self.twin_roots:
            for dirpath, _, files in os.walk(root):
                for f in files:
                    try:
                        with open(os.path.join(dirpath, f), "rb") as h:
                            names.update(m.decode() for m in _IDENT_RE.findall(h.read()))
                    except OSError:
                        continue
        return names

    def _user_header_ok(self, path: str, depth: int, seen: set) -> bool:
        """A user header included before kernel_operator.h: harmless macros only, no twin
        Ascend C header (all its branches are read: a superset of what the compile sees)."""
        if path in seen:
            return True
        seen.add(path)
        if depth > _MAX_DEPTH:
            return False
        text = _read(path)
        if text is None:
            return False
        for line in _logical_lines(text):
            m = _DIRECTIVE_RE.match(line)
            if not m:
                continue
            directive, rest = m.group(1), m.group(2)
            if directive in ("define", "undef"):
                name = _MACRO_NAME_RE.match(rest)
                if name is None or name.group(1).startswith("_") or name.group(1) in self.twin_identifiers():
                    return False
            elif directive == "pragma" and rest.split()[:1] != ["once"]:
                return False
            elif directive in ("include", "include_next", "import"):
                if not self._include_ok(rest, os.path.dirname(path), depth + 1, seen, nested=True):
                    return False
        return True

    def _include_ok(self, rest: str, including_dir: str, depth: int, seen: set, nested: bool) -> bool:
        m = _INCLUDE_RE.match(rest)
        if m is None:
            return False  # a macro-computed include: cannot tell
        name, quoted = (m.group(2), True) if m.group(2) else (m.group(1), False)
        path = self._resolve(name, quoted, including_dir)
        if path is None:
            return not quoted  # an unresolved <...>: a system header
        if self._under(path, self.twin_roots):
            return not nested  # the twin's Ascend C headers only from the source
        if self._under(path, self.host_roots) or not quoted:
            return True
        return self._user_header_ok(path, depth, seen)

    def eligible(self) -> bool:
        text = _read(self.source)
        if text is None:
            return False
        here = os.path.dirname(os.path.abspath(self.source))
        seen: set = set()
        for line in _logical_lines(text):
            if not line.strip():
                continue
            m = _DIRECTIVE_RE.match(line)
            if m is None or m.group(1) != "include":
                return False  # code, or a directive other than #include, first
            inc = _INCLUDE_RE.match(m.group(2))
            if inc is None:
                return False
            name, quoted = (inc.group(2), True) if inc.group(2) else (inc.group(1), False)
            path = self._resolve(name, quoted, here)
            if self._is_twin_trigger(path):
                return True
            if not self._include_ok(m.group(2), here, 0, seen, nested=False):
                return False
            if path is not None and self._under(path, self.twin_roots):
                return False  # another twin header first: keep the order as written
        return False
