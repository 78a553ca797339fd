import copy

import numpy as np
import pytest

from ge.es.graph_builder import GraphBuilder, InputType
from ge.es.tensor_holder import TensorHolder
from ge.graph import DataType, Format, Graph


def test_create_input_and_chainable_setters():
    builder = GraphBuilder("g")
    assert builder.name == "g" and GraphBuilder().name == "graph"
    x = builder.create_input(0, data_type=DataType.DT_FLOAT16, format=Format.FORMAT_NCHW, shape=[1, -1, 4])
    node = builder._ir.nodes["input_0"]
    assert node.type == "Data" and node.attrs["index"].value == 0
    desc = node.output_descs[0]
    assert (desc.data_type, desc.format, desc.shape) == (DataType.DT_FLOAT16, Format.FORMAT_NCHW, [1, -1, 4])
    assert x.set_shape([8]).set_format(Format.FORMAT_ND).set_data_type(DataType.DT_INT32) is x
    assert (desc.data_type, desc.format, desc.shape) == (DataType.DT_INT32, Format.FORMAT_ND, [8])
    ref = builder.create_input(1, name="r", type_str=InputType.REF_DATA)
    assert builder._ir.nodes["r"].type == "RefData" and ref.name == "r"
    assert builder.create_input(2).get_owner_builder() is builder


def test_argument_type_errors():
    builder = GraphBuilder()
    with pytest.raises(TypeError, match="^Graph name must be a string$"):
        GraphBuilder(3)
    with pytest.raises(TypeError, match="^Input index must be an integer$"):
        builder.create_input("0")
    with pytest.raises(TypeError, match="^Shape must be a list of integers$"):
        builder.create_input(0, shape=[1.0])
    x = builder.create_input(0)
    with pytest.raises(TypeError):
        x.set_data_type(0)
    with pytest.raises(TypeError):
        x.set_format("ND")
    with pytest.raises(TypeError):
        x.set_shape((1,))
    with pytest.raises(RuntimeError):
        TensorHolder()
    with pytest.raises(RuntimeError):
        copy.copy(builder)


def test_built_builder_refuses_everything():
    builder = GraphBuilder("g")
    x = builder.create_input(0, shape=[4])
    graph = builder.build_and_reset([x])
    assert isinstance(graph, Graph) and graph.name == "g"
    message = r"^Cannot {}: GraphBuilder has already been built. Create a new GraphBuilder to build another graph.$"
    with pytest.raises(RuntimeError, match=message.format("create input")):
        builder.create_input(1)
    with pytest.raises(RuntimeError, match=message.format("set shape")):
        x.set_shape([2])
    with pytest.raises(RuntimeError, match=message.format("build graph")):
        builder.build_and_reset()
    with pytest.raises(RuntimeError, match=message.format("create constant")):
        builder.create_const_float(1.0)


def test_arithmetic_consts_outputs_and_mixing_builders():
    builder = GraphBuilder("g")
    x = builder.create_input(0, shape=[2])
    y = (x + 1.5) * x - 2
    z = 3 / y
    builder.set_graph_output(z, 1)
    builder.set_graph_output(x, 0)
    types = [n.type for n in builder._ir.nodes.values()]
    assert types == ["Data", "Const", "Add", "Mul", "Const", "Sub", "Const", "Div"]
    const = builder._ir.nodes["Const_0"].attrs["value"].value
    assert np.frombuffer(const.data, dtype=np.float32).tolist() == [1.5]
    div = builder._ir.nodes[z._node]
    assert div.inputs[0].node == "Const_2" and div.inputs[1].node == y._node
    other = GraphBuilder("h").create_input(0)
    with pytest.raises(ValueError, match="belongs to GraphBuilder 'h'"):
        x + other
    with pytest.raises(ValueError, match=r"Value count \(3\) doesn't match shape \[2, 2\]"):
        builder.create_const_int64([1, 2, 3], [2, 2])
    with pytest.raises(TypeError):
        builder.create_const_int32([1.0])
    graph = builder.build_and_reset()
    assert [(e.node, e.index) for e in graph._ir.outputs] == [("input_0", 0), (z._node, 0)]


def test_missing_output_index_and_scopes():
    builder = GraphBuilder("g")
    x = builder.create_input(0)
    a = builder.create_input(1)
    with builder.attr_scope({"_out_shape_locked": True}), builder.control_dependency_scope([a]):
        y = x + x
    node = builder._ir.nodes[y._node]
    assert node.attrs["_out_shape_locked"].value is True and node.control_inputs == ["input_1"]
    assert "_out_shape_locked" not in builder._ir.nodes["input_0"].attrs
    builder.set_node_attr_int64(y, "k", 3)
    builder.set_tensor_attr_string(y, "t", "v")
    with pytest.raises(TypeError):
        builder.set_node_attr_int64(y, "k", True)
    builder.set_graph_output(y, 1)
    with pytest.raises(RuntimeError, match=r"graph output indices \[0\] are not set"):
        builder.build_and_reset()


def test_module_level_scopes_as_the_args_refresh_sample_uses_them():
    """The args_refresh_add_custom Python sample imports attr_scope from ge.es.graph_builder and
    wraps its op call in ``with attr_scope({"_out_shape_locked": True})``; it used to fail with
    ImportError. Nested scopes merge (inner wins), unwind on exit, and reach inputs, constants
    and ops of whichever builder creates the node."""
    from ge.es.graph_builder import attr_scope, control_dependency_scope

    builder = GraphBuilder("scoped")
    x = builder.create_input(0, shape=[4])
    gate = builder.create_input(1, shape=[4])
    with attr_scope({"_out_shape_locked": True, "level": 1}):
        with attr_scope({"level": 2, "tag": "inner"}), control_dependency_scope([gate]):
            inner = x + x
            const = builder.create_const_float([1.0, 2.0])
            late_input = builder.create_input(2, shape=[4])
        outer = x * x
        with pytest.raises(RuntimeError):
            with attr_scope({"level": 3}):
                raise RuntimeError("unwinds")
        after_error = x - x
    plain = x / x
    nodes = builder._ir.nodes

    def attrs(holder):
        return {k: v.value for k, v in nodes[holder._node].attrs.items() if k in ("_out_shape_locked", "level", "tag")}

    assert attrs(inner) == {"_out_shape_locked": True, "level": 2, "tag": "inner"}
    assert attrs(const) == attrs(late_input) == attrs(inner)
    assert attrs(outer) == attrs(after_error) == {"_out_shape_locked": True, "level": 1}
    assert attrs(plain) == {}
    for holder in (inner, const, late_input):
        assert nodes[holder._node].control_inputs == ["input_1"]
    for holder in (outer, after_error, plain):
        assert nodes[holder._node].control_inputs == []


def test_control_dependency_scope_of_another_builder_is_refused():
    from ge.es.graph_builder import attr_scope, control_dependency_scope

    first, second = GraphBuilder("first"), GraphBuilder("second")
    gate = first.create_input(0)
    with control_dependency_scope([gate]):
        with pytest.raises(
            RuntimeError,
            match=r"graph second: control_dependency_scope tensor input_0 belongs to "
            r"GraphBuilder 'first'",
        ):
            second.create_input(0)
    with pytest.raises(TypeError, match="tensors must be a list of TensorHolder"):
        with control_dependency_scope(gate):
            pass
    with pytest.raises(TypeError, match="attr_maps must be a dict"):
        with attr_scope([("k", 1)]):
            pass
    with pytest.raises(TypeError, match="unsupported attr value"):
        with attr_scope({"k": object()}):
            pass
