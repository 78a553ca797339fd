"""Each kernel's type, read from its source as CANN's compiler reads it: the declaration's
`__mix__(aic, aiv)`, `__cube__` or `__vector__`, or `KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_...)`
in its body (which wins). The type goes into the kernel's AscTwinKernelInfo, so the runtime
knows which cores a launch runs (twin/abi/include/asc_twin/aicore_abi.h). A kernel that
declares none (or is defined in a header) has no type: it runs as vector blocks seeing every
local memory, as the twin ran every kernel before.
"""

import re
from typing import Dict, Optional

from .device_source import _strip

# CANN's KernelMetaType values (== ASC_TWIN_KERNEL_TYPE_*).
KERNEL_TYPES = {
    "KERNEL_TYPE_AIV_ONLY": 0,
    "KERNEL_TYPE_AIC_ONLY": 1,
    "KERNEL_TYPE_MIX_AIV_1_0": 2,
    "KERNEL_TYPE_MIX_AIC_1_0": 3,
    "KERNEL_TYPE_MIX_AIC_1_1": 4,
    "KERNEL_TYPE_MIX_AIC_1_2": 5,
}
_MIX = {(1, 2): 5, (1, 1): 4, (1, 0): 3, (0, 1): 2}
_MIX_RE = re.compile(r"__mix__\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)")
_GLOBAL_RE = re.compile(r"\b__global__\b")
_NAME_RE = re.compile(r"([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\($")
_DEFAULT_RE = re.compile(r"\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(?:\w+::)*(KERNEL_TYPE_\w+)\s*\)")


def _body_end(text: str, at: int) -> int:
    depth = 0
    for i in range(at, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def kernel_types(text: str) -> Dict[str, int]:
    """{kernel identifier: ASC_TWIN_KERNEL_TYPE_*} for the __global__ functions of `text` that
    declare a type. A KERNEL_TASK_TYPE_DEFAULT naming no known type is left to the compiler of
    the kernel's body (it fails there, naming the macro's argument)."""
    text = _strip(text)
    found: Dict[str, int] = {}
    for g in _GLOBAL_RE.finditer(text):
        start = max(text.rfind(c, 0, g.start()) for c in ";{}") + 1
        rest = _MIX_RE.sub(lambda m: " " * len(m.group(0)), text[g.start() : g.start() + 4000])
        paren = rest.find("(")
        if paren < 0:
            continue
        name = _NAME_RE.search(rest[: paren + 1])
        if name is None:
            continue
        head = text[start : g.start() + paren]
        kind: Optional[int] = None
        mix = _MIX_RE.search(head)
        if mix is not None:
            kind = _MIX.get((int(mix.group(1)), int(mix.group(2))))
        elif re.search(r"\b__cube__\b", head):
            kind = KERNEL_TYPES["KERNEL_TYPE_AIC_ONLY"]
        elif re.search(r"\b__vector__\b", head):
            kind = KERNEL_TYPES["KERNEL_TYPE_AIV_ONLY"]
        after = g.start() + paren
        brace, semi = text.find("{", after), text.find(";", after)
        if brace >= 0 and (semi < 0 or brace < semi):
            default = _DEFAULT_RE.search(text, brace, _body_end(text, brace))
            if default is not None and default.group(1) in KERNEL_TYPES:
                kind = KERNEL_TYPES[default.group(1)]
        if kind is not None:
            found[name.group(1)] = kind
    return found


def base_identifier(spelled: str) -> str:
    """`ns::k<float>` -> `k`."""
    return re.sub(r"<.*$", "", spelled).split("::")[-1]
