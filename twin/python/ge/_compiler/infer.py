"""Shape and dtype inference over the graph, in execution order."""

from typing import Any, List, Optional, Tuple

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
        raise GraphCompileError(
            f"{_where(node)}: {what} has dynamic shape {desc.shape}; the twin compiles static shapes only"
        )


def _unknown_as_minus_one(desc: TensorDescIR) -> None:
    """An inferred dim computed from a -1 (e.g. -1 * 2) is still unknown: -1."""
    if desc.shape != [-2]:
        desc.shape = [d if d >= 0 else -1 for d in desc.shape]
        desc.origin_shape = [d if d >= 0 else -1 for d in desc.origin_shape]


# GE's ATTR_NAME_OUT_SHAPE_LOCKED: InferShapePass calls no infer function for a node carrying it
# (true), and its output descs stay as the graph builder set them.
OUT_SHAPE_LOCKED = "_out_shape_locked"


def shape_locked(node: Node) -> bool:
    attr = node.attrs.get(OUT_SHAPE_LOCKED)
    return attr is not None and attr.value is True


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
        info = _op_info(node, catalog)
        for slot, desc in enumerate(node.input_descs):
            if node.inputs[slot] is not None:
                check_static(node, desc, f"input {node.input_names[slot]}")
        if not runs_inference(node, info):
            continue  # unknown dims stay: an execute node's run gives them (stepped_plan.runtime_shaped)
        results = _call(node, lambda: info.infer(node_spec(node, info.ir_meta)))
        _apply(node, output_slots(node, info.ir_meta), results, unknown_dims)


def runs_inference(node: Node, info) -> bool:
    """Whether GE calls an infer function for the node. Not for a node carrying
    _out_shape_locked (InferShapePass), nor for a custom op (a Python impl is registered) without
    one: GE's InferCustomOpShape then keeps the output descs the graph gives (a node whose
    prototype is not even loaded skips inference the same way)."""
    return not shape_locked(node) and info.infer is not None


def _op_info(node: Node, catalog: OpCatalog):
    info = catalog.node_info(node)
    if info is None:
        raise GraphCompileError(
            f"{_where(node)}: op type {node.type} is not registered (no REG_OP proto in "
            "ASCEND_CUSTOM_OPP_PATH and no Python register_op)"
        )
    if info.infer is None and not shape_locked(node) and catalog.impl(node.type) is None:
        raise GraphCompileError(
            f"{_where(node)}: op type {node.type} has no shape inference (IMPL_OP "
            f"InferShape/InferDataType or register_op infer_meta), no Python impl, and the "
            f"node does not carry {OUT_SHAPE_LOCKED}=true"
        )
    return info


def _call(node: Node, infer):
    try:
        return infer()
    except GraphCompileError:
        raise
    except Exception as exc:
        raise GraphCompileError(f"{_where(node)}: shape inference failed: {type(exc).__name__}: {exc}") from None


def _apply(node: Node, slots: List[int], results, unknown_dims: bool) -> None:
    """Writes inference results into the node's output descs: static ones checked, or with
    ``unknown_dims`` the dims derived from -1s made -1."""
    if len(results) != len(slots):
        raise GraphCompileError(
            f"{_where(node)}: shape inference returned {len(results)} outputs, the node has {len(slots)}"
        )
    for slot, (origin, storage, dtype) in zip(slots, results):
        desc = node.output_descs[slot]
        desc.shape = list(storage)
        desc.origin_shape = list(origin)
        desc.data_type = DataType(int(dtype))
        if unknown_dims:
            _unknown_as_minus_one(desc)
        else:
            _check_static(node, desc, f"output {node.output_names[slot]}")


class _BoundNode:
    """One op's inference with its request prepared for the input descs it last saw; prepared
    again when an upstream result changes them."""

    def __init__(self, graph: GraphIR, node: Node, catalog: OpCatalog) -> None:
        # a node GE infers nothing for (runs_inference) gets its input descs like any other, and
        # its output descs stay the graph's
        self.node, self.info = node, _op_info(node, catalog)
        self.locked = not runs_inference(node, self.info)
        self.slots = output_slots(node, self.info.ir_meta)
        self.sources = [
            (slot, graph.nodes[src.node].output_descs, src.index)
            for slot, src in enumerate(node.inputs)
            if src is not None
        ]
        self.call, self.results = None, None
        self.seen: Optional[List[Tuple[List[int], Any]]] = None  # input (shape, dtype) of the last inference
        self.key: Optional[tuple] = None

    def infer(self) -> None:
        node = self.node
        seen = [(descs[index].shape, descs[index].data_type) for _, descs, index in self.sources]
        if seen != self.seen:  # first run, or an upstream result changed this node's inputs
            for slot, descs, index in self.sources:
                node.input_descs[slot] = descs[index].copy()
            self.seen = [(list(shape), dtype) for shape, dtype in seen]
            if self.locked:
                self.key = tuple((tuple(d.origin_shape), tuple(d.shape), int(d.data_type)) for d in node.output_descs)
                return
            self.call = self.info.bound_infer(node_spec(node, self.info.ir_meta))
        if self.locked:
            return
        results = _call(node, self.call)
        if results != self.results:
            _apply(node, self.slots, results, False)
            self.results = results
            self.key = tuple((tuple(o), tuple(s), int(d)) for o, s, d in results)


class RunInference:
    """Inference of a graph whose input shapes are fixed (one shape signature of a dynamic
    graph), run again at every graph run as GE's dynamic-shape runtime runs InferShape per run.
    Data and Const descs are set once; each op's infer_meta / IMPL_OP InferShape is called at
    every ``run``, with what only depends on its inputs (NodeSpec, the C ABI request) prepared
    while they stay the same."""

    def __init__(self, graph: GraphIR, order: List[Node], catalog: OpCatalog) -> None:
        infer_graph(graph, [n for n in order if n.type in DATA_NODE_TYPES or n.type in CONST_NODE_TYPES], catalog)
        self.nodes = [
            _BoundNode(graph, n, catalog)
            for n in order
            if n.type not in DATA_NODE_TYPES and n.type not in CONST_NODE_TYPES
        ]

    def run(self) -> tuple:
        """Infers every op; returns the results (each op's output dims and dtypes) as a key."""
        for bound in self.nodes:
            bound.infer()
        return tuple(bound.key for bound in self.nodes)
