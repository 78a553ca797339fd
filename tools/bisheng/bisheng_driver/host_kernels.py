"""The kernels of a translation unit, read from its host object.

The host pass compiles the source in clang's CUDA host mode, where every __global__ function
that is defined (and every template instantiation a launch or `&k<T>` uses) gets a host stub:
`__device_stub__<name>` for extern "C" kernels, else the kernel's mangled name with the
identifier `<name>` replaced by `__device_stub__<name>`. So the host object lists exactly the
kernels the device binary needs, with their mangled names, and no source text is scanned.
"""

import re
import subprocess
from dataclasses import dataclass
from typing import List, Optional, Tuple

from .errors import BishengError

STUB = "__device_stub__"
ANONYMOUS_NS = "(anonymous namespace)::"
_LEN_STUB_RE = re.compile(r"(\d+)" + STUB)
_SYMBOL_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
# llvm-cxxfilt spells a template argument that is an array decayed to a pointer (CANN's AOT
# holders: `AOTHolder<TCubeTiling, bytes>` with `constexpr uint8_t bytes[]`) as the address of its
# first element, `&bytes.<unsigned char const at offset 0>`; in C++ that is `bytes`.
_DECAYED_ARRAY_RE = re.compile(r"&((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\.<[^<>]* at offset 0>")


@dataclass(frozen=True)
class HostKernel:
    stub: str  # the stub's symbol in the host object
    name: str  # the kernel's name in the device binary (meta `kernel=`, ABI symbol suffix)
    spelled: str  # a C++ expression naming the kernel (`k`, `ns::k<float>`)
    mangled: str  # the kernel's own symbol name (== name for extern "C")
    c_linkage: bool
    ref: str  # a C++ function pointer expression (`&k`; a cast picks one of overloads)
    local: bool = False  # internal linkage (static, anonymous namespace): its stub is a local symbol


def _device_symbol(stub: str) -> str:
    if not stub.startswith("_Z"):
        return stub[len(STUB) :]
    m = _LEN_STUB_RE.search(stub)
    if m is None:
        raise BishengError(f"internal error: cannot read the kernel stub symbol '{stub}'")
    return stub[: m.start()] + str(int(m.group(1)) - len(STUB)) + stub[m.end() :]


def _spelled(demangled: str, stub: str) -> str:
    """`void ns::__device_stub__k<float>(float*)` -> `ns::k<float>`."""
    # A member of an anonymous namespace is named through the enclosing one (same TU).
    demangled = _DECAYED_ARRAY_RE.sub(r"\1", demangled.replace(ANONYMOUS_NS, ""))
    at = demangled.find(STUB)
    if at < 0:
        raise BishengError(f"internal error: cannot demangle the kernel stub '{stub}'")
    start = at
    while start > 0 and (demangled[start - 1].isalnum() or demangled[start - 1] in "_:"):
        start -= 1
    scope = demangled[start:at]
    if demangled[:at].endswith(">::"):
        raise BishengError(
            f"__global__ kernel '{demangled[at + len(STUB) :].split('(')[0]}' in a class cannot be "
            "launched by bisheng (ascend-twin); make it a free function"
        )
    end = at + len(STUB)
    while end < len(demangled) and (demangled[end].isalnum() or demangled[end] == "_"):
        end += 1
    if end < len(demangled) and demangled[end] == "<":
        depth = 0
        while end < len(demangled):
            ch = demangled[end]
            if ch in "<(":
                depth += 1
            elif ch in ">)":
                depth -= 1
            end += 1
            if depth == 0:
                break
    return scope + demangled[at + len(STUB) : end]


def _params(demangled: str) -> str:
    """The parameter list of a demangled function name: `void k<int>(float*, int)` -> `float*, int`."""
    end = demangled.rfind(")")
    depth, i = 0, end
    while i >= 0:
        if demangled[i] == ")":
            depth += 1
        elif demangled[i] == "(":
            depth -= 1
            if depth == 0:
                break
        i -= 1
    return demangled[i + 1 : end]


def _tool_lines(cmd: list, what: str) -> List[str]:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    except OSError as e:
        raise BishengError(f"cannot run {cmd[0]}: {e.strerror}")
    if proc.returncode != 0:
        raise BishengError(
            f"{what} failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}"
        )
    return proc.stdout.splitlines()


def kernels_of(host_object: str, nm: str, cxxfilt: str, known: Optional[List[HostKernel]] = None) -> List[HostKernel]:
    """The kernels whose stubs host_object defines (read from its symbol table; `nm` is kept
    for callers' sake). known: the kernels an earlier compile read from the same stubs (device_cache.last); they
    are a function of the stub list alone, so llvm-cxxfilt need not run again for them."""
    from .elf_file import STB_LOCAL, ElfFile

    stubs, local = [], set()
    for symbol in ElfFile(host_object).defined_code_symbols():  # what `llvm-nm` lists as T, W, t
        if STUB in symbol.name:
            if symbol.binding == STB_LOCAL:
                local.add(symbol.name)  # static or in an anonymous namespace
            if symbol.name not in stubs:
                stubs.append(symbol.name)
    if not stubs:
        return []
    if known and [k.stub for k in known] == stubs and {k.stub for k in known if k.local} == local:
        return list(known)
    demangled = _tool_lines([cxxfilt] + stubs, "demangling the kernel names")
    kernels: List[Tuple[str, str, str, bool]] = []
    for stub, dem in zip(stubs, demangled):
        c_linkage = not stub.startswith("_Z")
        mangled = _device_symbol(stub)
        spelled = mangled if c_linkage else _spelled(dem, stub)
        kernels.append((stub, spelled, mangled, c_linkage))
    plain_count: dict = {}
    for _, spelled, _, _ in kernels:
        plain_count[spelled] = plain_count.get(spelled, 0) + 1
    out = []
    for stub, spelled, mangled, c_linkage in kernels:
        plain = re.fullmatch(r"[A-Za-z_]\w*", spelled) is not None and plain_count[spelled] == 1
        name = spelled if (c_linkage or plain) else mangled
        if not _SYMBOL_RE.match(name):
            raise BishengError(f"internal error: kernel symbol '{name}' is not an identifier")
        ref = f"&{spelled}"
        if plain_count[spelled] > 1:
            ref = f"static_cast<void (*)({_params(dem.replace(ANONYMOUS_NS, ''))})>(&{spelled})"
        out.append(HostKernel(stub, name, spelled, mangled, c_linkage, ref, stub in local))
    return out
