"""Shape inference per run on the stepped executor: graphs with dynamic inputs run infer_meta at
every run (GE's dynamic-shape runtime runs InferShape per run), static graphs once at compile.
A result that changes at a seen input shape gets a plan of its own (a stale cache would run the
old shapes); results against numpy on random data (printed seed)."""

from typing import List

import numpy as np
import pytest
from stepped_ops import TILE_EXTRA as EXTRA
from stepped_ops import register_tile

from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


@pytest.fixture
def calls():
    found = register_tile()
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"})
    yield found
    GeApi.ge_finalize()
    EXTRA["rows"] = 1


def _tile_graph(dims: List[int], times: List[int]):
    builder = GraphBuilder("tiles")
    x = builder.create_input(0, shape=dims)
    outputs = [
        builder._add_op_node(
            "Tile", inputs=[("x", "required", x)], attrs=[("times", t)], outputs=[("y", "required", 1)]
        )[0][0]
        for t in times
    ]
    return builder.build_and_reset(outputs)


def _run(session, graph_id, x):
    tensor = Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, list(x.shape))
    return [
        np.asarray(t.data, dtype=np.float32).reshape(list(t.get_shape())) for t in session.run_graph(graph_id, [tensor])
    ]


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


def test_inference_failing_at_a_seen_shape_names_node_and_shape_and_later_runs_work(calls, rng):
    from ge.error import GeError

    n = int(rng.integers(1, 300))
    x = rng.standard_normal(n).astype(np.float32)
    session = Session()
    session.add_graph(0, _tile_graph([-1], [2]))
    _run(session, 0, x)
    EXTRA["rows"] = -1
    with pytest.raises(
        GeError,
        match=rf"at input shapes \[\[{n}\]\]: node Tile_0 \(op Tile\): shape inference "
        r"failed: ValueError: Tile needs rows >= 0, got -1",
    ):
        _run(session, 0, x)
    EXTRA["rows"] = 1
    (got,) = _run(session, 0, x)
    np.testing.assert_array_equal(got, np.tile(x, (1, 2)))


def test_python_run_om_reports_each_runs_output_dims(calls, rng):
    """The graph as an OM that runs through Python (atc's route for dynamic inputs), loaded and
    run with pyACL in this process: the description says -1 where dims vary (inference over the
    -1 input dims, as GE's), each run's real dims come back through aclmdlGetDatasetTensorDesc —
    also when inference changes at a size seen before."""
    import acl
    from ge._compiler import compile_graph
    from ge._compiler.acl_runner import ensure_runtime

    times = [2, 3]
    graph = _tile_graph([-1], times)
    compiled = compile_graph(graph._ir, {"ge.socVersion": "Ascend910B1"}, mode="offline")
    assert [(list(o.dims), o.size) for o in compiled.description.outputs] == [([1, -1], 0)] * 2
    ensure_runtime(0)
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(compiled.om), len(compiled.om))
    assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    for j in range(2):
        dims, ret = acl.mdl.get_output_dims(desc, j)
        assert ret == 0 and list(dims["dims"]) == [1, -1], dims
    sizes = [int(s) for s in rng.integers(1, 500, size=2)]
    try:
        for n, rows in [(sizes[0], 1), (sizes[1], 1), (sizes[0], 2), (sizes[0], 1)]:
            EXTRA["rows"] = rows
            x = rng.standard_normal(n).astype(np.float32)
            got = _run_om(acl, model_id, x, len(times))
            for (dims, data), t in zip(got, times):
                assert dims == [rows, n * t]  # this run's inference, not the first one's
                np.testing.assert_array_equal(data.reshape(dims), np.tile(x, (rows, t)))
    finally:
        acl.mdl.destroy_desc(desc)
        assert acl.mdl.unload(model_id) == 0


def _run_om(acl, model_id, x, outputs):
    """One aclmdlExecute: x as input 0 with its shape set, the runtime allocating the outputs;
    returns (dims, data) per output from the output dataset."""
    h2d, d2h = 1, 2
    inputs, results = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    ptr, ret = acl.rt.malloc(x.nbytes, 2)
    assert ret == 0
    owned = [ptr]
    shape = acl.create_tensor_desc(0, [x.size], 2)  # ACL_FLOAT, ACL_FORMAT_ND
    try:
        assert acl.rt.memcpy(ptr, x.nbytes, x.ctypes.data, x.nbytes, h2d) == 0
        assert acl.mdl.add_dataset_buffer(inputs, acl.create_data_buffer(ptr, x.nbytes))[1] == 0
        assert acl.mdl.set_dataset_tensor_desc(inputs, shape, 0) == (inputs, 0)
        for _ in range(outputs):
            assert acl.mdl.add_dataset_buffer(results, acl.create_data_buffer(0, 0))[1] == 0
        assert acl.mdl.execute(model_id, inputs, results) == 0, acl.get_recent_err_msg()
        got = []
        for j in range(outputs):
            out_desc = acl.mdl.get_dataset_tensor_desc(results, j)
            dims = []
            for k in range(acl.get_tensor_desc_num_dims(out_desc)):
                dim, ret = acl.get_tensor_desc_dim_v2(out_desc, k)
                assert ret == 0 and acl.get_tensor_desc_dim(out_desc, k) == dim  # the deprecated form
                dims.append(dim)
            buffer = acl.mdl.get_dataset_buffer(results, j)
            owned.append(acl.get_data_buffer_addr(buffer))
            data = np.empty(int(np.prod(dims)), dtype=np.float32)
            assert acl.get_data_buffer_size_v2(buffer) == data.nbytes
            assert acl.rt.memcpy(data.ctypes.data, data.nbytes, owned[-1], data.nbytes, d2h) == 0
            got.append((dims, data))
        return got
    finally:
        acl.destroy_tensor_desc(shape)
        for dataset in (inputs, results):
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
        for address in owned:
            acl.rt.free(address)


def test_python_run_om_output_desc_is_updated_in_place_across_runs(calls, rng):
    """A caller may fetch an output's desc once and read it after every run of the same datasets:
    the pointer stays valid and shows each run's dims (CANN updates the dataset's desc)."""
    import acl
    from ge._compiler import compile_graph
    from ge._compiler.acl_runner import ensure_runtime

    compiled = compile_graph(_tile_graph([-1], [3])._ir, {"ge.socVersion": "Ascend910B1"}, mode="offline")
    ensure_runtime(0)
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(compiled.om), len(compiled.om))
    assert ret == 0, acl.get_recent_err_msg()
    big, small = sorted(int(s) for s in rng.integers(2, 400, size=2))[::-1]
    inputs, results = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    x_ptr, ret = acl.rt.malloc(4 * big, 2)
    assert ret == 0
    out_buffer = acl.create_data_buffer(0, 0)  # the runtime allocates it at the first run
    in_buffer = acl.create_data_buffer(x_ptr, 4 * big)
    assert acl.mdl.add_dataset_buffer(inputs, in_buffer)[1] == 0
    assert acl.mdl.add_dataset_buffer(results, out_buffer)[1] == 0
    seen = None
    try:
        for n in (big, small):  # the second run fits the buffer the first one allocated
            x = rng.standard_normal(n).astype(np.float32)
            assert acl.rt.memcpy(x_ptr, 4 * big, x.ctypes.data, x.nbytes, 1) == 0
            shape = acl.create_tensor_desc(0, [n], 2)
            assert acl.mdl.set_dataset_tensor_desc(inputs, shape, 0) == (inputs, 0)
            acl.destroy_tensor_desc(shape)
            assert acl.mdl.execute(model_id, inputs, results) == 0, acl.get_recent_err_msg()
            desc = acl.mdl.get_dataset_tensor_desc(results, 0)
            seen = desc if seen is None else seen
            assert desc == seen  # the same desc, updated
            dims = [acl.get_tensor_desc_dim(seen, k) for k in range(acl.get_tensor_desc_num_dims(seen))]
            assert dims == [1, 3 * n]
            y = np.empty(3 * n, dtype=np.float32)
            assert acl.rt.memcpy(y.ctypes.data, y.nbytes, acl.get_data_buffer_addr(out_buffer), y.nbytes, 2) == 0
            np.testing.assert_array_equal(y, np.tile(x, 3))
    finally:
        allocated = acl.get_data_buffer_addr(out_buffer)
        for dataset, buffer in ((inputs, in_buffer), (results, out_buffer)):
            acl.destroy_data_buffer(buffer)
            acl.mdl.destroy_dataset(dataset)
        for address in (x_ptr, allocated):
            if address:
                acl.rt.free(address)
        assert acl.mdl.unload(model_id) == 0


def test_python_run_om_refuses_datasets_that_do_not_fit_the_model(calls):
    """aclmdlExecute and aclmdlExecuteAsync of a Python-run OM refuse a null dataset and a buffer
    count other than the model's with the executor's one check: its codes and messages, no run."""
    import acl
    from ge._compiler import compile_graph
    from ge._compiler.acl_runner import ensure_runtime

    compiled = compile_graph(_tile_graph([-1], [3])._ir, {"ge.socVersion": "Ascend910B1"}, mode="offline")
    ensure_runtime(0)
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(compiled.om), len(compiled.om))
    assert ret == 0, acl.get_recent_err_msg()
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    empty, one = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    buffer = acl.create_data_buffer(0, 0)
    assert acl.mdl.add_dataset_buffer(one, buffer)[1] == 0
    invalid_param, input_mismatch, output_mismatch = 100000, 100017, 100018
    try:
        for api, run in (
            ("aclmdlExecute", lambda i, o: acl.mdl.execute(model_id, i, o)),
            ("aclmdlExecuteAsync", lambda i, o: acl.mdl.execute_async(model_id, i, o, stream)),
        ):
            for inputs, outputs, code, message in (
                (0, one, invalid_param, "input dataset is null"),
                (one, 0, invalid_param, "output dataset is null"),
                (empty, one, input_mismatch, "input dataset has 0 buffers but the model has 1 inputs"),
                (one, empty, output_mismatch, "output dataset has 0 buffers but the model has 1 outputs"),
            ):
                assert run(inputs, outputs) == code, (api, message)
                assert f"{api}: model tiles: {message}" in acl.get_recent_err_msg()
        assert calls["execute"] == []  # refused before the Python executor ran
    finally:
        acl.destroy_data_buffer(buffer)
        for dataset in (empty, one):
            acl.mdl.destroy_dataset(dataset)
        assert acl.rt.destroy_stream(stream) == 0
        assert acl.mdl.unload(model_id) == 0
