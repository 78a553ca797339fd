"""The graph compiler shared by ``ge.session.Session`` (online) and ``atc`` (offline).

    compile_graph(graph_ir, options, mode="online") -> CompiledModel(om=<bytes>, description=...)

Pipeline (CANN's order): load OPP protos and Python plugins from ASCEND_CUSTOM_OPP_PATH ->
topological order -> shape/dtype inference -> custom-op optimizer (``compile`` per custom node,
inside its compile context, platform info of ``ge.socVersion``) -> memory planning ->
``declare_launch_args`` per node with logical addresses, launches validated -> OM (twin/om).
Every failure raises GraphCompileError with one line naming node, op and cause.

A graph that needs Python at run time (an ``execute`` op, or an input left dynamic) cannot be one
static OM: online the Session runs it with the stepped executor (NotStaticModelError tells it
so); offline it becomes an OM that runs through Python (python_model.py, OM format version 2).
"""

import copy
from typing import Mapping, Optional, Sequence, Tuple

from ge.graph._ir import DATA_NODE_TYPES, GraphIR

from .constants import CONST_NODE_TYPES
from .custom_optimizer import reset_holders, resolve_custom_node, run_compile, run_declare
from .description import ModelDescription, TensorSpec, describe
from .emit import build_model_def, serialize
from .errors import GraphCompileError, ModelRunError, NotStaticModelError
from .infer import infer_graph
from .memory import add_workspaces, plan_memory
from .op_catalog import OpCatalog
from .options import DEFAULT_SOC_VERSION, OPTION_COMPILE_MODE, OPTION_SOC_VERSION, compile_options, resolve_target
from .placement import stepped_reason
from .python_model import build_python_model
from .topo import topological_order

__all__ = [
    "compile_graph",
    "CompiledModel",
    "ModelDescription",
    "TensorSpec",
    "GraphCompileError",
    "NotStaticModelError",
    "ModelRunError",
    "reset_holders",
    "OPTION_SOC_VERSION",
    "OPTION_COMPILE_MODE",
    "DEFAULT_SOC_VERSION",
]


class CompiledModel:
    def __init__(self, om: bytes, description: ModelDescription) -> None:
        self.om = om
        self.description = description


def compile_graph(
    graph_ir: GraphIR,
    options: Optional[Mapping[str, str]] = None,
    mode: str = "online",
    input_ranges: Optional[Mapping[str, Sequence[Tuple[int, int]]]] = None,
) -> CompiledModel:
    """Compile a graph into OM bytes. ``graph_ir`` is not modified. ``input_ranges`` ({graph input
    name: [(min, max) per dim]}, max -1 unbounded) bound the -1 dims of an offline model."""
    if not isinstance(graph_ir, GraphIR):
        raise TypeError(f"compile_graph expects a ge.graph GraphIR, got {type(graph_ir).__name__}")
    options = compile_options(options or {}, mode)
    target = resolve_target(options)
    graph = copy.deepcopy(graph_ir)
    try:
        graph.validate()
    except ValueError as exc:
        raise GraphCompileError(f"graph {graph.name}: {exc}") from None
    catalog = OpCatalog()
    reason = stepped_reason(graph, catalog.impl)
    if reason is not None and mode == "offline":  # GE: a model that needs the Python environment to run
        payload, model = build_python_model(graph, target, catalog, input_ranges or {})
        return CompiledModel(payload, describe(model, []))
    if reason is not None:
        raise NotStaticModelError(
            f"graph {graph.name}: {reason}; it cannot be one static model (Session runs it with the stepped executor)"
        )
    order = topological_order(graph)
    infer_graph(graph, order, catalog)
    customs = [
        resolve_custom_node(node, catalog)
        for node in order
        if node.type not in DATA_NODE_TYPES and node.type not in CONST_NODE_TYPES
    ]
    for custom in customs:
        run_compile(custom, options, target)
    memory = plan_memory(graph, order)
    launches = []
    for custom in customs:
        plan = run_declare(custom, memory)
        add_workspaces(memory, sum(plan.workspace_sizes))
        launches.append((custom, plan))
    model, binaries = build_model_def(graph.name, target, memory, launches)
    return CompiledModel(serialize(model, binaries, memory.constants), describe(model, [c.node.name for c in customs]))
