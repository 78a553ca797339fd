"""Blank the `<<<...>>>` of host launches for the device pass: in the user's source (then the
pass keeps its precompiled prefix) or, when that copy does not compile, in the preprocessed text.

The host pass (clang, CUDA host mode) has already parsed and checked the file, so every `<<<`
outside comments and string and character literals opens a launch configuration (in the source
also one inside a macro definition, blanked the same way; a launch spelled through a macro
leaves a copy that does not compile, and compile.py falls back to the preprocessed text). Blanking it up to
the matching `>>>` (same line count) leaves `kernel(args...)`: a plain call, which also
instantiates a templated kernel `k<float>` for the device binary. The host code around it is
dropped by the device binary's linker. This never reports errors: diagnostics are clang's.
"""

import re

_RAW_PREFIX_RE = re.compile(r"(?:u8|[uUL])?R$")


def _skip_literal(text: str, i: int) -> int:
    """Index after the string/char literal starting at text[i] (a quote)."""
    quote = text[i]
    if quote == '"' and _RAW_PREFIX_RE.search(text[max(0, i - 3) : i]):
        open_paren = text.find("(", i)
        if open_paren > 0:
            delim = text[i + 1 : open_paren]
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


_NEXT_RE = re.compile(r"[\"']|<<<|//|/\*")


def _blanked(segment: str) -> str:
    return "".join(c if c == "\n" else " " for c in segment)


def blank_launch_configs(text: str) -> str:
    if "<<<" not in text:
        return text
    pieces, copied = [], 0
    i, n = 0, len(text)
    while True:
        m = _NEXT_RE.search(text, i)  # jump to the next literal or `<<<` (C speed)
        if m is None:
            break
        i = m.start()
        ch = text[i]
        if ch == "/":  # a comment (preprocessed text has none): skipped whole
            line = text.startswith("//", i)
            end = text.find("\n" if line else "*/", i + 2)
            i = n if end < 0 else end + (1 if line else 2)
            continue
        if ch in "\"'":
            # a digit separator (1'000) is not a literal
            if ch == "'" and i > 0 and text[i - 1].isdigit() and not _RAW_PREFIX_RE.search(text[max(0, i - 3) : i]):
                i += 1
                continue
            i = _skip_literal(text, i)
            continue
        if text[max(0, i - 64) : i].rstrip().endswith("operator"):
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
        end = min(k + 3, n)
        pieces += [text[copied:i], _blanked(text[i:end])]
        copied = i = end
    pieces.append(text[copied:])
    return "".join(pieces)
