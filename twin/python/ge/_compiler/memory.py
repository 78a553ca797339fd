"""Memory planning: where every tensor of the compiled model lives.

Graph inputs are bound to model inputs and graph outputs to model outputs (no copies). Every
other tensor gets a region of the feature map, reused once its last consumer has run (first fit,
512-byte aligned). Workspaces of all nodes share one region after the tensors: nodes run one at a
time on the model's single stream. A graph output that is a graph input, or the same tensor
listed twice as an output, is produced by a MEMCPY task after the kernels.
"""

from dataclasses import dataclass
from typing import Dict, List, Tuple

from ge.graph._ir import DATA_NODE_TYPES, Endpoint, GraphIR, Node, TensorDescIR

from .constants import CONST_NODE_TYPES, const_value
from .errors import GraphCompileError
from .memory_size import tensor_bytes

ALIGN = 512
# Logical build-time addresses handed to declare_launch_args (never dereferenced, like GE's
# "model data base + offset"); bindings are resolved by slot, not by these numbers.
LOGICAL_FEATURE_MAP_BASE = 0x1000_0000_0000
LOGICAL_INPUT_BASE = 0x2000_0000_0000
LOGICAL_OUTPUT_BASE = 0x3000_0000_0000
LOGICAL_CONSTANT_BASE = 0x4000_0000_0000
LOGICAL_STRIDE = 1 << 36


def align(size: int) -> int:
    return (size + ALIGN - 1) // ALIGN * ALIGN


@dataclass(frozen=True)
class Location:
    """Where a tensor lives: kind "input"/"output" (index), "feature_map" or "constant" (offset, size)."""

    kind: str
    index: int = 0
    offset: int = 0
    size: int = 0

    @property
    def logical_addr(self) -> int:
        if self.kind == "input":
            return LOGICAL_INPUT_BASE + self.index * LOGICAL_STRIDE
        if self.kind == "output":
            return LOGICAL_OUTPUT_BASE + self.index * LOGICAL_STRIDE
        if self.kind == "constant":
            return LOGICAL_CONSTANT_BASE + self.offset
        return LOGICAL_FEATURE_MAP_BASE + self.offset


@dataclass
class MemoryPlan:
    inputs: List[Node]  # model input i <- this Data node
    outputs: List[Tuple[Endpoint, TensorDescIR]]  # model output j <- this tensor
    locations: Dict[Endpoint, Location]
    output_copies: List[Tuple[Location, int, int]]  # (source, output index, bytes)
    tensor_region_size: int
    constants: bytes = b""  # the CONSTANTS partition
    workspace_offset: int = 0
    workspace_size: int = 0
    feature_map_size: int = 0


class FirstFit:
    def __init__(self) -> None:
        self.free: List[Tuple[int, int]] = []  # (offset, size), sorted by offset
        self.top = 0

    def alloc(self, size: int) -> int:
        size = align(max(size, 1))
        for i, (offset, free_size) in enumerate(self.free):
            if free_size >= size:
                if free_size == size:
                    del self.free[i]
                else:
                    self.free[i] = (offset + size, free_size - size)
                return offset
        offset, self.top = self.top, self.top + size
        return offset

    def release(self, offset: int, size: int) -> None:
        self.free.append((offset, align(max(size, 1))))
        self.free.sort()
        merged: List[Tuple[int, int]] = []
        for off, sz in self.free:
            if merged and merged[-1][0] + merged[-1][1] == off:
                merged[-1] = (merged[-1][0], merged[-1][1] + sz)
            else:
                merged.append((off, sz))
        self.free = merged


def plan_memory(graph: GraphIR, order: List[Node]) -> MemoryPlan:
    inputs = graph.input_nodes()
    if not graph.outputs:
        raise GraphCompileError(
            f"graph {graph.name} has no outputs (GraphBuilder.set_graph_output or build_and_reset(outputs))"
        )
    locations: Dict[Endpoint, Location] = {}
    for i, node in enumerate(inputs):
        desc = node.output_descs[0]
        locations[Endpoint(node.name, 0)] = Location("input", i, 0, tensor_bytes(desc, f"graph input {node.name}"))
    blob = bytearray()
    for node in order:
        if node.type in CONST_NODE_TYPES:
            data = const_value(node).data
            offset = align(len(blob))
            blob += b"\0" * (offset - len(blob)) + data
            locations[Endpoint(node.name, 0)] = Location("constant", 0, offset, len(data))
    outputs, copies = [], []
    for j, ep in enumerate(graph.outputs):
        desc = graph.nodes[ep.node].output_descs[ep.index]
        size = tensor_bytes(desc, f"graph output {j}")
        outputs.append((ep, desc))
        if ep in locations:
            copies.append((locations[ep], j, size))  # a graph input or an already bound output
        else:
            locations[ep] = Location("output", j, 0, size)

    last_use: Dict[Endpoint, int] = {}
    for step, node in enumerate(order):
        for src in node.inputs:
            if src is not None:
                last_use[src] = step
    heap = FirstFit()
    for step, node in enumerate(order):
        if node.type in DATA_NODE_TYPES or node.type in CONST_NODE_TYPES:
            continue
        for index, desc in enumerate(node.output_descs):
            ep = Endpoint(node.name, index)
            if ep not in locations:
                size = tensor_bytes(desc, f"output {index} of node {node.name}")
                locations[ep] = Location("feature_map", 0, heap.alloc(size), size)
                if ep not in last_use:
                    last_use[ep] = step  # unused result: free right after its producer
        for ep in {src for src in node.inputs if src is not None} | {
            Endpoint(node.name, i) for i in range(len(node.output_descs))
        }:
            loc = locations.get(ep)
            if loc is not None and loc.kind == "feature_map" and last_use.get(ep) == step:
                heap.release(loc.offset, loc.size)
    plan = MemoryPlan(inputs, outputs, locations, copies, heap.top, bytes(blob))
    plan.workspace_offset = align(heap.top)
    plan.feature_map_size = plan.workspace_offset
    return plan


def add_workspaces(plan: MemoryPlan, node_workspace_total: int) -> None:
    """Grows the shared workspace region to fit one node's workspaces."""
    plan.workspace_size = max(plan.workspace_size, node_workspace_total)
    plan.feature_map_size = plan.workspace_offset + plan.workspace_size
