"""--mode=6 --om=x.om: validates an OM and prints what it holds as JSON (CANN's "display model
info"): the target SoC/arch, the partitions, the inputs/outputs and the task list; for a model
that runs through Python also "requires_python", the graph's size and each input's dim ranges."""

import json
import os
import sys

from .errors import AtcError, invalid_value

_DTYPE_NAMES = {
    0: "DT_FLOAT",
    1: "DT_FLOAT16",
    2: "DT_INT8",
    3: "DT_INT32",
    4: "DT_UINT8",
    6: "DT_INT16",
    7: "DT_UINT16",
    8: "DT_UINT32",
    9: "DT_INT64",
    10: "DT_UINT64",
    11: "DT_DOUBLE",
    12: "DT_BOOL",
    27: "DT_BF16",
}


def _tensor(desc) -> dict:
    info = {
        "name": desc.name,
        "data_type": _DTYPE_NAMES.get(desc.data_type, desc.data_type),
        "format": desc.format,
        "dims": list(desc.dims),
        "size": desc.size,
    }
    if desc.dim_ranges:
        info["dim_ranges"] = [[r.min, r.max] for r in desc.dim_ranges]
    return info


def _task(task) -> dict:
    if task.HasField("kernel"):
        k = task.kernel
        return {
            "type": "kernel",
            "node": k.node_name,
            "op_type": k.op_type,
            "kernel_name": k.kernel_name,
            "kernel_binary_index": k.kernel_binary_index,
            "block_dim": k.block_dim,
            "args": len(k.args),
        }
    return {"type": "memcpy", "size": task.memcpy.size}


def describe(data: bytes) -> dict:
    from twin.om import om  # the OM owner's reader: the same checks as the runtime's loader

    container = om.read(data)
    model = container.model_def
    info = {
        "om_info": {
            "format_version": container.format_version,
            "soc_version": container.soc_version,
            "npu_arch": container.npu_arch,
            "file_size": len(data),
            "kernel_binaries": [len(b) for b in container.kernel_binaries],
            "constants_size": len(container.constants),
        },
        "graph": {
            "name": model.name,
            "feature_map_size": model.feature_map_size,
            "inputs": [_tensor(t) for t in model.inputs],
            "outputs": [_tensor(t) for t in model.outputs],
            "tasks": [_task(t) for t in model.tasks],
        },
    }
    if container.requires_python:
        info["om_info"].update(requires_python=True, graph_size=len(container.graph))
    return info


def run(options) -> None:
    path = options.get("om")
    if not os.path.isfile(path):
        raise invalid_value("om", path, "the file does not exist.")
    with open(path, "rb") as src:
        data = src.read()
    try:
        info = describe(data)
    except ValueError as exc:  # om.OmFormatError: one line naming the field and the cause
        raise invalid_value("om", path, str(exc)) from None
    except ImportError as exc:
        raise AtcError("E19999", f"Internal Error! the OM reader is not installed: {exc}") from None
    sys.stdout.write(json.dumps(info, indent=2) + "\n")
