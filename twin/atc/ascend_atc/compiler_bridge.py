"""The GE pieces ATC drives, behind one small surface so the CLI does not depend on their layout.

ATC uses exactly what Session uses: the ``ge`` package's AIR reader and platform configs and the
one graph compiler (``ge._compiler.compile_graph``, ``mode="offline"``), which itself loads the
OPP proto libraries and Python plugins listed in ``ASCEND_CUSTOM_OPP_PATH``.
"""

from typing import Any, Dict

from .errors import internal, invalid_value

SOC_VERSION_OPTION = "ge.socVersion"


def load_platform(soc_version: str):
    from ge import _platform

    try:
        return _platform.load_platform(soc_version)
    except (ValueError, FileNotFoundError) as exc:
        raise invalid_value("soc_version", soc_version, str(exc)) from None


def load_air(model_path: str):
    """Returns the graph IR stored in an AIR file; a missing/corrupt/truncated file is E10001."""
    from ge.graph import Graph

    graph = Graph("atc_model")
    try:
        graph.load_from_air(model_path)
    except RuntimeError as exc:
        raise invalid_value("model", model_path, str(exc)) from None
    return graph._ir  # the compiler takes the IR, as Session does


def compile_om_bytes(graph_ir, soc_version: str, extra_options: Dict[str, Any], input_ranges=None) -> bytes:
    """Runs the one graph compiler (it loads OPP protos and Python plugins itself) in offline mode.
    ``input_ranges`` ({input name: [(min, max) per dim]}) bound inputs left dynamic; a graph that
    needs Python at run time becomes an OM that says so (format version 2).

    Raises ge._compiler.GraphCompileError (first line: node, op, cause; diagnostics follow).
    aclgrphBuildModel (ascend_atc.ir_build) calls this too, so its OM is atc's, byte for byte.
    """
    from ge._compiler import GraphCompileError, compile_graph

    options = {SOC_VERSION_OPTION: soc_version, **extra_options}
    compiled = compile_graph(graph_ir, options, mode="offline", input_ranges=input_ranges)
    payload = getattr(compiled, "om", None)
    if not isinstance(payload, (bytes, bytearray)) or not payload:
        raise GraphCompileError("graph compile returned no OM bytes")
    return bytes(payload)


def compile_to_om(graph_ir, soc_version: str, extra_options: Dict[str, Any], input_ranges=None) -> bytes:
    """compile_om_bytes with failures as ATC's E19999."""
    from ge._compiler import GraphCompileError

    try:
        return compile_om_bytes(graph_ir, soc_version, extra_options, input_ranges)
    except GraphCompileError as exc:  # one line naming node, op and cause (+ kernel diagnostics)
        raise internal(f"graph compile failed: {exc}") from None
