"""ge._compiler.topo: the round order (a node runs one round after its latest input; creation
order within a round), cycles, and linear time on long chains."""

import random
import time

import pytest

from ge._compiler.errors import GraphCompileError
from ge._compiler.topo import topological_order
from ge.graph._ir import Endpoint, GraphIR, Node


def _graph(edges, count):
    graph = GraphIR(name="g")
    for i in range(count):
        graph.nodes[f"n{i}"] = Node(name=f"n{i}", type="T")
    for src, dst in edges:
        graph.nodes[f"n{dst}"].inputs.append(Endpoint(node=f"n{src}", index=0))
    return graph


def _reference(graph):
    """The original quadratic rounds, as the specification."""
    preds = {n: {e.node for e in graph.nodes[n].inputs if e} | set(graph.nodes[n].control_inputs) for n in graph.nodes}
    order, done, pending = [], set(), list(graph.nodes)
    while pending:
        ready = [n for n in pending if preds[n] <= done]
        assert ready
        order += ready
        done |= set(ready)
        pending = [n for n in pending if n not in done]
    return order


def test_matches_the_round_order_on_random_dags():
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    rng = random.Random(seed)
    for _ in range(200):
        count = rng.randrange(1, 40)
        edges = [(a, b) for b in range(count) for a in range(b) if rng.random() < 0.15]
        # Creation order need not be topological: shuffle the node names' creation order.
        perm = list(range(count))
        rng.shuffle(perm)
        graph = _graph([(perm[a], perm[b]) for a, b in edges], count)
        if rng.random() < 0.3 and count > 1:
            graph.nodes[f"n{perm[count - 1]}"].control_inputs.append(f"n{perm[0]}")
        assert [n.name for n in topological_order(graph)] == _reference(graph)


def test_cycle_is_reported():
    graph = _graph([(0, 1), (1, 2), (2, 1)], 4)
    with pytest.raises(GraphCompileError, match="has a cycle through nodes n1, n2"):
        topological_order(graph)


def test_long_chain_is_linear():
    count = 100_000
    graph = _graph([(i, i + 1) for i in range(count - 1)], count)
    start = time.perf_counter()
    order = topological_order(graph)
    print(f"100,000-node chain: {time.perf_counter() - start:.3f} s")
    assert [n.name for n in order] == [f"n{i}" for i in range(count)]
