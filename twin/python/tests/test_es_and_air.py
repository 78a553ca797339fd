import json
import subprocess
import sys

import numpy as np
import pytest

from ge.es import gen_esb
from ge.es.graph_builder import GraphBuilder
from ge.graph import DataType, Format, Graph

PROTOS = {"protos": [
    {"op_type": "PythonCompilableAddCustom", "inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}],
     "outputs": [{"name": "output0", "kind": 0}], "attrs": []},
    {"op_type": "Scale", "inputs": [{"name": "x", "kind": "required"}], "outputs": [{"name": "y", "kind": "required"}],
     "attrs": [{"name": "alpha", "type": "VT_FLOAT", "required": False, "default": 2},
               {"name": "axes", "type": "VT_LIST_INT", "required": True},
               {"name": "dst", "type": "VT_DATA_TYPE", "required": False, "default": 1}]},
    {"op_type": "Gather", "inputs": [{"name": "xs", "kind": "dynamic"}, {"name": "bias", "kind": "optional"},
                                     {"name": "lambda", "kind": "required"}],
     "outputs": [{"name": "ys", "kind": "dynamic"}, {"name": "xs", "kind": "required"}],
     "attrs": [{"name": "bias", "type": "VT_INT", "default": 0}]},
]}


@pytest.fixture
def es_dir(tmp_path, monkeypatch):
    protos = tmp_path / "protos.json"
    protos.write_text(json.dumps(PROTOS))
    out = tmp_path / "gen"
    assert gen_esb.main(["--protos", str(protos), "--output_dir", str(out)]) == 0
    monkeypatch.syspath_prepend(str(out))
    yield out
    for name in ("es_custom", "ge.es.custom"):
        sys.modules.pop(name, None)


def test_generated_wrappers_build_nodes(es_dir):
    from ge.es.custom import Gather, PythonCompilableAddCustom, Scale
    import es_custom
    assert es_custom.PythonCompilableAddCustom is PythonCompilableAddCustom
    builder = GraphBuilder("g")
    x1 = builder.create_input(0, shape=[16])
    x2 = builder.create_input(1, shape=[16])
    y = PythonCompilableAddCustom(x1, x2)
    node = builder._ir.nodes[y._node]
    assert node.type == "PythonCompilableAddCustom" and node.output_names == ["output0"]
    assert [(e.node, e.index) for e in node.inputs] == [("input_0", 0), ("input_1", 0)]
    z = PythonCompilableAddCustom(y, 1.0)  # >1 input: TensorLike operands become Const nodes
    assert builder._ir.nodes[z._node].inputs[1].node.startswith("Const")

    s = Scale(y, axes=[0])
    attrs = builder._ir.nodes[s._node].attrs
    assert attrs["alpha"].value == 2.0 and isinstance(attrs["alpha"].value, float)
    assert attrs["axes"].value == [0] and attrs["dst"].value == DataType.DT_FLOAT16
    with pytest.raises(TypeError):
        Scale(y)  # required attr
    with pytest.raises(TypeError, match="attr axes must be a list of int"):
        Scale(y, axes=[1.5])
    with pytest.raises(TypeError, match="input x must be a TensorHolder"):
        Scale(3.0, axes=[0])

    out = Gather([x1, x2], None, x1, 3, attr_bias=1)
    assert len(out.ys) == 3 and out.ref_xs.name.endswith(":3")
    gather = builder._ir.nodes[out.ys[0]._node]
    assert gather.input_names == ["xs0", "xs1", "lambda"]
    assert gather.ir_inputs == [("xs", "dynamic", 2), ("bias", "optional", 0), ("lambda", "required", 1)]


def test_generator_cli_and_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"op_type": "Bad Name"}]))
    result = subprocess.run([sys.executable, gen_esb.__file__, "--protos", str(bad), "--output_dir", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "gen_esb: error: op_type name 'Bad Name' is not a valid identifier" in result.stderr
    assert not (tmp_path / "es_custom.py").exists()


def test_air_round_trip(es_dir, tmp_path, rng):
    from ge.es.custom import Gather, PythonCompilableAddCustom
    builder = GraphBuilder("air_graph")
    x1 = builder.create_input(0, data_type=DataType.DT_FLOAT16, shape=[4, 4])
    x2 = builder.create_input(1, shape=[4, 4], format=Format.FORMAT_NCHW)
    const_values = rng.standard_normal(4).astype(np.float32)
    c = builder.create_const_float([float(v) for v in const_values], [4])
    y = PythonCompilableAddCustom(x1, x2)
    y.set_shape([4, 4]).set_data_type(DataType.DT_FLOAT16)
    gathered = Gather([y, c], None, x1, 2, attr_bias=-3)
    builder.set_node_attr_string(y, "note", "hi")
    graph = builder.build_and_reset([gathered.ys[1], y])
    path = tmp_path / "model.air"
    graph.save_to_air(str(path))
    loaded = Graph()
    loaded.load_from_air(str(path))
    assert loaded._ir == graph._ir
    value = loaded.get_node("Const_0").attrs["value"].value
    np.testing.assert_array_equal(np.frombuffer(value.data, dtype=np.float32), const_values)
    assert not list(tmp_path.glob(".air-*"))


def test_air_errors(tmp_path):
    builder = GraphBuilder("g")
    x = builder.create_input(0)
    y = builder.create_input(1)
    builder.add_control_dependency(y, [x])
    graph = builder.build_and_reset([y])
    with pytest.raises(RuntimeError, match="control dependencies cannot be stored"):
        graph.save_to_air(str(tmp_path / "c.air"))
    assert not list(tmp_path.iterdir())
    with pytest.raises(RuntimeError, match="Failed to load graph from"):
        Graph().load_from_air(str(tmp_path / "missing.air"))
    (tmp_path / "junk.air").write_bytes(b"\x00\x01garbage")
    with pytest.raises(RuntimeError, match="Failed to load graph from .*junk.air"):
        Graph().load_from_air(str(tmp_path / "junk.air"))
    good = GraphBuilder("g2")
    good_graph = good.build_and_reset([good.create_input(0)])
    good_graph.save_to_air(str(tmp_path / "ok.air"))
    payload = (tmp_path / "ok.air").read_bytes()
    (tmp_path / "cut.air").write_bytes(payload[:-5])
    with pytest.raises(RuntimeError, match="truncated|decode failed"):
        Graph().load_from_air(str(tmp_path / "cut.air"))


def test_air_schema_module_source():
    import os
    from ge.graph import _air
    module = _air.air_pb2()
    if os.environ.get("TEST_SRCDIR"):  # under Bazel the generated //twin/graph:air_proto_py is used
        assert module.__name__ == "twin.graph.proto.air_pb2"
    assert module.Model.DESCRIPTOR.full_name == "ge.twin.air.Model"
