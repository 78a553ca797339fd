"""Shape and dtype inference over the graph, in execution order."""

from typing import List

from ge.graph._ir import DATA_NODE_TYPES, GraphIR, Node, TensorDescIR
from ge.graph.types import DataType

from .constants import CONST_NODE_TYPES, const_value
from .errors import GraphCompileError
from .node_spec import node_spec, output_slots
from .op_catalog import OpCatalog


def _where(node: Node) -> str:
    return f"node {node.name} (op {node.type})"


def _check_static(node: Node, desc: TensorDescIR, what: str) -> None:
    if any(d < 0 for d in desc.shape):
        raise GraphCompileError(f"{_where(node)}: {what} has dynamic shape {desc.shape}; the twin compiles "
                                "static shapes only")


def _unknown_as_minus_one(desc: TensorDescIR) -> None:
    """An inferred dim computed from a -1 (e.g. -1 * 2) is still unknown: -1."""
    if desc.shape != [-2]:
        desc.shape = [d if d >= 0 else -1 for d in desc.shape]
        desc.origin_shape = [d if d >= 0 else -1 for d in desc.origin_shape]


def infer_graph(graph: GraphIR, order: List[Node], catalog: OpCatalog, unknown_dims: bool = False) -> None:
    """Fills every input/output desc of ``graph`` (a private copy) in place. With
    ``unknown_dims`` the graph inputs may keep -1 dims, as GE infers a dynamic-shape graph at
    compile time: infer functions see the -1s, and the dims they derive from them are -1."""
    check_static = (lambda *_: None) if unknown_dims else _check_static
    for node in order:
        for slot, src in enumerate(node.inputs):
            if src is not None:
                node.input_descs[slot] = graph.nodes[src.node].output_descs[src.index].copy()
        if node.type in DATA_NODE_TYPES:
            if len(node.output_descs) != 1:
                raise GraphCompileError(f"{_where(node)} must have exactly one output")
            check_static(node, node.output_descs[0], "graph input")
            continue
        if node.type in CONST_NODE_TYPES:
            value = const_value(node)
            node.output_descs[0] = value.desc.copy()
            _check_static(node, node.output_descs[0], "constant")
            continue
        info = catalog.op_info(node.type)
        if info is None:
            raise GraphCompileError(f"{_where(node)}: op type {node.type} is not registered (no REG_OP proto in "
                                    "ASCEND_CUSTOM_OPP_PATH and no Python register_op)")
        if info.infer is None:
            raise GraphCompileError(f"{_where(node)}: op type {node.type} has no shape inference (IMPL_OP "
                                    "InferShape/InferDataType or register_op infer_meta)")
        for slot, desc in enumerate(node.input_descs):
            if node.inputs[slot] is not None:
                check_static(node, desc, f"input {node.input_names[slot]}")
        try:
            results = info.infer(node_spec(node, info.ir_meta))
        except GraphCompileError:
            raise
        except Exception as exc:
            raise GraphCompileError(f"{_where(node)}: shape inference failed: {type(exc).__name__}: {exc}") from None
        slots = output_slots(node, info.ir_meta)
        if len(results) != len(slots):
            raise GraphCompileError(f"{_where(node)}: shape inference returned {len(results)} outputs, the node "
                                    f"has {len(slots)}")
        for slot, (origin, storage, dtype) in zip(slots, results):
            desc = node.output_descs[slot]
            desc.shape = list(storage)
            desc.origin_shape = list(origin)
            desc.data_type = DataType(int(dtype))
            if unknown_dims:
                _unknown_as_minus_one(desc)
            check_static(node, desc, f"output {node.output_names[slot]}")
