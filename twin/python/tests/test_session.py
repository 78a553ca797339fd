import sys
import types

import numpy as np
import pytest

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


def _graph():
    builder = GraphBuilder("g")
    x = builder.create_input(0, shape=[4])
    y = builder.create_input(1, shape=[4])
    return builder.build_and_reset([x + y])


def test_ge_initialize_rules(monkeypatch, tmp_path):
    for bad in (None, {}, [("a", "b")]):
        with pytest.raises(TypeError):
            GeApi.ge_initialize(bad)
    with pytest.raises(TypeError):
        GeApi.ge_initialize({"ge.exec.deviceId": 0})
    with pytest.raises(GeError, match="^GEInitialize failed; ValueError: unknown SoC version 'Nope'") as info:
        GeApi.ge_initialize({"ge.socVersion": "Nope"})
    assert isinstance(info.value, RuntimeError) and info.value.api_name == "GEInitialize"
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(tmp_path / "missing.py"))
    with pytest.raises(GeError, match="python custom op path does not exist"):
        GeApi.ge_initialize({"ge.exec.deviceId": "0"})
    monkeypatch.delenv("ASCEND_CUSTOM_OPP_PATH")
    assert GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": "Ascend910B1"}) == 0
    assert GeApi.ge_finalize() == 0
    assert GeApi.ge_finalize() == 0


def test_session_requires_init_and_checks_types():
    with pytest.raises(GeError, match="^CreateSession failed; GE is not initialized"):
        Session()
    GeApi.ge_initialize({"ge.exec.deviceId": "0"})
    with pytest.raises(TypeError, match="^option must be a dictionary$"):
        Session("x")
    session = Session({"ge.graphRunMode": "1"})
    with pytest.raises(TypeError, match="^Graph_id must be an integer$"):
        session.add_graph("1", _graph())
    with pytest.raises(TypeError, match="^Add_graph must be a Graph$"):
        session.add_graph(1, "graph")
    with pytest.raises(TypeError, match="^options must be a dictionary$"):
        session.add_graph(1, _graph(), options=[1])
    assert session.add_graph(1, _graph()) == 0
    with pytest.raises(GeError, match="^AddGraph failed; graph_id=1; graph id already added$") as info:
        session.add_graph(1, _graph())
    assert info.value.context == {"graph_id": 1}
    with pytest.raises(TypeError, match="^inputs must be a list of Tensor$"):
        session.run_graph(1, (Tensor([1.0], shape=[1]),))
    with pytest.raises(TypeError, match="^All elements in inputs must be the type of Tensor$"):
        session.run_graph(1, [1.0])
    with pytest.raises(GeError, match="^RunGraph failed; graph_id=7; graph id not found$"):
        session.run_graph(7, [])
    session.remove_graph(1)
    with pytest.raises(GeError, match="^RemoveGraph failed; graph_id=1; graph id not found$"):
        session.remove_graph(1)


def test_missing_backend_is_a_ge_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ge._compiler", None)  # as if ge._compiler were not installed
    GeApi.ge_initialize({"ge.exec.deviceId": "0"})
    session = Session()
    session.add_graph(0, _graph())
    inputs = [Tensor([1.0] * 4, None, DataType.DT_FLOAT, Format.FORMAT_ND, [4])] * 2
    with pytest.raises(GeError, match="^RunGraph failed; graph_id=0; graph compiler backend not available"):
        session.run_graph(0, inputs)


class _NumpyInterpreter:
    """Test-only backend honouring the documented interface: evaluates Add graphs with numpy,
    so the Session's option merging, input order and output wrapping are checked end to end."""

    def __init__(self):
        self.compiled = []

    def compile_graph(self, graph, options):
        self.compiled.append((graph.name, dict(options)))
        if any(n.type not in ("Data", "Add") for n in graph.nodes.values()):
            raise ValueError("unsupported op")

        class Model:
            def run(_, arrays):
                values = {}
                for node in graph.nodes.values():
                    if node.type == "Data":
                        values[node.name] = arrays[node.attrs["index"].value]
                    else:
                        a, b = (values[e.node] for e in node.inputs)
                        values[node.name] = a + b
                return [values[e.node] for e in graph.outputs]

        return Model()


def test_session_delegates_to_backend(monkeypatch, rng):
    backend = _NumpyInterpreter()
    package = types.ModuleType("ge._compiler")
    package.backend = backend
    monkeypatch.setitem(sys.modules, "ge._compiler", package)
    monkeypatch.setitem(sys.modules, "ge._compiler.backend", backend)
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "k": "global"})
    session = Session({"k": "session", "s": "1"})
    session.add_graph(3, _graph(), {"g": "2"})
    a, b = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
    for _ in range(2):
        (out,) = session.run_graph(3, [Tensor(a.tolist(), shape=[4]), Tensor(b.tolist(), shape=[4])])
        np.testing.assert_array_equal(np.array(out.get_data(), dtype=np.float32), a + b)
    assert out.data_type is DataType.DT_FLOAT and out.get_shape() == [4]
    assert backend.compiled == [("g", {"ge.exec.deviceId": "0", "k": "session", "s": "1", "g": "2"})]
    builder = GraphBuilder("bad")
    x = builder.create_input(0)
    session.add_graph(4, builder.build_and_reset([x * x]))
    with pytest.raises(GeError, match="^RunGraph failed; graph_id=4; compile failed: ValueError: unsupported op$"):
        session.run_graph(4, [Tensor([1.0])])


class _FixedModel:
    """A compiled model returning preset outputs; counts its runs."""

    def __init__(self, outputs, output_data_types=None):
        self.outputs, self.runs = outputs, 0
        if output_data_types is not None:
            self.output_data_types = output_data_types

    def run(self, arrays):
        self.runs += 1
        return self.outputs


def _session_with(monkeypatch, model):
    backend = types.SimpleNamespace(compile_graph=lambda graph, options: model)
    package = types.ModuleType("ge._compiler")
    package.backend = backend
    monkeypatch.setitem(sys.modules, "ge._compiler", package)
    monkeypatch.setitem(sys.modules, "ge._compiler.backend", backend)
    GeApi.ge_initialize({"ge.exec.deviceId": "0"})
    session = Session()
    session.add_graph(1, _graph())
    return session


def test_run_graph_checks_stay_on_the_fast_path(monkeypatch, rng):
    values = rng.standard_normal(4).astype(np.float32)
    model = _FixedModel([values, values.astype(np.uint16)], [DataType.DT_FLOAT, int(DataType.DT_BF16)])
    session = _session_with(monkeypatch, model)
    good = Tensor(values.tolist(), shape=[4])
    for _ in range(2):  # compiled on the first run, the precomputed state on the second
        out, bf16 = session.run_graph(1, [good, good])
        np.testing.assert_array_equal(out._to_numpy(), values)
        assert out.data_type is DataType.DT_FLOAT and bf16.data_type is DataType.DT_BF16
        assert out.get_shape() == [4] and out.format is Format.FORMAT_ND
    assert model.runs == 2
    with pytest.raises(TypeError, match="^Graph_id must be an integer$"):
        session.run_graph(True, [good, good])

    class TensorList(list):
        pass

    assert len(session.run_graph(1, TensorList([good, good]))) == 2  # list subclasses are lists
    with pytest.raises(TypeError, match="^All elements in inputs must be the type of Tensor$"):
        session.run_graph(1, [good, values])
    with pytest.raises(GeError, match="^RunGraph failed; graph_id=1; input 1 has no data$"):
        session.run_graph(1, [good, Tensor()])
    assert model.runs == 3


def test_bad_backend_outputs_are_ge_errors(monkeypatch, rng):
    values = rng.standard_normal(4).astype(np.float32)
    session = _session_with(monkeypatch, _FixedModel([values], [DataType.DT_FLOAT, DataType.DT_FLOAT]))
    good = Tensor(values.tolist(), shape=[4])
    with pytest.raises(GeError, match="bad output from backend: 1 outputs, the model declares 2 output types"):
        session.run_graph(1, [good, good])
    session = _session_with(monkeypatch, _FixedModel([values], [12345]))
    with pytest.raises(GeError, match="^RunGraph failed; graph_id=1; bad output types from backend"):
        session.run_graph(1, [good, good])


class _FixedStreamModel(_FixedModel):
    """A _FixedModel that also runs on a caller's stream (as the stepped executor does)."""

    def run_on_stream(self, arrays, stream):
        self.stream = stream
        return self.run(arrays)


def test_run_graph_with_stream_async_checks_outputs_as_run_graph_does(monkeypatch, rng):
    values = rng.standard_normal(4).astype(np.float32)
    good = Tensor(values.tolist(), shape=[4])
    model = _FixedStreamModel([values, values], [DataType.DT_FLOAT, DataType.DT_FLOAT])
    session = _session_with(monkeypatch, model)
    outputs = session.run_graph_with_stream_async(1, 0x40, [good, good])
    assert model.stream == 0x40 and [t.data_type for t in outputs] == [DataType.DT_FLOAT] * 2
    np.testing.assert_array_equal(outputs[1]._to_numpy(), values)
    session = _session_with(monkeypatch, _FixedStreamModel([values], [DataType.DT_FLOAT, DataType.DT_FLOAT]))
    with pytest.raises(
        GeError,
        match=r"^RunGraphWithStreamAsync failed; graph_id=1, stream=0x40; bad output from "
        "backend: 1 outputs, the model declares 2 output types$",
    ):
        session.run_graph_with_stream_async(1, 0x40, [good, good])
    session = _session_with(monkeypatch, _FixedStreamModel([values]))  # no declared types: as numpy has them
    (out,) = session.run_graph_with_stream_async(1, 0x40, [good, good])
    assert out.data_type is DataType.DT_FLOAT and out.get_shape() == [4]


def test_graphs_do_not_run_after_ge_finalize(monkeypatch, rng):
    values = rng.standard_normal(4).astype(np.float32)
    model = _FixedModel([values], [DataType.DT_FLOAT])
    session = _session_with(monkeypatch, model)
    good = Tensor(values.tolist(), shape=[4])
    session.run_graph(1, [good, good])
    assert GeApi.ge_finalize() == 0
    with pytest.raises(
        GeError, match=r"^RunGraph failed; graph_id=1; GE is not initialized \(GeApi.ge_finalize was called\)"
    ):
        session.run_graph(1, [good, good])
    with pytest.raises(GeError, match="^RunGraphWithStreamAsync failed; .*GE is not initialized"):
        session.run_graph_with_stream_async(1, 0, [good, good])
    assert model.runs == 1
    GeApi.ge_initialize({"ge.exec.deviceId": "0"})  # initialised again, the session's graphs run again
    session.run_graph(1, [good, good])
    assert model.runs == 2


def test_a_huge_error_text_is_shortened_not_dropped():
    from ge.error import make_ge_error

    name = "n" * 300_000
    error = make_ge_error("AddGraph", f"node {name} is bad: the cause", graph_id=1)
    assert len(str(error)) < 20_000
    assert str(error).startswith("AddGraph failed; graph_id=1; node nnn") and str(error).endswith("the cause")
    assert "characters omitted" in str(error)
