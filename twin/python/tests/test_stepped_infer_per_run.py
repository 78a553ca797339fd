"""Shape inference per run on the stepped executor: graphs with dynamic inputs run infer_meta at
every run (GE's dynamic-shape runtime runs InferShape per run), static graphs once at compile.
A result that changes at a seen input shape gets a plan of its own (a stale cache would run the
old shapes); results against numpy on random data (printed seed)."""

from typing import List

import numpy as np
import pytest

from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session

# What the Tile op's inference reads besides its input: its attribute and, for the stale-cache
# case, an outside value (as an op whose output size depends on data the graph does not show).
EXTRA = {"rows": 1}


@pytest.fixture
def calls():
    from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
    from ge.runtime import StorageShape
    from ge.runtime import Tensor as RtTensor
    from ge.runtime import TensorDesc
    import ctypes

    found = {"infer": [], "compile": [], "execute": []}

    @register_op(op_type="Tile")
    def tile(x: TensorDesc, *, times: int) -> TensorDesc:
        dims = [EXTRA["rows"], x.shape.storage_shape.dims[0] * times]
        found["infer"].append((list(x.shape.storage_shape.dims), times, EXTRA["rows"]))
        print(f"TILE_INFER x={list(x.shape.storage_shape.dims)} times={times} -> {dims}")
        return TensorDesc(dims, x.data_type)

    def host_view(tensor: RtTensor) -> np.ndarray:
        count = tensor.shape_size
        return np.ctypeslib.as_array((ctypes.c_float * count).from_address(tensor.addr)).reshape(
            tensor.storage_shape.dims)

    @register_op_impl(op_type="Tile")
    class Tile:
        def compile(self, x: RtTensor, y: RtTensor, *, times: int) -> None:
            found["compile"].append((list(x.storage_shape.dims), list(y.storage_shape.dims)))

        @register_kernel(backend=OpBackend.HOST)
        def execute(self, x: RtTensor, *, times: int) -> None:
            ctx = get_execute_ctx()
            rows = EXTRA["rows"]
            dims = [rows, x.storage_shape.dims[0] * times]
            y = ctx.malloc_output_tensor(0, StorageShape(dims, dims), x.format, x.data_type)
            host_view(y)[...] = np.tile(host_view(x), (rows, times))
            found["execute"].append(dims)

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"})
    yield found
    GeApi.ge_finalize()


def _tile_graph(dims: List[int], times: List[int]):
    builder = GraphBuilder("tiles")
    x = builder.create_input(0, shape=dims)
    outputs = [builder._add_op_node("Tile", inputs=[("x", "required", x)], attrs=[("times", t)],
                                    outputs=[("y", "required", 1)])[0][0] for t in times]
    return builder.build_and_reset(outputs)


def _run(session, graph_id, x):
    tensor = Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, list(x.shape))
    return [np.asarray(t.data, dtype=np.float32).reshape(list(t.get_shape()))
            for t in session.run_graph(graph_id, [tensor])]


def _expected(x, times):
    return [np.tile(x, (EXTRA["rows"], t)) for t in times]


def test_dynamic_graph_infers_every_run_static_graph_once(calls, rng, capfd):
    times = [2, 3]  # two nodes of one op type: each node's own attribute decides its shape
    sizes = [int(s) for s in rng.integers(1, 300, size=2)]
    session = Session()
    session.add_graph(0, _tile_graph([-1], times))
    runs = sizes + sizes[::-1] + sizes
    for n in runs:
        x = rng.standard_normal(n).astype(np.float32)
        for got, want in zip(_run(session, 0, x), _expected(x, times)):
            np.testing.assert_array_equal(got, want)
    # one inference per node per run, each with its own attribute; compile once per new shape
    assert calls["infer"] == [([n], t, 1) for n in runs for t in times]
    assert calls["compile"] == [([n], [1, n * t]) for n in dict.fromkeys(sizes) for t in times]
    assert session._graphs[0].model.compiled_signatures == len(set(sizes))
    assert capfd.readouterr().out.count("TILE_INFER") == len(runs) * len(times)

    calls["infer"].clear()
    n = sizes[0]
    session.add_graph(1, _tile_graph([n], [4]))
    for _ in range(3):
        x = rng.standard_normal(n).astype(np.float32)
        (got,) = _run(session, 1, x)
        np.testing.assert_array_equal(got, np.tile(x, (1, 4)))
    assert calls["infer"] == [([n], 4, 1)]  # static: inferred once, when the graph was compiled


def test_inference_that_changes_at_a_seen_shape_is_not_served_from_a_stale_plan(calls, rng):
    n = int(rng.integers(1, 300))
    session = Session()
    session.add_graph(0, _tile_graph([-1], [3]))
    for rows in (1, 3, 1, 2):
        EXTRA["rows"] = rows
        x = rng.standard_normal(n).astype(np.float32)
        (got,) = _run(session, 0, x)
        assert got.shape == (rows, 3 * n)  # the shape this run's inference gives, not the first one's
        np.testing.assert_array_equal(got, np.tile(x, (rows, 3)))
    EXTRA["rows"] = 1
    assert calls["execute"] == [[r, 3 * n] for r in (1, 3, 1, 2)]
    assert calls["compile"] == [([n], [r, 3 * n]) for r in (1, 3, 2)]  # a result seen before: its plan
    assert session._graphs[0].model.compiled_signatures == 3
