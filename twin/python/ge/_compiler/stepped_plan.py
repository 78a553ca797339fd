"""The stepped execution plan of one graph at one set of input shapes.

A graph that cannot be one static OM (a node runs a Python ``execute``, or an input has a
dynamic shape) is compiled per input-shape signature into steps, in topological order:

- ``KernelSegment``: a maximal run of kernel nodes (declare_launch_args), compiled by the same
  graph compiler into an OM of its own whose inputs/outputs are the tensors crossing its border;
- ``ExecuteStep``: one node whose impl's ``execute`` runs at every graph run, on its backend;
- ``CopyStep``: a tensor moved between device and host memory, inserted where a host node reads a
  device tensor or a device node reads a host tensor.

Tensors are keyed by (endpoint, side) with side "device" or "host". Graph inputs and constants
live on the device, as GE places them.
"""

import copy
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ge.graph._ir import DATA_NODE_TYPES, AttrValue, Endpoint, GraphIR, Node, TensorDescIR
from ge.graph.types import AttrValueType

from . import compile_graph
from .constants import CONST_NODE_TYPES, const_value
from .custom_optimizer import CustomNode, resolve_custom_node, run_compile
from .errors import GraphCompileError
from .infer import infer_graph
from .op_catalog import OpCatalog
from .options import CompileTarget
from .placement import HOST_EXECUTE, KERNEL, placement_of
from .topo import topological_order

DEVICE, HOST = "device", "host"
TensorKey = Tuple[Endpoint, str]


@dataclass
class KernelSegment:
    nodes: List[Node]
    inputs: List[Endpoint] = field(default_factory=list)  # model input i <- this device tensor
    outputs: List[Endpoint] = field(default_factory=list)  # model output j -> this device tensor
    om: bytes = b""
    description: Any = None  # the segment OM's model description, once compiled


def side_of(placement) -> str:
    """The memory side a node of this placement reads and writes."""
    return HOST if placement == HOST_EXECUTE else DEVICE


@dataclass
class ExecuteStep:
    custom: CustomNode
    backend: Any  # OpBackend

    @property
    def side(self) -> str:
        return side_of(self.backend)


@dataclass
class CopyStep:
    source: Endpoint
    to_side: str  # DEVICE: host -> device; HOST: device -> host


@dataclass
class StepPlan:
    graph: GraphIR  # the graph with this signature's shapes inferred
    steps: list
    descs: Dict[Endpoint, TensorDescIR]
    inputs: List[Endpoint]  # graph input i (device)
    constants: Dict[Endpoint, bytes]  # constant tensors (device), filled once
    outputs: List[TensorKey]  # graph output j <- this tensor
    # outputs of shape-locked execute nodes whose dims stay unknown at this signature: the shape
    # execute allocates (malloc_output_tensor) is the one the graph output gets at each run
    runtime_shaped: frozenset = frozenset()


def _desc_of(graph: GraphIR, ep: Endpoint) -> TensorDescIR:
    return graph.nodes[ep.node].output_descs[ep.index]


def with_input_shapes(graph: GraphIR, shapes: List[List[int]]) -> GraphIR:
    """A copy of ``graph`` whose Data nodes have the given concrete shapes."""
    concrete = copy.deepcopy(graph)
    for node, dims in zip(concrete.input_nodes(), shapes):
        desc = node.output_descs[0]
        desc.shape, desc.origin_shape = list(dims), list(dims)
        node.input_descs[0].shape, node.input_descs[0].origin_shape = list(dims), list(dims)
    return concrete


class _Builder:
    def __init__(self, catalog: OpCatalog) -> None:
        self.catalog = catalog
        self.steps: list = []
        self.sides: Dict[Endpoint, set] = {}
        self.segment: Optional[KernelSegment] = None

    def _close(self) -> None:
        self.segment = None

    def _ensure(self, ep: Endpoint, side: str) -> None:
        have = self.sides.setdefault(ep, set())
        if side not in have:
            self._close()
            self.steps.append(CopyStep(ep, side))
            have.add(side)

    def add(self, node: Node) -> None:
        if node.type in DATA_NODE_TYPES or node.type in CONST_NODE_TYPES:
            self.sides[Endpoint(node.name, 0)] = {DEVICE}
            return
        custom = resolve_custom_node(node, self.catalog)
        placement = placement_of(custom.descriptor)
        side = side_of(placement)
        for src in node.inputs:
            if src is not None:
                self._ensure(src, side)  # a copy step only if the tensor is not on that side yet
        if placement == KERNEL:
            if self.segment is None:
                self.segment = KernelSegment([])
                self.steps.append(self.segment)
            self.segment.nodes.append(node)
        else:
            self._close()
            self.steps.append(ExecuteStep(custom, placement))
        for index in range(len(node.output_descs)):
            self.sides[Endpoint(node.name, index)] = {side}

    @staticmethod
    def _produced(segment: KernelSegment) -> set:
        return {Endpoint(n.name, i) for n in segment.nodes for i in range(len(n.output_descs))}


def _segment_borders(graph: GraphIR, segment: KernelSegment) -> None:
    produced = _Builder._produced(segment)
    members = {n.name for n in segment.nodes}
    for node in segment.nodes:
        for src in node.inputs:
            if src is not None and src not in produced and src not in segment.inputs:
                segment.inputs.append(src)
    used_outside = [
        src for node in graph.nodes.values() if node.name not in members for src in node.inputs if src is not None
    ]
    for ep in [*used_outside, *graph.outputs]:
        if ep in produced and ep not in segment.outputs:
            segment.outputs.append(ep)


def segment_graph(graph: GraphIR, segment: KernelSegment) -> GraphIR:
    """The segment as a graph of its own: a Data node per border input, its nodes, its outputs."""
    sub = GraphIR(name=f"{graph.name}_{segment.nodes[0].name}")
    names: Dict[Endpoint, Endpoint] = {}
    for k, ep in enumerate(segment.inputs):
        desc = _desc_of(graph, ep)
        data = Node(
            name=f"_seg_in{k}",
            type="Data",
            input_names=["x"],
            input_descs=[desc.copy()],
            inputs=[None],
            output_names=["y"],
            output_descs=[desc.copy()],
            attrs={"index": AttrValue(AttrValueType.VT_INT, k)},
            ir_inputs=[("x", "required", 1)],
            ir_outputs=[("y", "required", 1)],
        )
        sub.add_node(data)
        names[ep] = Endpoint(data.name, 0)
    members = {n.name for n in segment.nodes}
    for node in segment.nodes:
        clone = copy.deepcopy(node)
        clone.inputs = [names.get(src, src) if src is not None else None for src in clone.inputs]
        clone.control_inputs = [c for c in clone.control_inputs if c in members]
        sub.add_node(clone)
    sub.outputs = list(segment.outputs)
    return sub


def build_plan(
    graph: GraphIR,
    options: Mapping[str, str],
    target: CompileTarget,
    catalog: Optional[OpCatalog] = None,
    inferred: bool = False,
) -> StepPlan:
    """Infers ``graph`` (concrete input shapes; skipped when the caller ``inferred`` it already),
    places and compiles every node: kernel segments into OMs, ``compile`` of execute nodes (per
    new shape, as GE compiles per shape)."""
    catalog = catalog or OpCatalog()
    order = topological_order(graph)
    if not inferred:
        infer_graph(graph, order, catalog)
    builder = _Builder(catalog)
    for node in order:
        builder.add(node)
    constants = {Endpoint(node.name, 0): const_value(node).data for node in order if node.type in CONST_NODE_TYPES}
    steps = []
    for step in builder.steps:
        if isinstance(step, KernelSegment):
            _segment_borders(graph, step)
            if not step.outputs:
                continue  # nothing reads what it computes (GE prunes such nodes too)
            compiled = compile_graph(segment_graph(graph, step), options, mode="online")
            step.om, step.description = compiled.om, compiled.description
        elif isinstance(step, ExecuteStep):
            run_compile(step.custom, options, target)
        steps.append(step)
    outputs = []
    for j, ep in enumerate(graph.outputs):
        sides = builder.sides.get(ep)
        if not sides:
            raise GraphCompileError(f"graph {graph.name}: output {j} ({ep.node}:{ep.index}) is never produced")
        outputs.append((ep, DEVICE if DEVICE in sides else HOST))
    descs = {Endpoint(n.name, i): d for n in graph.nodes.values() for i, d in enumerate(n.output_descs)}
    inputs = [Endpoint(n.name, 0) for n in graph.input_nodes()]
    return StepPlan(graph, steps, descs, inputs, constants, outputs, _runtime_shaped(graph, steps, outputs))


def _runtime_shaped(graph: GraphIR, steps: list, outputs: List[TensorKey]) -> frozenset:
    """Unknown-dim outputs of shape-locked nodes (GE infers nothing for them). Their shape is
    known once execute has run, so the twin takes it for a graph output read on the execute's
    own side; a node or a copy reading such a tensor would need it at compile time: refused."""
    execute_nodes = {step.custom.node.name: step for step in steps if isinstance(step, ExecuteStep)}
    found = set()
    for node in graph.nodes.values():
        if node.type in DATA_NODE_TYPES or node.type in CONST_NODE_TYPES:
            continue
        for index, desc in enumerate(node.output_descs):
            if not any(d < 0 for d in desc.shape):
                continue
            ep, where = Endpoint(node.name, index), f"node {node.name} (op {node.type})"
            what = (
                f"{where}: output {node.output_names[index]} has unknown dims {list(desc.shape)} that no "
                "shape inference resolves (_out_shape_locked, or a custom op without one)"
            )
            step = execute_nodes.get(node.name)
            if step is None:
                raise GraphCompileError(f"{what}, and the node has no execute to produce it at run time")
            readers = [n.name for n in graph.nodes.values() if ep in n.inputs]
            if readers:
                raise GraphCompileError(
                    f"{what}, and node {readers[0]} reads it; the twin takes such a shape from "
                    "execute only for a graph output"
                )
            if (ep, step.side) not in outputs:
                raise GraphCompileError(f"{what}, and the graph output needs it on the other memory side")
            found.add(ep)
    return frozenset(found)
