"""Execution order of graph nodes (data and control edges)."""

from typing import Dict, List

from ge.graph._ir import GraphIR, Node

from .errors import GraphCompileError


def topological_order(graph: GraphIR) -> List[Node]:
    """Kahn's algorithm; ties keep node creation order so builds are deterministic."""
    preds: Dict[str, set] = {name: set() for name in graph.nodes}
    for node in graph.nodes.values():
        for src in node.inputs:
            if src is not None:
                preds[node.name].add(src.node)
        preds[node.name].update(node.control_inputs)
    order: List[Node] = []
    done: set = set()
    pending = list(graph.nodes)
    while pending:
        ready = [name for name in pending if preds[name] <= done]
        if not ready:
            raise GraphCompileError(f"graph {graph.name} has a cycle through nodes {', '.join(pending[:5])}")
        for name in ready:
            order.append(graph.nodes[name])
            done.add(name)
        pending = [name for name in pending if name not in done]
    return order
