"""--mode=0: AIR -> OM for one SoC, written atomically to <output>.om."""

import os

from . import compiler_bridge, console, input_shapes
from .errors import invalid_value
from .flags import AtcOptions
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
    console.log("info", f"compiling graph {graph_ir.name} ({len(graph_ir.nodes)} nodes)")
    for name, dims in dynamic.items():
        console.log("info", f"input {name} stays dynamic: [{input_shapes.range_text(dims)}]")
    payload = compiler_bridge.compile_to_om(graph_ir, soc_version, {}, dynamic)
    if om_requires_python(payload):
        console.log("info", "the model needs the Python environment at run time (an execute op or a dynamic "
                            "input): it runs through Python when loaded")
    write_atomically(om_path, payload)
    console.log("info", f"wrote {om_path} ({len(payload)} bytes)")
    return om_path
