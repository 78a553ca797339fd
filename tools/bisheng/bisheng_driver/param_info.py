"""The parameters of each kernel as the device pass compiled them (sizeof and kind), read
from the device object; the -dc link reads the same records back from the objects it links."""

import os
import struct
import subprocess
from dataclasses import dataclass

from . import codegen
from .errors import BishengError
from .runner import Run
from .toolchain import Tools


@dataclass(frozen=True)
class ParamInfo:
    """The parameters of one kernel: sizeof and kind (see ParamSizeRecord in kernel_entry.h)."""

    sizes: list
    kinds: list


def read_param_sizes(tools: Tools, workdir: str, device_obj: str, count: int, run: Run) -> list:
    dump = os.path.join(workdir, "param_sizes.bin")
    proc = run(
        phase="objcopy (param sizes)",
        cmd=[
            tools.objcopy,
            f"--dump-section={codegen.PARAM_SIZES_SECTION}={dump}",
            f"--remove-section={codegen.PARAM_SIZES_SECTION}",
            device_obj,
        ],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        raise BishengError(
            "internal error: cannot read the kernels' parameter sizes: " + proc.stderr.decode(errors="replace").strip()
        )
    with open(dump, "rb") as f:
        data = f.read()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    per = codegen.PARAM_RECORD_WORDS
    if len(words) != per * count:
        raise BishengError("internal error: parameter size records do not match the kernels")
    out = []
    for i in range(count):
        n = words[i * per]
        out.append(ParamInfo(list(words[i * per + 1 : i * per + 1 + n]), list(words[i * per + 64 : i * per + 64 + n])))
    return out
