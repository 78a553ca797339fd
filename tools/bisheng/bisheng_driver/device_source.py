"""The text of the user's source that the device pass compiles: the file with the bodies of its
host-only functions dropped (each becomes a declaration, the line count kept).

Why: the device pass used to compile the host code too (`main` at -O2) and drop it at the device
link, and its cache key held the whole file, so an edit of `main` compiled every kernel again.
Compiled from this text, the device binary is a function of the kernels and what they use: the
device cache (device_cache.py) keys it by this text, so a host-only edit reuses it.

Which bodies go (a textual scan of the file itself, never of its headers; when in doubt a body
stays, which only costs time):
  a function definition at namespace scope (also inside `namespace` and `extern "C"` blocks)
  whose declarator has a return type, an unqualified name followed by its parameter list and
  nothing after the `)`; no `template`, `operator`, `constexpr`, `consteval`, `auto`, `=` at
  the top level, and no identifier starting with `__` or spelled in capitals (macros such as
  `__global__`, `__aicore__`, `GM_ADDR` or a user's `KERNEL` keep it); no preprocessor line
  in it; and its name appears nowhere in the text that stays (the kernels, classes, globals,
  macros, other kept functions — to a fixed point) nor in a kernel's name.
A function that the device code still needs but whose body went is not defined in the device
object: the device link (`-z defs`) fails and compile.py compiles the whole file instead.
"""

import re
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

# Comments, literals (raw strings first), preprocessor lines (with continuations), and the
# punctuation that shapes declarations; everything else is copied through.
_TOKEN_RE = re.compile(
    r"(?P<comment>//[^\n]*|/\*.*?\*/)"
    r'|(?P<raw>(?:u8|[uUL])?R"(?P<delim>[^(\s]{0,16})\(.*?\)(?P=delim)")'
    r'|(?P<string>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"|(?<![0-9A-Za-z_])\'(?:\\.|[^\'\\\n])+\')'
    r"|(?P<directive>^[ \t]*#(?:\\\n|[^\n])*)"
    r"|(?P<punct>[{};()=])",
    re.S | re.M,
)
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MACRO_LIKE_RE = re.compile(r"__\w*|[A-Z][A-Z0-9_]+")
_KEEP_WORDS = {
    "template",
    "operator",
    "constexpr",
    "consteval",
    "constinit",
    "auto",
    "decltype",
    "requires",
    "try",
    "typedef",
    "using",
    "class",
    "struct",
    "union",
    "enum",
}
_SCOPE_OPENERS = ("namespace", "extern")


@dataclass
class _Function:
    name: str
    decl_start: int  # index where its declaration starts (after the previous one)
    body_start: int  # index of `{`
    body_end: int  # index after the matching `}`


def _strip(text: str) -> str:
    """text without comments and literals (same length), for identifier scans."""

    def blank(m: "re.Match") -> str:
        if m.group("comment") or m.group("raw") or m.group("string"):
            return re.sub(r"[^\n]", " ", m.group(0))
        return m.group(0)

    return _TOKEN_RE.sub(blank, text)


def _matching_brace(tokens: list, at: int) -> Optional[int]:
    """Index in tokens of the `}` closing tokens[at] (a `{`), or None."""
    depth = 0
    for j in range(at, len(tokens)):
        kind, value, _ = tokens[j]
        if kind == "punct" and value == "{":
            depth += 1
        elif kind == "punct" and value == "}":
            depth -= 1
            if depth == 0:
                return j
    return None


def _tokens(text: str) -> list:
    """(kind, value, offset) of the shaping tokens; directive lines marked as such."""
    out = []
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        if kind in ("comment", "raw", "string"):
            continue
        out.append((kind, m.group(0), m.start()))
    return out


def _blankable_name(declarator: str) -> Optional[str]:
    """The function name when `declarator` (the stripped text from the start of the
    declaration to its `{`) qualifies for dropping its body, else None."""
    text = declarator.strip()
    if not text.endswith(")"):
        return None
    depth, i = 0, len(text) - 1
    while i >= 0:  # the `(` opening the parameter list
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                break
        i -= 1
    if i <= 0:
        return None
    head = text[:i].rstrip()
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)$", head)
    if m is None:
        return None
    name, before = m.group(1), head[: m.start()].rstrip()
    if not before or before.endswith(("::", "~", ",")):
        return None  # no return type (a macro call?), qualified, a destructor
    top, depth = [], 0
    for ch in head:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif depth == 0:
            top.append(ch)
    if "=" in "".join(top):
        return None
    words = _IDENT_RE.findall(text)
    if any(w in _KEEP_WORDS or _MACRO_LIKE_RE.fullmatch(w) for w in words):
        return None
    return name


def _scan(text: str, tokens: list, start: int, stop: int, found: List[_Function], region_start: int = 0) -> bool:
    """Collects candidate functions among tokens[start:stop] (a namespace-scope region whose
    text starts at region_start). False when the braces do not match (then nothing is dropped)."""
    decl_from, j = None, start
    prev_end = region_start
    directive_in_decl = False
    while j < stop:
        kind, value, offset = tokens[j]
        if kind == "directive":
            directive_in_decl = decl_from is not None
            prev_end = offset + len(value)
            j += 1
            continue
        if kind == "punct" and value in ";}":
            decl_from, directive_in_decl = None, False
            prev_end = offset + 1
            j += 1
            continue
        if decl_from is None:
            decl_from = prev_end
        if kind == "punct" and value == "{":
            close = _matching_brace(tokens, j)
            if close is None or close >= stop:
                return False
            declarator = text[decl_from:offset]
            words = _IDENT_RE.findall(declarator)
            if words and words[0] in _SCOPE_OPENERS and "(" not in declarator:
                # namespace X { ... } / extern "C" { ... }: its contents are namespace scope too
                if not _scan(text, tokens, j + 1, close, found, offset + 1):
                    return False
            else:
                inner = tokens[j + 1 : close]
                name = (
                    None
                    if directive_in_decl or any(k == "directive" for k, _, _ in inner)
                    else _blankable_name(declarator)
                )
                if name:
                    found.append(_Function(name, decl_from, offset, tokens[close][2] + 1))
            decl_from, directive_in_decl = None, False
            prev_end = tokens[close][2] + 1
            j = close + 1
            continue
        j += 1
    return True


# Names clang looks up without their spelling in the text: range-for's begin/end, structured
# bindings' get. `main` can never be named or found by lookup.
_IMPLICIT_NAMES = {"begin", "end", "get"}
_NEVER_FOUND = {"main"}


def device_text(text: str, kernel_names: List[str], mentioned_elsewhere: Callable[[set], set]) -> Tuple[str, int]:
    """(the device pass's text, how many bodies were dropped). kernel_names: the C++ spellings
    of the kernels (`ns::k<float>`); their identifiers always stay. A dropped function's
    declaration stays when `mentioned_elsewhere(names)` (the names some header the pass reads
    spells) or _IMPLICIT_NAMES hold its name — a lookup from there could find it, and a
    reference then fails the device link instead of silently finding another overload; else
    the whole definition goes (so a new host function leaves the text as it was)."""
    stripped = _strip(text)
    tokens = _tokens(stripped)
    found: List[_Function] = []
    if not tokens or not _scan(stripped, tokens, 0, len(tokens), found) or not found:
        return text, 0
    # Names the kept text uses: everything outside the candidates' bodies, then (to a fixed
    # point) the bodies of the candidates whose names it uses.
    kept_text, last = [], 0
    for f in found:
        kept_text.append(stripped[last : f.body_start])
        last = f.body_end
    kept_text.append(stripped[last:])
    # a candidate's own declarator stays and names it: a name is used when it occurs more
    # often than the candidates that define it
    own: dict = {}
    occurs: dict = {}
    for f in found:
        own[f.name] = own.get(f.name, 0) + 1
    for word in _IDENT_RE.findall("".join(kept_text)):
        occurs[word] = occurs.get(word, 0) + 1
    used = {w for w, n in occurs.items() if n > own.get(w, 0)}
    for spelled in kernel_names:
        used.update(_IDENT_RE.findall(spelled))
    dropped = {id(f) for f in found}
    changed = True
    while changed:
        changed = False
        for f in found:
            if id(f) in dropped and f.name in used:
                dropped.discard(id(f))
                used.update(_IDENT_RE.findall(stripped[f.body_start : f.body_end]))
                changed = True
    gone = [f for f in found if id(f) in dropped]
    if not gone:
        return text, 0
    names = {f.name for f in gone} - _NEVER_FOUND
    declared = (names & _IMPLICIT_NAMES) | mentioned_elsewhere(names - _IMPLICIT_NAMES) if names else set()
    out, last = [], 0
    for f in gone:
        start = f.body_start if f.name in declared else f.decl_start
        out += [text[last:start], ";" if f.name in declared else "", "\n" * text.count("\n", start, f.body_end)]
        last = f.body_end
    out.append(text[last:])
    # blank lines at the end shift nothing: without them a function appended to the file
    # leaves the text as it was
    return "".join(out).rstrip() + "\n", len(gone)


def mentioned_in(paths: List[str], names: set) -> set:
    """The names some file of `paths` spells as an identifier (a fast byte search first)."""
    found: set = set()
    for path in paths:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return set(names)  # unreadable: assume it names them all
        for name in names - found:
            raw = name.encode()
            if raw in data and re.search(rb"(?<![A-Za-z0-9_])" + re.escape(raw) + rb"(?![A-Za-z0-9_])", data):
                found.add(name)
        if found == names:
            break
    return found
