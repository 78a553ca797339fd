"""Find the __global__ kernels of a translation unit from clang's AST dump.

In the twin's Ascend C headers `__global__` expands to
`__attribute__((annotate("asc_twin_global")))`, so a kernel is a function
declaration with an AnnotateAttr child carrying that string. We read the
textual `-ast-dump` (one node per line, children indented by two columns),
which names every declaration together with its enclosing declarations, so
extern "C" blocks, namespaces, templates and class members are told apart
without guessing from tokens.
"""

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .errors import BishengError

KERNEL_ANNOTATION = '"asc_twin_global"'

_FUNCTION_KINDS = ("FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl",
                   "CXXDestructorDecl", "CXXConversionDecl")
_TEMPLATE_KINDS = ("FunctionTemplateDecl", "ClassTemplateDecl",
                   "ClassTemplateSpecializationDecl", "ClassTemplatePartialSpecializationDecl")
_RECORD_KINDS = ("CXXRecordDecl", "RecordDecl") + _TEMPLATE_KINDS[1:]

# Location tokens of the text dump (`FILE:L:C`, `line:L:C`, `col:C`) each elide what did
# not change since the previous location printed, so the file is tracked line by line.
_TOKEN_SPLIT_RE = re.compile(r"[\s<>,]+")
# `FunctionDecl 0xADDR [parent 0x..] [prev 0x..] <range> loc [flags] NAME 'TYPE'`:
# the name is the last word before the first quote.
_FUNC_NAME_RE = re.compile(r" (?P<name>[^\s']+) '")
_NAMESPACE_RE = re.compile(r"NamespaceDecl 0x[0-9a-f]+ .*?> (?:\S+ )?(?P<name>\w+)?(?: inline)?$")


@dataclass
class _Node:
    depth: int
    kind: str
    line: str
    name: str = ""
    file: str = ""
    lineno: int = 0
    annotated: bool = False
    defined: bool = False
    ancestors: list = field(default_factory=list)   # (kind, name) outermost first


@dataclass(frozen=True)
class Kernel:
    name: str
    file: str
    line: int
    signature: str          # clang's type spelling, e.g. 'void (uint8_t *, uint8_t *)'
    extern_c: bool


class _LocationTracker:
    def __init__(self) -> None:
        self.file = ""
        self.line = 0

    def feed(self, text: str) -> None:
        # Locations precede the first quoted type or name on a node line.
        cut = min((i for i in (text.find("'"), text.find('"')) if i >= 0), default=len(text))
        for token in _TOKEN_SPLIT_RE.split(text[:cut]):
            parts = token.rsplit(":", 2)
            if len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
                continue            # not a location, or `col:N` (file and line unchanged)
            if parts[0] == "line":
                self.line = int(parts[1])
            else:                   # a file name; '' for <built-in> / <scratch space>
                self.file, self.line = parts[0] or "<built-in>", int(parts[1])


def _split(line: str) -> tuple:
    """'| |-FunctionDecl 0x..' -> (depth 2, 'FunctionDecl')."""
    stripped = line.lstrip("| `-")
    depth = (len(line) - len(stripped)) // 2
    kind = stripped.split(" ", 1)[0]
    return depth, kind


def scan_ast_dump(lines: Iterable[str], with_locations: bool = True) -> list:
    """All function declarations annotated as kernels, with their context.

    Tracking locations means tokenizing every line (most of the cost), so the
    happy path skips it and errors re-scan with it to name file:line.
    """
    stack: list = []          # _Node per open depth
    found: list = []
    locs = _LocationTracker() if with_locations else None
    for raw in lines:
        line = raw.rstrip("\n")
        if not line:
            continue
        depth, kind = _split(line)
        while stack and stack[-1].depth >= depth:
            stack.pop()
        node = _Node(depth, kind, line)
        if kind in _FUNCTION_KINDS:
            m = _FUNC_NAME_RE.search(line)
            if locs:
                prefix = line[:m.start("name")] if m else line
                locs.feed(prefix)
                node.file, node.lineno = locs.file, locs.line
                locs.feed(line[len(prefix):])
            node.name = m.group("name") if m else "?"
            node.ancestors = [(n.kind, n.name) for n in stack]
        else:
            if locs:
                locs.feed(line)
            if kind == "NamespaceDecl":
                m = _NAMESPACE_RE.search(line)
                node.name = (m.group("name") if m else None) or "(anonymous namespace)"
            elif kind in _RECORD_KINDS or kind in _TEMPLATE_KINDS:
                node.name = _last_word_before_quote(line)
            elif stack and stack[-1].kind in _FUNCTION_KINDS:
                parent = stack[-1]
                if kind == "AnnotateAttr" and KERNEL_ANNOTATION in line:
                    if not parent.annotated:
                        found.append(parent)
                    parent.annotated = True
                elif kind == "CompoundStmt" or kind == "CXXTryStmt":
                    parent.defined = True
        stack.append(node)
    return found


def _last_word_before_quote(line: str) -> str:
    head = line.split(" '", 1)[0]
    words = re.findall(r"[A-Za-z_]\w*", head.rsplit(">", 1)[-1])
    return words[-1] if words else ""


def _where(node: _Node) -> str:
    return f"{node.file}:{node.lineno}" if node.file else "<unknown>"


def _kernel_of(node: _Node) -> Optional[Kernel]:
    """A supported kernel, or raise for one the twin cannot launch."""
    kinds = [k for k, _ in node.ancestors]
    if any(k in _TEMPLATE_KINDS for k in kinds):
        raise BishengError(
            f"{_where(node)}: templated __global__ kernel '{node.name}' is not supported by "
            "bisheng (ascend-twin); write a non-template kernel that calls the template")
    if node.kind != "FunctionDecl" or any(k in _RECORD_KINDS for k in kinds):
        raise BishengError(f"{_where(node)}: __global__ kernel '{node.name}' must not be a class member")
    namespaces = [n for k, n in node.ancestors if k == "NamespaceDecl"]
    if namespaces:
        qualified = "::".join(namespaces + [node.name])
        raise BishengError(
            f"{_where(node)}: __global__ kernel '{qualified}' is declared inside a namespace; "
            "bisheng (ascend-twin) supports kernels at global scope only")
    signature = node.line.split(f" {node.name} '", 1)[-1].split("'", 1)[0]
    if not signature.startswith("void ("):
        raise BishengError(f"{_where(node)}: __global__ kernel '{node.name}' must return void")
    for index, param in enumerate(_parameter_types(signature), start=1):
        if param.endswith("&") or param.endswith("&&"):
            raise BishengError(
                f"{_where(node)}: parameter {index} of __global__ kernel '{node.name}' is a reference "
                f"('{param}'); kernel parameters are pointers, scalars or structs passed by value")
    if not node.defined:
        return None     # a declaration; only definitions become entries
    return Kernel(node.name, node.file, node.lineno, signature,
                  extern_c="LinkageSpecDecl" in kinds)


def _parameter_types(signature: str) -> list:
    """'void (uint8_t *, const Foo<int, 2> &)' -> ['uint8_t *', 'const Foo<int, 2> &']."""
    inner = signature[signature.index("(") + 1:signature.rindex(")")]
    params, depth, current = [], 0, ""
    for ch in inner:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip() and current.strip() != "void":
        params.append(current.strip())
    return params


def kernels_from_ast_dump(dump_path: str, source: str) -> list:
    """The kernels defined in the TU, in source order, checked for support."""
    with open(dump_path, encoding="utf-8", errors="replace") as dump:
        nodes = scan_ast_dump(dump, with_locations=False)
    try:
        return _checked_kernels(nodes, source)
    except BishengError:
        pass
    with open(dump_path, encoding="utf-8", errors="replace") as dump:
        nodes = scan_ast_dump(dump, with_locations=True)
    return _checked_kernels(nodes, source)


def _checked_kernels(nodes: list, source: str) -> list:
    kernels: list = []
    by_name: dict = {}
    for node in nodes:
        kernel = _kernel_of(node)
        if kernel is None:
            continue
        other = by_name.get(kernel.name)
        if other is not None:
            if other.signature == kernel.signature:
                continue            # the same definition seen again (e.g. an implicit redecl)
            raise BishengError(
                f"{kernel.file}:{kernel.line}: __global__ kernel '{kernel.name}' is overloaded "
                f"(also at {other.file}:{other.line}); kernel names must be unique")
        by_name[kernel.name] = kernel
        kernels.append(kernel)
    if not kernels:
        raise BishengError(f"no __global__ kernel defined in '{source}'")
    return kernels
