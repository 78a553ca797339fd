"""The offline model of a graph that needs Python at run time (GE: a dynamic-shape graph, or a
Python op that relies on ``execute``, becomes a task that calls the op's Execute when the model
runs, so the OM "cannot run without the Python environment").

Such a graph is not compiled into kernel tasks here: the OM (format version 2, see
twin/om/FORMAT.md) carries the graph itself as AIR in its GRAPH partition, the header flag
REQUIRES_PYTHON, and a ModelDef with the model's inputs (-1 dims with their ranges) and outputs.
At load, the runtime hands the OM to ``ge._runtime.python_model``, which runs it with the stepped
executor: each new input shape inferred and compiled once, as the online Session does.

Only what names the work is stored: op types, attributes, shapes and edges. No path, no pickled
object, no holder state.
"""

import copy
from typing import List, Mapping, Optional, Sequence, Tuple

from ge.graph import _air
from ge.graph._ir import GraphIR
from twin.om import om

from .custom_optimizer import resolve_custom_node
from .errors import GraphCompileError
from .infer import infer_graph
from .memory_size import tensor_bytes
from .op_catalog import OpCatalog
from .options import CompileTarget
from .placement import custom_nodes, is_dynamic
from .topo import topological_order

DimRange = Tuple[int, int]  # (min, max); max == -1: unbounded
UNBOUNDED = (1, -1)  # a -1 dim given no range accepts any size >= 1
UNKNOWN_RANK = [-2]


def _input_ranges(node_name: str, dims: List[int], given: Optional[Sequence[DimRange]]) -> List[DimRange]:
    if given is not None:
        if len(given) != len(dims):
            raise GraphCompileError(f"graph input {node_name}: {len(given)} dim ranges for shape {dims}")
        return [(d, d) if d >= 0 else (int(lo), int(hi)) for d, (lo, hi) in zip(dims, given)]
    return [(d, d) if d >= 0 else UNBOUNDED for d in dims]


def _probe_shapes(graph: GraphIR, ranges: Mapping[str, Sequence[DimRange]], step: int) -> List[List[int]]:
    """Concrete input shapes inside the ranges: each -1 dim at its smallest size (>= 1), plus
    ``step`` where the range allows it."""
    shapes = []
    for node in graph.input_nodes():
        dims = []
        for dim, (lo, hi) in zip(node.output_descs[0].shape, ranges[node.name]):
            size = max(lo, 1) if dim < 0 else dim
            dims.append(size + step if dim < 0 and (hi == -1 or size + step <= hi) else size)
        shapes.append(dims)
    return shapes


def _inferred_outputs(graph: GraphIR, catalog: OpCatalog, unknown_dims: bool):
    """The graph outputs' descs as inference gives them, or None when an infer function fails."""
    topo = topological_order(graph)
    try:
        infer_graph(graph, topo, catalog, unknown_dims=unknown_dims)
    except Exception:  # an infer function that cannot handle these dims: known per run
        return None
    return [graph.nodes[ep.node].output_descs[ep.index] for ep in graph.outputs]


def _output_descs(graph: GraphIR, catalog: OpCatalog, ranges: Mapping[str, Sequence[DimRange]]):
    """The outputs' descriptions, as GE infers a dynamic graph at compile time: inference over
    the -1 input dims (a dim derived from a -1 is -1). Cross-checked at two concrete input shapes
    inside the ranges: a dim that differs between them is -1 too (an infer function whose result
    varies with a size it does not pass through). Without the -1 inference, the two shapes alone
    decide; None (unknown rank) when neither works — the shapes a run produces come back per run."""
    from .stepped_plan import with_input_shapes  # the stepped executor's way of fixing input shapes

    symbolic = _inferred_outputs(copy.deepcopy(graph), catalog, unknown_dims=True)
    probes = [
        _inferred_outputs(with_input_shapes(graph, _probe_shapes(graph, ranges, step)), catalog, False)
        for step in (0, 1)
    ]
    probes = [p for p in probes if p is not None]
    if symbolic is None and len(probes) < 2:
        return [None] * len(graph.outputs)
    bases = symbolic or probes[0]
    descs = []
    for j, base in enumerate(bases):
        merged = base.copy()
        for probe in probes:
            other = probe[j].shape
            if len(other) != len(merged.shape):
                merged = None
                break
            merged.shape = [a if a == b else -1 for a, b in zip(merged.shape, other)]
        descs.append(merged)
    return descs


def build_python_model(
    graph: GraphIR, target: CompileTarget, catalog: OpCatalog, input_ranges: Mapping[str, Sequence[DimRange]]
) -> Tuple[bytes, "om.ModelDef"]:
    """Checks every op can be run (a registered impl with a launch plan or an execute) and returns
    (OM bytes, ModelDef)."""
    for node in custom_nodes(graph):
        resolve_custom_node(node, catalog)  # raises, naming the node and op, when it cannot run
    unknown = sorted(set(input_ranges) - {n.name for n in graph.input_nodes()})
    if unknown:
        raise GraphCompileError(f"graph {graph.name}: shape ranges given for {unknown}, which are not graph inputs")
    model = om.ModelDef(name=graph.name, soc_version=target.soc_version, npu_arch=target.npu_arch)
    ranges = {}
    for node in graph.input_nodes():
        desc = node.output_descs[0]
        dims = [int(d) for d in desc.shape]
        if any(d < -1 for d in dims):
            raise GraphCompileError(
                f"graph input {node.name}: unknown rank {dims}; give its rank with --input_shape or --input_shape_range"
            )
        tensor = model.inputs.add(
            name=node.name,
            data_type=int(desc.data_type),
            dims=dims,
            format=int(desc.format),
            size=0 if is_dynamic(desc) else tensor_bytes(desc, f"graph input {node.name}"),
        )
        ranges[node.name] = _input_ranges(node.name, dims, input_ranges.get(node.name))
        for lo, hi in ranges[node.name]:
            tensor.dim_ranges.add(min=lo, max=hi)
    for j, (ep, desc) in enumerate(zip(graph.outputs, _output_descs(graph, catalog, ranges))):
        source = desc or graph.nodes[ep.node].output_descs[ep.index]
        dims = [int(d) for d in desc.shape] if desc is not None else UNKNOWN_RANK
        dynamic = desc is None or is_dynamic(desc)
        model.outputs.add(
            name=f"{ep.node}:{ep.index}",
            data_type=int(source.data_type),
            dims=dims,
            format=int(source.format),
            size=0 if dynamic else tensor_bytes(desc, f"graph output {j}"),
        )
    try:
        air = _air.serialize(graph)
        return om.serialize(model, [], b"", graph=air), model
    except ValueError as exc:  # AIR's or the container's own checks
        raise GraphCompileError(f"model {graph.name}: {exc}") from None
