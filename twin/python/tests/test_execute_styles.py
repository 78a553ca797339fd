"""Both execute styles of CANN's Python custom ops, on a REG_OP prototype without shape
inference whose node carries ``_out_shape_locked`` (as hicann/ge's args_refresh_add_custom
Python sample builds it), run through Session.run_graph on the twin runtime:

- schema-bound ``execute(self, x1, x2)`` with no return annotation (CANN checks none on execute);
- the earlier API: ``class X(EagerExecuteOp)`` with ``execute(self, ctx)`` and
  ``ctx.get_input_tensor(i)``.

PythonCompilableAddCustom (twin/es/tests/es_test_ops.h: x1, x2 -> output0) has no IMPL_OP
InferShape, so GE infers nothing for it: the output desc is the one the graph sets.
"""

import os
import platform
import shutil

import numpy as np
import pytest

import acl
from ge.custom_op import EagerExecuteOp, get_execute_ctx, register_op_impl
from ge.error import GeError
from ge.es.graph_builder import GraphBuilder, attr_scope
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session

OP = "PythonCompilableAddCustom"
D2H, H2D = 2, 1


@pytest.fixture
def opp_root(tmp_path, monkeypatch):
    """An OPP root holding the test proto library where GE looks for it."""
    lib_dir = tmp_path / "opp" / "op_graph" / "lib" / "linux" / platform.machine()
    lib_dir.mkdir(parents=True)
    shutil.copy(os.environ["ES_TEST_OPS_LIB"], lib_dir / "libes_test_ops.so")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(tmp_path / "opp"))
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"})
    yield tmp_path / "opp"
    GeApi.ge_finalize()


def _device_array(tensor, stream) -> np.ndarray:
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    out = np.empty(tensor.storage_shape.dims, dtype=np.float32)
    assert acl.rt.memcpy(out.ctypes.data, out.nbytes, tensor.addr, out.nbytes, D2H) == 0
    return out


def _write_sum(ctx, x1, x2, calls, style):
    stream = ctx.get_stream()
    total = (_device_array(x1, stream) + _device_array(x2, stream)).astype(np.float32)
    z = ctx.malloc_output_tensor(0, x1.shape, x1.format, x1.data_type)
    assert acl.rt.memcpy(z.addr, total.nbytes, total.ctypes.data, total.nbytes, H2D) == 0
    calls.append(style)


def _register_schema_bound(calls, op_type=OP):
    @register_op_impl(op_type=op_type)
    class SchemaBound:
        def execute(self, x1, x2):  # no "-> None": CANN accepts that for execute
            _write_sum(get_execute_ctx(), x1, x2, calls, "schema")


def _register_legacy(calls, op_type=OP):
    @register_op_impl(op_type=op_type)
    class Legacy(EagerExecuteOp):
        def execute(self, ctx):
            _write_sum(ctx, ctx.get_input_tensor(0), ctx.get_input_tensor(1), calls, "legacy")


def _graph(dims, locked=True, op_type=OP):
    builder = GraphBuilder("locked_add")
    x1 = builder.create_input(0, name="data_x", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=dims)
    x2 = builder.create_input(1, name="data_y", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=dims)

    def node():
        return builder._add_op_node(
            op_type,
            inputs=[("x1", "required", x1), ("x2", "required", x2)],
            attrs=[],
            outputs=[("output0", "required", 1)],
        )[0][0]

    if locked:
        with attr_scope({"_out_shape_locked": True}):
            z = node()
    else:
        z = node()
    z.set_shape(list(dims)).set_format(Format.FORMAT_ND).set_data_type(DataType.DT_FLOAT)
    builder.set_graph_output(z, 0)
    return builder.build_and_reset()


def _tensor(array):
    return Tensor(array.ravel().tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, list(array.shape))


def _run(dims, sizes, rng, op_type=OP):
    session = Session({"ge.exec.deviceId": "0"})
    session.add_graph(0, _graph(dims, op_type=op_type))
    for n in sizes:
        x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        (out,) = session.run_graph(0, [_tensor(x), _tensor(y)])
        assert list(out.shape) == [n] and out.data_type == DataType.DT_FLOAT
        np.testing.assert_allclose(np.asarray(out.data, dtype=np.float32), x + y, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("register", [_register_schema_bound, _register_legacy], ids=["schema", "legacy"])
def test_locked_static_graph_runs_either_style(opp_root, rng, register):
    calls = []
    register(calls)
    n = int(rng.integers(1, 2048))
    _run([n], [n, n], rng)
    assert calls == [calls[0]] * 2 and calls[0] in ("schema", "legacy")


@pytest.mark.parametrize("register", [_register_schema_bound, _register_legacy], ids=["schema", "legacy"])
def test_locked_dynamic_graph_as_the_sample_builds_it(opp_root, rng, register):
    """Inputs and the locked output are [-1]: the execute op's malloc_output_tensor gives the shape."""
    calls = []
    register(calls)
    sizes = [int(v) for v in rng.integers(1, 4096, size=3)]
    _run([-1], sizes, rng)
    assert len(calls) == 3


def test_without_the_lock_a_custom_op_keeps_the_graphs_descs(opp_root, rng):
    """GE's InferCustomOpShape: a custom op with no infer function keeps the output desc the
    graph sets (the twin cannot tell an unset desc from a scalar one: it keeps either)."""
    calls = []
    _register_schema_bound(calls)
    n = int(rng.integers(1, 512))
    session = Session({"ge.exec.deviceId": "0"})
    session.add_graph(0, _graph([n], locked=False))
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    (out,) = session.run_graph(0, [_tensor(x), _tensor(y)])
    np.testing.assert_allclose(np.asarray(out.data, dtype=np.float32), x + y, rtol=1e-6, atol=1e-6)
    assert calls == ["schema"]


# a type no prototype library of this process registers (REG_OP registrations outlive a test)
UNREGISTERED = "AddPythonCustomOp"


@pytest.fixture
def runtime_only():
    """GE up, with no OPP root: the op's prototype library is not loaded (the earlier sample)."""
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"})
    yield
    GeApi.ge_finalize()


def test_legacy_execute_runs_without_a_loaded_prototype(runtime_only, rng):
    """The earlier args_refresh_add_custom sample puts only its Python plugin directory on
    ASCEND_CUSTOM_OPP_PATH: the node's own IR (from the ES wrapper) describes it, GE skips its
    inference, and the legacy execute(self, ctx) reads everything from ctx."""
    calls = []
    _register_legacy(calls, UNREGISTERED)
    _run([-1], [int(v) for v in rng.integers(1, 2048, size=2)], rng, UNREGISTERED)
    assert calls == ["legacy", "legacy"]


def test_schema_bound_execute_needs_the_prototype(runtime_only):
    """It binds its parameters to the registered IR (CANN: canonical IR not found for
    schema-bound execute), so without a prototype the node is refused naming what is missing."""
    _register_schema_bound([], UNREGISTERED)
    session = Session({"ge.exec.deviceId": "0"})
    session.add_graph(0, _graph([8], op_type=UNREGISTERED))
    with pytest.raises(
        GeError,
        match=rf"op type {UNREGISTERED} is not registered \(no REG_OP proto in "
        r"ASCEND_CUSTOM_OPP_PATH and no Python register_op\)",
    ):
        session.run_graph(0, [_tensor(np.ones(8, np.float32))] * 2)


def test_a_legacy_class_without_execute_is_refused():
    with pytest.raises(TypeError, match="concrete class"):

        @register_op_impl(op_type=OP)
        class NoExecute(EagerExecuteOp):
            pass


def test_import_of_both_base_classes():
    from ge.custom_op import BaseCustomOp
    from ge.custom_op import EagerExecuteOp as Eager

    assert issubclass(Eager, BaseCustomOp)


def test_a_locked_unknown_output_read_by_another_node_is_refused(opp_root):
    """Its shape exists only once execute ran, too late for the node reading it: one error
    naming the locked node, its output and the reader."""
    _register_schema_bound([])
    builder = GraphBuilder("chained")
    x1 = builder.create_input(0, shape=[-1])
    x2 = builder.create_input(1, shape=[-1])

    def add(a, b):
        return builder._add_op_node(
            OP, inputs=[("x1", "required", a), ("x2", "required", b)], attrs=[], outputs=[("output0", "required", 1)]
        )[0][0]

    with attr_scope({"_out_shape_locked": True}):
        first = add(x1, x2)
        second = add(first, x2)
    for holder in (first, second):
        holder.set_shape([-1]).set_data_type(DataType.DT_FLOAT)
    session = Session({"ge.exec.deviceId": "0"})
    session.add_graph(0, builder.build_and_reset([second]))
    with pytest.raises(
        GeError,
        match=rf"node {first.name} \(op {OP}\): output output0 has unknown dims \[-1\] that no "
        rf"shape inference resolves .*, and node {second.name} reads it",
    ):
        session.run_graph(0, [_tensor(np.ones(8, np.float32))] * 2)


@pytest.mark.parametrize("n", [1000, 70000], ids=["small", "large"])  # 70000 floats: above the 64 KiB zero-copy size
def test_an_op_writing_its_input_leaves_the_callers_tensor(opp_root, rng, n):
    """An op that stores into its input's device memory (here: zeroes x1 after reading it) changes
    the graph's device copy only: the caller's Tensor and the array it was made from are as they
    were, run after run, as on an NPU (inputs are copied to device memory)."""
    calls = []

    @register_op_impl(op_type=OP)
    class ClobbersItsInput:
        def execute(self, x1, x2):
            ctx = get_execute_ctx()
            _write_sum(ctx, x1, x2, calls, "clobber")
            assert acl.rt.memset(x1.addr, 4 * n, 0, 4 * n) == 0, acl.get_recent_err_msg()

    session = Session({"ge.exec.deviceId": "0"})
    session.add_graph(0, _graph([n]))
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    x_before = x.copy()
    tx, ty = _tensor(x), _tensor(y)
    for _ in range(2):
        (out,) = session.run_graph(0, [tx, ty])
        np.testing.assert_allclose(np.asarray(out.data, dtype=np.float32), x_before + y, rtol=1e-6, atol=1e-6)
        np.testing.assert_array_equal(np.asarray(tx.data, dtype=np.float32), x_before)
        np.testing.assert_array_equal(x, x_before)
    assert calls == ["clobber", "clobber"]
