"""AIR written by C++ (ge::Graph::SaveToFile) reads with the Python protobuf module generated from
air.proto, and AIR written from Python loads in C++ (GeTwinGraphDescribeAir runs LoadFromFile's
checks)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from ge.graph._c_api import GraphCApi, GraphCApiError
from twin.graph.proto import air_pb2

END_MARKER = 0x52494121
DT_FLOAT, DT_INT32, FORMAT_ND = 0, 3, 2


def runfile(path: str) -> Path:
    return Path(os.environ["TEST_SRCDIR"]) / os.environ["TEST_WORKSPACE"] / path


def describe(path: Path):
    """(status, AirDescription or None, error or None) of GeTwinGraphDescribeAir, via ge's bindings."""
    api = GraphCApi(runfile("twin/graph/libgraph.so"))
    try:
        return 0, api.describe_air(path), None
    except GraphCApiError as exc:
        return exc.status, None, str(exc)


def test_cpp_air_reads_in_python(tmp_path: Path) -> None:
    path = tmp_path / "interop.air"
    subprocess.run([str(runfile("twin/graph/tests/air_sample_writer")), str(path)], check=True)
    model = air_pb2.Model.FromString(path.read_bytes())
    assert (model.magic, model.format_version, model.end_marker) == ("ge.twin.air", 1, END_MARKER)
    graph = model.graph
    assert graph.name == "interop"
    assert [n.name for n in graph.nodes] == ["data_x", "concat"]
    assert list(graph.input_nodes) == ["data_x"]
    assert [(o.node, o.index) for o in graph.outputs] == [("concat", 0)]
    concat = graph.nodes[1]
    assert [(i.name, i.kind) for i in concat.ir_inputs] == [
        ("x", air_pb2.INPUT_DYNAMIC),
        ("bias", air_pb2.INPUT_OPTIONAL),
    ]
    assert [(i.name, i.ir_index, i.src_node, i.src_index) for i in concat.inputs] == [
        ("x0", 0, "data_x", 0),
        ("x1", 0, "data_x", 0),
        ("bias", 1, "", 0),
    ]
    assert list(concat.outputs[0].desc.dims) == [4, 16]
    attrs = {a.name: a.value for a in concat.attrs}
    assert [a.name for a in concat.attrs] == sorted(attrs)
    assert attrs["axis"].i == -1
    assert list(attrs["pads"].list_i.values) == [5, 6]
    assert attrs["mode"].s == "sum"
    assert attrs["dst_type"].dt == DT_INT32
    assert [list(r.values) for r in attrs["grid"].list_list_i.values] == [[1, 2], [3]]


def python_model(version: int = 1) -> air_pb2.Model:
    model = air_pb2.Model(magic="ge.twin.air", format_version=version, producer="python test", end_marker=END_MARKER)
    model.graph.name = "from_python"
    desc = air_pb2.TensorDesc(
        dims=[3, 5], dtype=DT_FLOAT, format=FORMAT_ND, origin_dims=[3, 5], origin_format=FORMAT_ND
    )
    data = model.graph.nodes.add(name="in0", type="Data")
    data.ir_inputs.add(name="x", kind=air_pb2.INPUT_REQUIRED, type="TensorType::ALL()")
    data.ir_outputs.add(name="y", kind=air_pb2.OUTPUT_REQUIRED, type="TensorType::ALL()")
    data.inputs.add(name="x", ir_index=0, desc=desc)
    data.outputs.add(name="y", ir_index=0, desc=desc)
    data.attrs.add(name="index", value=air_pb2.AttrValue(i=0))
    tail = model.graph.nodes.add(name="tail", type="TwinNoImplTest")
    tail.ir_inputs.add(name="x", kind=air_pb2.INPUT_REQUIRED, type="TensorType::ALL()")
    tail.ir_outputs.add(name="y", kind=air_pb2.OUTPUT_REQUIRED, type="TensorType::ALL()")
    tail.inputs.add(name="x", ir_index=0, src_node="in0", src_index=0, desc=desc)
    tail.outputs.add(name="y", ir_index=0, desc=desc)
    model.graph.input_nodes.append("in0")
    model.graph.outputs.add(node="tail", index=0)
    return model


def test_python_air_loads_in_cpp(tmp_path: Path) -> None:
    path = tmp_path / "py.air"
    path.write_bytes(python_model().SerializeToString())
    status, graph, error = describe(path)
    assert status == 0, error
    assert graph.name == "from_python"
    assert [n.name for n in graph.nodes] == ["in0", "tail"]
    tail_x = graph.nodes[1].inputs[0]
    assert (tail_x.connected, tail_x.src_node, list(tail_x.desc.dims)) == (True, "in0", [3, 5])
    assert not graph.nodes[0].inputs[0].connected
    assert [(o.node, o.index) for o in graph.outputs] == [("tail", 0)]
    assert [(a.name, a.type) for a in graph.nodes[0].attr_types] == [("index", "Int")]


def test_cpp_rejects_bad_python_air(tmp_path: Path) -> None:
    path = tmp_path / "bad.air"
    path.write_bytes(python_model(version=2).SerializeToString())
    status, _, error = describe(path)
    assert status != 0 and "newer than the newest supported (1)" in error

    model = python_model()
    model.graph.nodes[1].inputs[0].src_node = "nowhere"
    path.write_bytes(model.SerializeToString())
    status, _, error = describe(path)
    assert status != 0 and "producer 'nowhere' is not an earlier node" in error

    model = python_model()
    model.ClearField("end_marker")
    path.write_bytes(model.SerializeToString())
    status, _, error = describe(path)
    assert status != 0 and "truncated (end marker missing)" in error
