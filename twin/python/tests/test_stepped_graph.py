"""Graphs the Session runs step by step: kernel nodes in segment OMs, Python execute on the
device stream and on the host (register_kernel), copies between them, dynamic input shapes
compiled once per new shape. Results against numpy on random data (printed seed)."""

import numpy as np
import pytest
from stepped_ops import register_all

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


@pytest.fixture
def calls():
    found = {}
    register_all(found)
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"})
    yield found
    GeApi.ge_finalize()


def _node(builder, op_type, inputs, attrs=(), outputs=(("y", "required", 1),)):
    return builder._add_op_node(op_type, inputs=inputs, attrs=attrs, outputs=outputs)[0][0]


def _graph(dims, with_bias=True, only_e=False):
    """a = x + y (kernel); b = 0.5 * a [+ x] (device execute); c = b + x + a (host execute);
    d = c + y (kernel); e = d (execute, output refs input). Outputs: e, b, a (or e alone)."""
    builder = GraphBuilder("stepped")
    x = builder.create_input(0, shape=dims)
    y = builder.create_input(1, shape=dims)
    a = _node(builder, "KAdd", [("x1", "required", x), ("x2", "required", y)])
    b = _node(
        builder, "EAxpy", [("x", "required", a), ("bias", "optional", x if with_bias else None)], attrs=[("alpha", 0.5)]
    )
    c = _node(builder, "HSum", [("xs", "dynamic", [b, x, a])])
    d = _node(builder, "KAdd", [("x1", "required", c), ("x2", "required", y)])
    e = _node(builder, "ERef", [("x", "required", d)])
    return builder.build_and_reset([e] if only_e else [e, b, a])


def _tensor(array):
    return Tensor(array.ravel().tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, list(array.shape))


def _expected(x, y, with_bias=True):
    a = x + y
    b = 0.5 * a + (x if with_bias else 0)
    c = b + x + a
    return [c + y, b, a]


def _check(session, graph_id, x, y, with_bias=True):
    outputs = session.run_graph(graph_id, [_tensor(x), _tensor(y)])
    for got, want in zip(outputs, _expected(x, y, with_bias)):
        np.testing.assert_allclose(
            np.asarray(got.data, dtype=np.float32).reshape(want.shape), want, rtol=1e-6, atol=1e-6
        )


def test_static_graph_mixes_kernels_device_and_host_execute(calls, rng):
    n = int(rng.integers(1, 5000))
    session = Session()
    session.add_graph(0, _graph([n]))
    session.add_graph(1, _graph([n], with_bias=False))
    for _ in range(2):
        x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
        _check(session, 0, x, y)
        _check(session, 1, x, y, with_bias=False)
    assert calls["KAdd.compile"] == [(n,)] * 4  # two kernel nodes per graph, compiled once each
    assert calls["EAxpy.compile"] == [(n,)] * 2
    assert calls["EAxpy.execute"] == [True, False] * 2  # execute at every run, optional input seen
    assert calls["HSum.execute"] == [3] * 4
    # device tensors between steps share one region by lifetime: with e the only output, a (read
    # by EAxpy and copied to the host) and c (copied back for the second KAdd) take turns; d lives
    # to the end (ERef's output is d itself). Host: the copies of b, x and a are read at once.
    session.add_graph(2, _graph([n], only_e=True))
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    (e,) = session.run_graph(2, [_tensor(x), _tensor(y)])
    np.testing.assert_allclose(np.asarray(e.data, dtype=np.float32), _expected(x, y)[0], rtol=1e-6, atol=1e-6)
    aligned = (4 * n + 511) // 512 * 512
    (loaded,) = session._graphs[2].model._plans.values()
    assert loaded.region_sizes == {"device": 2 * aligned, "host": 3 * aligned}
    (loaded,) = session._graphs[0].model._plans.values()  # a is an output too: it keeps its place
    assert loaded.region_sizes == {"device": 3 * aligned, "host": 3 * aligned}


def test_dynamic_shapes_compile_each_new_shape_once(calls, rng):
    session = Session()
    session.add_graph(0, _graph([-1, 3]))
    sizes = [int(s) for s in rng.integers(1, 700, size=3)]
    for n in sizes + sizes[::-1]:
        x, y = (rng.standard_normal((n, 3)).astype(np.float32) for _ in range(2))
        _check(session, 0, x, y)
    distinct = list(dict.fromkeys(sizes))
    assert calls["EAxpy.compile"] == [(n, 3) for n in distinct]  # per new shape, never again
    assert len(calls["EAxpy.execute"]) == 2 * len(sizes)


def test_input_outside_the_declared_shape_is_refused(calls, rng):
    session = Session()
    session.add_graph(0, _graph([-1, 3]))
    x = rng.standard_normal((4, 2)).astype(np.float32)
    with pytest.raises(GeError, match=r"input 0 has shape \[4, 2\], the graph input accepts \[-1, 3\]"):
        session.run_graph(0, [_tensor(x), _tensor(x)])


def test_execute_that_forgets_its_output_names_the_node(calls, rng):
    from ge.custom_op import register_op, register_op_impl
    from ge.runtime import Tensor as RtTensor
    from ge.runtime import TensorDesc

    @register_op(op_type="Lazy")
    def lazy(x: TensorDesc) -> TensorDesc:
        return x

    @register_op_impl(op_type="Lazy")
    class Lazy:
        def execute(self, x: RtTensor) -> None:
            pass

    builder = GraphBuilder("lazy")
    x = builder.create_input(0, shape=[4])
    session = Session()
    session.add_graph(0, builder.build_and_reset([_node(builder, "Lazy", [("x", "required", x)])]))
    with pytest.raises(GeError, match="node Lazy.* \\(op Lazy\\): execute did not produce output y "):
        session.run_graph(0, [_tensor(np.ones(4, np.float32))])


def _multi_graph(n):
    """Two Multi nodes (optional input absent, then present), every attr type, a dynamic output,
    branches joined by kernel adds; saved to AIR and loaded back before it runs."""
    from stepped_ops import MULTI_ATTRS, MULTI_TENSOR

    from ge.graph._ir import AttrValue, TensorDescIR, TensorValue
    from ge.graph.types import AttrValueType

    tensor = TensorValue(TensorDescIR(DataType.DT_FLOAT, Format.FORMAT_ND, [3]), MULTI_TENSOR.tobytes())
    values = {**MULTI_ATTRS, "t": AttrValue(AttrValueType.VT_TENSOR, tensor)}
    ir_order = ["i", "f", "b", "s", "dt", "t", "li", "lf", "lb", "ls", "ldt", "lli"]
    attrs = [(name, values[name]) for name in ir_order]
    builder = GraphBuilder("multi")
    x = builder.create_input(0, shape=[n])
    outputs = [("y0", "required", 1), ("y1", "dynamic", 2)]

    def multi(opt):
        y0, y1 = builder._add_op_node(
            "Multi", inputs=[("x", "required", x), ("opt", "optional", opt)], attrs=attrs, outputs=outputs
        )
        return y0[0], y1

    p0, (p1a, p1b) = multi(None)
    q0, (q1a, q1b) = multi(p0)
    left = _node(builder, "KAdd", [("x1", "required", p1a), ("x2", "required", q0)])
    right = _node(builder, "KAdd", [("x1", "required", q1b), ("x2", "required", p1b)])
    return builder.build_and_reset([left, right, q1a])


def test_every_attr_type_multiple_outputs_branches_optional_and_air(calls, rng, tmp_path):
    from stepped_ops import MULTI_TENSOR, register_multi

    from ge.graph import Graph

    register_multi(calls)
    n = int(rng.integers(1, 3000))
    path = str(tmp_path / "multi.air")
    _multi_graph(n).save_to_air(path)
    graph = Graph("loaded")
    graph.load_from_air(path)
    session = Session()
    session.add_graph(0, graph)
    x = rng.standard_normal(n).astype(np.float32)
    left, right, q1a = (np.asarray(t.data, dtype=np.float32) for t in session.run_graph(0, [_tensor(x)]))
    p0 = 0.25 * x + 3
    q0 = 0.25 * x + 3 + p0
    s = float(MULTI_TENSOR.sum())
    np.testing.assert_allclose(left, (x + 4) + q0, rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(right, x * s + x * s, rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(q1a, x + 4, rtol=1e-6, atol=1e-6)
    assert calls["Multi.execute"] == [False, True]


def test_run_graph_with_stream_async(calls, rng):
    import acl

    stream, ret = acl.rt.create_stream()
    assert ret == 0
    session = Session()
    n = int(rng.integers(1, 3000))
    session.add_graph(0, _graph([n]))
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    outputs = session.run_graph_with_stream_async(0, stream, [_tensor(x), _tensor(y)])
    assert acl.rt.synchronize_stream(stream) == 0
    for got, want in zip(outputs, _expected(x, y)):
        np.testing.assert_allclose(np.asarray(got.data, dtype=np.float32), want, rtol=1e-6, atol=1e-6)
    # a kernel-only static graph is one OM (not stepped): it waits for the stream, then runs
    builder = GraphBuilder("one_om")
    i0, i1 = builder.create_input(0, shape=[n]), builder.create_input(1, shape=[n])
    session.add_graph(
        1, builder.build_and_reset([_node(builder, "KAdd", [("x1", "required", i0), ("x2", "required", i1)])])
    )
    (z,) = session.run_graph_with_stream_async(1, stream, [_tensor(x), _tensor(y)])
    assert not hasattr(session._graphs[1].model, "run_on_stream")
    np.testing.assert_allclose(np.asarray(z.data, dtype=np.float32), x + y, rtol=1e-6, atol=1e-6)
    with pytest.raises(TypeError, match="^stream must be an integer$"):
        session.run_graph_with_stream_async(0, "s", [_tensor(x), _tensor(y)])
    with pytest.raises(
        GeError,
        match=r"^RunGraphWithStreamAsync failed; graph_id=9, stream=0x[0-9a-f]+; "
        "graph id not found$",
    ):
        session.run_graph_with_stream_async(9, stream, [])
    assert acl.rt.destroy_stream(stream) == 0


def test_constants_reach_kernels_and_execute_and_unused_nodes_are_pruned(calls, rng):
    n = int(rng.integers(1, 3000))
    c = rng.standard_normal(n).astype(np.float32)
    builder = GraphBuilder("consts")
    x = builder.create_input(0, shape=[n])
    k = builder.create_const_float(c.tolist(), shape=[n])
    a = _node(builder, "KAdd", [("x1", "required", x), ("x2", "required", k)])
    b = _node(builder, "EAxpy", [("x", "required", k), ("bias", "optional", None)], attrs=[("alpha", 2.0)])
    _node(builder, "KAdd", [("x1", "required", b), ("x2", "required", b)])  # read by nothing
    session = Session()
    session.add_graph(0, builder.build_and_reset([a, b]))
    x_value = rng.standard_normal(n).astype(np.float32)
    got_a, got_b = (np.asarray(t.data, dtype=np.float32) for t in session.run_graph(0, [_tensor(x_value)]))
    np.testing.assert_allclose(got_a, x_value + c, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(got_b, 2 * c, rtol=1e-6, atol=1e-6)
    assert calls["KAdd.compile"] == [(n,)]  # the unused KAdd is not compiled


def _one_node_graph(op_type):
    builder = GraphBuilder(op_type.lower())
    x = builder.create_input(0, shape=[-1])
    return builder.build_and_reset([_node(builder, op_type, [("x", "required", x)])])


def test_execute_errors_name_node_cause_and_place(calls, rng):
    from ge.custom_op import get_execute_ctx, register_op, register_op_impl
    from ge.runtime import Tensor as RtTensor
    from ge.runtime import TensorDesc

    @register_op(op_type="Boom")
    def boom(x: TensorDesc) -> TensorDesc:
        return x

    @register_op(op_type="Wide")
    def wide(x: TensorDesc) -> TensorDesc:
        return x

    @register_op_impl(op_type="Boom")
    class Boom:
        def execute(self, x: RtTensor) -> None:
            raise ValueError("the kernel refused this input")

    @register_op_impl(op_type="Wide")
    class Wide:
        def execute(self, x: RtTensor) -> None:
            from ge.runtime import StorageShape

            n = x.storage_shape.dims[0]
            get_execute_ctx().malloc_output_tensor(0, StorageShape([n + 1], [n + 1]), x.format, x.data_type)

    session = Session()
    session.add_graph(0, _one_node_graph("Boom"))
    session.add_graph(1, _one_node_graph("Wide"))
    x = _tensor(rng.standard_normal(5).astype(np.float32))
    with pytest.raises(
        GeError,
        match=r"node Boom_0 \(op Boom\): execute failed: ValueError: the kernel refused "
        r"this input \(at test_stepped_graph.py:\d+ in execute\)",
    ):
        session.run_graph(0, [x])
    with pytest.raises(
        GeError,
        match=r"node Wide_0 \(op Wide\): execute produced output y as DT_FLOAT \[6\], "
        r"shape inference says DT_FLOAT \[5\]",
    ):
        session.run_graph(1, [x])


def test_a_shape_that_does_not_compile_names_the_shapes_and_others_still_run(calls, rng):
    from ge.custom_op import get_execute_ctx, register_op, register_op_impl
    from ge.runtime import Tensor as RtTensor
    from ge.runtime import TensorDesc

    @register_op(op_type="Even")
    def even(x: TensorDesc) -> TensorDesc:
        if x.shape.storage_shape.dims[0] % 2:
            raise ValueError("Even needs an even length")
        return x

    @register_op_impl(op_type="Even")
    class Even:
        def execute(self, x: RtTensor) -> None:
            get_execute_ctx().make_output_ref_input(0, 0)

    session = Session()
    session.add_graph(0, _one_node_graph("Even"))
    with pytest.raises(
        GeError,
        match=r"at input shapes \[\[5\]\]: node Even_0 \(op Even\): shape inference "
        r"failed: ValueError: Even needs an even length",
    ):
        session.run_graph(0, [_tensor(np.ones(5, np.float32))])
    x = rng.standard_normal(6).astype(np.float32)
    (y,) = session.run_graph(0, [_tensor(x)])
    np.testing.assert_array_equal(np.asarray(y.data, dtype=np.float32), x)
