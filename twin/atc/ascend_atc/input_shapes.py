"""--input_shape and --input_shape_range applied to the graph's Data nodes.

``--input_shape "x:8,16;y:-1,16"`` gives named graph inputs their shapes; a dim may be an
integer, -1 (any size) or ``n1~n2`` (a range). ``--input_shape_range "x:[1~8,16];[4]"`` gives
ranges per input (by name, or by position in graph-input order). A range of one value (``8~8``)
is that value; ``-1`` is any size from 1 up. Whatever stays dynamic after both reaches the
compiler as -1 dims with their ranges, and the OM runs through Python (GE runs a dynamic-shape
graph's custom ops through ``execute`` at run time), checking each run's shape against the
ranges.

CANN ignores --input_shape for AIR models; the twin applies it, because an AIR whose inputs are
-1 can otherwise never become an OM here (documented in offline/README.md).
"""

from typing import Dict, List, Optional, Tuple

from ge.graph._ir import GraphIR, Node

from .errors import invalid_value
from .flags import parse_input_shape

Dim = Tuple[int, int]  # (low, high); high == -1: unbounded; low == high: static


def _dim(text: str, flag: str, value: str) -> Dim:
    low, tilde, high = text.strip().partition("~")
    try:
        lo = int(low)
        hi = int(high) if tilde else lo
    except ValueError:
        raise invalid_value(flag, value, f"dimension [{text}] is not an integer, -1 or n1~n2.") from None
    if lo < -1 or (tilde and (lo < 0 or hi < lo)):
        raise invalid_value(flag, value, f"dimension [{text}] is not a valid size or range (n1 <= n2, both >= 0).")
    return (lo, hi) if lo >= 0 else (1, -1)


def _shape(dims: List[Dim]) -> List[int]:
    return [lo if lo == hi else -1 for lo, hi in dims]


def range_text(dims: List[Dim]) -> str:
    return ",".join(str(lo) if lo == hi else (f"{lo}~{hi}" if hi >= 0 else "-1") for lo, hi in dims)


def _set(node: Node, dims: List[Dim]) -> None:
    shape = _shape(dims)
    for desc in (node.output_descs[0], node.input_descs[0] if node.input_descs else None):
        if desc is not None:
            desc.shape, desc.origin_shape = list(shape), list(shape)


def _input_named(graph: GraphIR, name: str, flag: str, value: str) -> Node:
    inputs = graph.input_nodes()
    for node in inputs:
        if node.name == name:
            return node
    known = ", ".join(node.name for node in inputs) or "none"
    raise invalid_value(flag, value, f"[{name}] is not a graph input (graph inputs: {known}).")


def _parse_ranges(text: str) -> List[Tuple[Optional[str], List[str]]]:
    items = []
    for item in filter(None, text.split(";")):
        name, sep, dims = item.rpartition(":")
        dims = dims.strip()
        if (sep and not name) or not (dims.startswith("[") and dims.endswith("]")):
            raise invalid_value("input_shape_range", text, f"item [{item}] is not of the form [name:][d0,d1,...].")
        items.append((name if sep else None, [d for d in dims[1:-1].split(",") if d.strip()]))
    return items


def validate_range_text(text: str) -> None:
    """Checks --input_shape_range syntax without a graph (AtcError E10001 on the flag)."""
    for _, dims in _parse_ranges(text):
        for dim in dims:
            _dim(dim, "input_shape_range", text)


def _settings(
    graph: GraphIR, input_shape: Optional[str], input_shape_range: Optional[str]
) -> List[Tuple[Node, List[Dim]]]:
    """(Data node, its dims) of every item, --input_shape's then --input_shape_range's, all parsed
    and checked before any node changes."""
    settings = []
    if input_shape:
        for name, dims in parse_input_shape(input_shape).items():
            node = _input_named(graph, name, "input_shape", input_shape)
            settings.append((node, [_dim(d, "input_shape", input_shape) for d in dims]))
    if input_shape_range:
        inputs = graph.input_nodes()
        for position, (name, dims) in enumerate(_parse_ranges(input_shape_range)):
            if name is not None:
                node = _input_named(graph, name, "input_shape_range", input_shape_range)
            elif position < len(inputs):
                node = inputs[position]
            else:
                raise invalid_value(
                    "input_shape_range",
                    input_shape_range,
                    f"item {position} has no graph input (the graph has {len(inputs)}).",
                )
            settings.append((node, [_dim(d, "input_shape_range", input_shape_range) for d in dims]))
    return settings


def apply(graph: GraphIR, input_shape: Optional[str], input_shape_range: Optional[str]) -> Dict[str, List[Dim]]:
    """Sets the Data nodes' shapes; returns {input name: [(min, max) per dim]} of inputs left dynamic
    (a later item for the same input replaces an earlier one)."""
    dynamic: Dict[str, List[Dim]] = {}
    for node, dims in _settings(graph, input_shape, input_shape_range):
        _set(node, dims)
        if any(lo != hi for lo, hi in dims):
            dynamic[node.name] = dims
        else:
            dynamic.pop(node.name, None)
    return dynamic
