"""Blank the `<<<...>>>` of host launches in PREPROCESSED text for the device pass.

The host pass (clang, CUDA host mode) has already parsed and checked the file, so in the
preprocessed C++ text of the device pass (no comments, no macros, no inactive code) every
`<<<` outside string and character literals opens a launch configuration. Blanking it up to
the matching `>>>` (same line count) leaves `kernel(args...)`: a plain call, which also
instantiates a templated kernel `k<float>` for the device binary. The host code around it is
dropped by the device binary's linker. This never reports errors: diagnostics are clang's.
"""

import re

_RAW_PREFIX_RE = re.compile(r'(?:u8|[uUL])?R$')


def _skip_literal(text: str, i: int) -> int:
    """Index after the string/char literal starting at text[i] (a quote)."""
    quote = text[i]
    if quote == '"' and _RAW_PREFIX_RE.search(text[max(0, i - 3):i]):
        open_paren = text.find("(", i)
        if open_paren > 0:
            delim = text[i + 1:open_paren]
            close = text.find(")" + delim + '"', open_paren)
            if close >= 0:
                return close + len(delim) + 2
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch == "\\":
            j += 2
            continue
        if ch == quote or ch == "\n":
            return j + 1
        j += 1
    return j


def _blank(chars: list, start: int, end: int) -> None:
    for k in range(start, end):
        if chars[k] != "\n":
            chars[k] = " "


def blank_launch_configs(text: str) -> str:
    chars = list(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            # a digit separator (1'000) is not a literal
            if ch == "'" and i > 0 and text[i - 1].isalnum() and not _RAW_PREFIX_RE.search(text[max(0, i - 3):i]) \
                    and text[i - 1].isdigit():
                i += 1
                continue
            i = _skip_literal(text, i)
            continue
        if ch == "<" and text.startswith("<<<", i):
            before = text[:i].rstrip()
            if before.endswith("operator"):
                i += 3
                continue
            k, depth = i + 3, 0
            while k < n:
                c = text[k]
                if c in "\"'":
                    k = _skip_literal(text, k)
                    continue
                if c in "([{":
                    depth += 1
                elif c in ")]}":
                    depth -= 1
                elif depth == 0 and text.startswith(">>>", k):
                    break
                k += 1
            _blank(chars, i, min(k + 3, n))
            i = k + 3
            continue
        i += 1
    return "".join(chars)
