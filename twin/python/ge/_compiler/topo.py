"""Execution order of graph nodes (data and control edges)."""

from collections import deque
from typing import Dict, List

from ge.graph._ir import GraphIR, Node

from .errors import GraphCompileError


def topological_order(graph: GraphIR) -> List[Node]:
    """Kahn's algorithm in rounds: a node runs in round 1 + the latest round of its inputs, and
    within a round in creation order, so builds are deterministic. Linear in nodes + edges (plus a
    sort): a long chain costs no more per node than a wide graph."""
    index = {name: i for i, name in enumerate(graph.nodes)}
    preds: Dict[str, set] = {name: set() for name in graph.nodes}
    for node in graph.nodes.values():
        for src in node.inputs:
            if src is not None:
                preds[node.name].add(src.node)
        preds[node.name].update(node.control_inputs)
    succs: Dict[str, List[str]] = {name: [] for name in graph.nodes}
    waiting: Dict[str, int] = {}
    for name, sources in preds.items():
        known = [src for src in sources if src in succs]
        if len(known) != len(sources):  # an edge from a node that is not in the graph: never ready
            waiting[name] = len(sources) + 1
        else:
            waiting[name] = len(sources)
        for src in known:
            succs[src].append(name)
    round_of: Dict[str, int] = {}
    ready = deque(name for name in graph.nodes if waiting[name] == 0)
    for name in ready:
        round_of[name] = 1
    while ready:
        name = ready.popleft()
        for succ in succs[name]:
            round_of[succ] = max(round_of.get(succ, 0), round_of[name] + 1)
            waiting[succ] -= 1
            if waiting[succ] == 0:
                ready.append(succ)
    if len(round_of) != len(graph.nodes) or any(waiting[name] for name in round_of):
        pending = [name for name in graph.nodes if waiting[name] != 0]
        raise GraphCompileError(f"graph {graph.name} has a cycle through nodes {', '.join(pending[:5])}")
    ordered = sorted(graph.nodes, key=lambda name: (round_of[name], index[name]))
    return [graph.nodes[name] for name in ordered]
