"""In-memory graph IR shared by GraphBuilder, Graph, AIR (de)serialization and the compiler.

A graph is an ordered set of named nodes. Every node keeps per-instance input/output slots
(name, TensorDescIR) and, for each input slot, the producing endpoint or None (an absent optional
input). ``ir_inputs``/``ir_outputs`` record how instances map to the op's IR declarations:
(ir_name, kind, instance_count) with kind "required" | "optional" | "dynamic", so the compiler
can build ir_meta-ordered argument lists without re-deriving them. Graph inputs are the Data-like
nodes ordered by their ``index`` attr; graph outputs are endpoints in output-index order.
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .types import AttrValueType, DataType, Format

DATA_NODE_TYPES = ("Data", "RefData", "AippData", "AnyData")


@dataclass(init=False)
class TensorDescIR:
    data_type: DataType
    format: Format
    shape: List[int]
    origin_format: Format
    origin_shape: List[int]
    attrs: Dict[str, "AttrValue"]

    def __init__(
        self,
        data_type: DataType = DataType.DT_FLOAT,
        format: Format = Format.FORMAT_ND,
        shape: Sequence[int] = (),
        origin_format: Optional[Format] = None,  # None: same as format
        origin_shape: Optional[Sequence[int]] = None,  # None: same as shape
        attrs: Optional[Dict[str, "AttrValue"]] = None,  # None: a new empty dict
    ) -> None:
        self.data_type = DataType(int(data_type))
        self.format = Format(int(format))
        self.shape = [int(d) for d in shape]
        self.origin_format = self.format if origin_format is None else Format(int(origin_format))
        self.origin_shape = list(self.shape) if origin_shape is None else [int(d) for d in origin_shape]
        self.attrs = {} if attrs is None else attrs

    def copy(self) -> "TensorDescIR":
        return TensorDescIR(
            self.data_type, self.format, list(self.shape), self.origin_format, list(self.origin_shape), dict(self.attrs)
        )


@dataclass(frozen=True)
class AttrValue:
    """A typed attribute value; ``type`` decides the AIR encoding (int vs float, list kinds)."""

    type: AttrValueType
    value: Any


@dataclass(frozen=True)
class TensorValue:
    """A constant tensor (Const ``value`` attrs, VT_TENSOR attrs): desc + raw little-endian bytes."""

    desc: TensorDescIR
    data: bytes


@dataclass(frozen=True)
class Endpoint:
    node: str
    index: int


@dataclass
class Node:
    name: str
    type: str
    input_names: List[str] = field(default_factory=list)
    input_descs: List[TensorDescIR] = field(default_factory=list)
    inputs: List[Optional[Endpoint]] = field(default_factory=list)
    output_names: List[str] = field(default_factory=list)
    output_descs: List[TensorDescIR] = field(default_factory=list)
    attrs: Dict[str, AttrValue] = field(default_factory=dict)
    control_inputs: List[str] = field(default_factory=list)
    ir_inputs: List[Tuple[str, str, int]] = field(default_factory=list)
    ir_outputs: List[Tuple[str, str, int]] = field(default_factory=list)


@dataclass
class GraphIR:
    name: str = "graph"
    nodes: Dict[str, Node] = field(default_factory=dict)  # insertion order = creation order
    outputs: List[Endpoint] = field(default_factory=list)
    attrs: Dict[str, AttrValue] = field(default_factory=dict)

    def add_node(self, node: Node) -> Node:
        if node.name in self.nodes:
            raise ValueError(f"graph {self.name} already has a node named {node.name}")
        self.nodes[node.name] = node
        return node

    def input_nodes(self) -> List[Node]:
        """Data-like nodes ordered by their ``index`` attr (the graph input order)."""
        data_nodes = [n for n in self.nodes.values() if n.type in DATA_NODE_TYPES]

        def index_of(node: Node) -> int:
            attr = node.attrs.get("index")
            return int(attr.value) if attr is not None else 0

        return sorted(data_nodes, key=index_of)

    def validate(self) -> None:
        """Every edge and output must name an existing node and output slot."""
        for node in self.nodes.values():
            for slot, src in enumerate(node.inputs):
                if src is not None:
                    self._check_endpoint(src, f"input {slot} of node {node.name}")
            for ctrl in node.control_inputs:
                if ctrl not in self.nodes:
                    raise ValueError(f"control input {ctrl} of node {node.name} does not exist")
        for index, out in enumerate(self.outputs):
            self._check_endpoint(out, f"graph output {index}")
        self._check_input_indices()

    def _check_input_indices(self) -> None:
        """Each Data-like node's ``index`` names its graph input: distinct, within 0..n-1 (a
        duplicate or far-off index would otherwise order or size the inputs silently wrong)."""
        data_nodes = [n for n in self.nodes.values() if n.type in DATA_NODE_TYPES]
        seen: Dict[int, str] = {}
        for node in data_nodes:
            attr = node.attrs.get("index")
            if attr is None:
                continue
            try:
                index = int(attr.value)
            except (TypeError, ValueError):
                raise ValueError(f"graph {self.name}: {node.type} node {node.name} has a non-integer index") from None
            if not 0 <= index < len(data_nodes):
                raise ValueError(
                    f"graph {self.name}: {node.type} node {node.name} has index {index}; the graph has "
                    f"{len(data_nodes)} inputs, so an index must be 0..{len(data_nodes) - 1}"
                )
            if index in seen:
                raise ValueError(
                    f"graph {self.name}: {node.type} nodes {seen[index]} and {node.name} both have "
                    f"index {index}; each graph input needs its own index"
                )
            seen[index] = node.name

    def _check_endpoint(self, endpoint: Endpoint, what: str) -> None:
        src = self.nodes.get(endpoint.node)
        if src is None:
            raise ValueError(f"{what} refers to missing node {endpoint.node}")
        if not 0 <= endpoint.index < len(src.output_descs):
            raise ValueError(
                f"{what} refers to output {endpoint.index} of node {endpoint.node}, "
                f"which has {len(src.output_descs)} outputs"
            )
