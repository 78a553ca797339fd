"""--mode=0: AIR -> OM for one SoC, written atomically to <output>.om."""

import os

from . import compiler_bridge, console, input_shapes
from .errors import invalid_value
from .flags import AtcOptions, parse_output_type
from .output_file import check_output_dir, write_atomically


def om_requires_python(payload: bytes) -> bool:
    from twin.om import om

    return om.read(payload).requires_python


def _check_model_file(path: str) -> None:
    if not os.path.exists(path):
        raise invalid_value("model", path, "the file does not exist.")
    if not os.path.isfile(path):
        raise invalid_value("model", path, "it is not a regular file.")
    if not os.access(path, os.R_OK):
        raise invalid_value("model", path, "the file is not readable.")


# --output_type's names as the OM's data types (CANN's table).
_OUTPUT_DATA_TYPES = {
    "FP32": "DT_FLOAT",
    "FP16": "DT_FLOAT16",
    "UINT8": "DT_UINT8",
    "INT8": "DT_INT8",
    "UINT16": "DT_UINT16",
    "INT16": "DT_INT16",
    "UINT32": "DT_UINT32",
    "INT32": "DT_INT32",
    "UINT64": "DT_UINT64",
    "INT64": "DT_INT64",
    "DOUBLE": "DT_DOUBLE",
    "HIF8": "DT_HIFLOAT8",
    "FP8E5M2": "DT_FLOAT8_E5M2",
    "FP8E4M3FN": "DT_FLOAT8_E4M3FN",
}


def check_output_types(graph_ir, wanted) -> None:
    """The twin's compiler inserts no output cast: an --output_type must be what the graph's
    outputs already are (then it changes nothing, as in CANN), else it is refused, not ignored."""
    outputs = {f"{out.node}:{out.index}": out for out in graph_ir.outputs}
    text = ";".join(f"{k}:{v}" if k else v for k, v in wanted.items())
    for where, name in wanted.items():
        targets = list(outputs.values()) if where == "" else [outputs.get(where)]
        if targets == [None]:
            raise invalid_value(
                "output_type", text, f"[{where}] is not a graph output (outputs: {', '.join(outputs) or 'none'})."
            )
        for out in targets:
            have = graph_ir.nodes[out.node].output_descs[out.index].data_type.name
            if have != _OUTPUT_DATA_TYPES[name]:
                raise invalid_value(
                    "output_type",
                    text,
                    f"graph output {out.node}:{out.index} is {have}; the CPU "
                    f"twin inserts no cast, so --output_type must match it.",
                )


def run(options: AtcOptions) -> str:
    """Returns the path of the written OM."""
    model = options.get("model")
    soc_version = options.get("soc_version")
    om_path = options.get("output") + ".om"
    _check_model_file(model)
    check_output_dir("output", om_path)
    platform = compiler_bridge.load_platform(soc_version)
    console.log("info", f"soc_version={soc_version} NpuArch={platform.sections.get('version', {}).get('NpuArch')}")
    console.log("info", f"loading AIR {model}")
    graph_ir = compiler_bridge.load_air(model)
    dynamic = input_shapes.apply(graph_ir, options.get("input_shape"), options.get("input_shape_range"))
    if options.get("output_type") is not None:
        check_output_types(graph_ir, parse_output_type(options.get("output_type"), options.get("out_nodes")))
    console.log("info", f"compiling graph {graph_ir.name} ({len(graph_ir.nodes)} nodes)")
    for name, dims in dynamic.items():
        console.log("info", f"input {name} stays dynamic: [{input_shapes.range_text(dims)}]")
    payload = compiler_bridge.compile_to_om(graph_ir, soc_version, {}, dynamic)
    if om_requires_python(payload):
        console.log(
            "info",
            "the model needs the Python environment at run time (an execute op or a dynamic "
            "input): it runs through Python when loaded",
        )
    write_atomically(om_path, payload)
    console.log("info", f"wrote {om_path} ({len(payload)} bytes)")
    return om_path
