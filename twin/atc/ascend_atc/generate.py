"""--mode=0: AIR -> OM for one SoC, written atomically to <output>.om."""

import os

from . import compiler_bridge, console, input_shapes
from .errors import invalid_value
from .flags import AtcOptions
from .output_file import check_output_dir, write_atomically


def _check_model_file(path: str) -> None:
    if not os.path.exists(path):
        raise invalid_value("model", path, "the file does not exist.")
    if not os.path.isfile(path):
        raise invalid_value("model", path, "it is not a regular file.")
    if not os.access(path, os.R_OK):
        raise invalid_value("model", path, "the file is not readable.")


def _not_static(options: AtcOptions, dynamic, exc):
    """E10001 on the parameter that left the model dynamic, else on --model (a Python execute op)."""
    reason = str(exc).splitlines()[0]
    if dynamic:
        flag = "input_shape_range" if options.get("input_shape_range") else "input_shape"
        ranges = "; ".join(f"{name}:[{text}]" for name, text in dynamic.items())
        return invalid_value(flag, options.get(flag), f"{reason} (ranges {ranges})")
    return invalid_value("model", options.get("model"), reason)


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
    from ge._compiler import NotStaticModelError
    try:
        payload = compiler_bridge.compile_to_om(graph_ir, soc_version, {})
    except NotStaticModelError as exc:
        raise _not_static(options, dynamic, exc) from None
    write_atomically(om_path, payload)
    console.log("info", f"wrote {om_path} ({len(payload)} bytes)")
    return om_path
