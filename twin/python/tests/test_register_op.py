from typing import List, Optional, Tuple

import pytest
from helpers import meta

from ge.custom_op import InferMetaContext, _bridge, register_op
from ge.custom_op._node import NodeSpec
from ge.custom_op.proto import (
    clear_registered_op_protos,
    get_registered_op_proto_by_descriptor_key,
    get_registered_op_proto_dicts,
    get_registered_op_protos,
)
from ge.graph import DataType
from ge.runtime import Tensor, TensorDesc


def test_prototype_from_signature():
    @register_op(op_type="PyAdd")
    def py_add(
        x1: TensorDesc,
        x2: Optional[TensorDesc],
        xs: List[TensorDesc],
        *,
        alpha: float = 1.0,
        mode: str,
        dt: DataType = DataType.DT_FLOAT16,
        w: Optional[int] = None,
    ) -> TensorDesc:
        return x1

    desc = py_add.__ge_op_proto_descriptor__
    assert desc.ir_meta() == {
        "inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 1}, {"name": "xs", "kind": 2}],
        "attrs": [
            {"name": "alpha", "type": "VT_FLOAT"},
            {"name": "mode", "type": "VT_STRING"},
            {"name": "dt", "type": "VT_DATA_TYPE"},
            {"name": "w", "type": "VT_INT"},
        ],
        "outputs": [{"name": "output0", "kind": 0}],
    }
    attrs = get_registered_op_proto_dicts()[0]["attrs"]
    assert [a["required"] for a in attrs] == [False, True, False, False] and attrs[2]["default"] == 1
    assert get_registered_op_proto_by_descriptor_key(desc.descriptor_key) is desc
    assert register_op(op_type="PyAdd")(py_add) is py_add  # same definition: idempotent


def test_outputs_names_and_mutation():
    @register_op(op_type="Two", mutates_args=(("x", 1),))
    def two(x: TensorDesc, output0: TensorDesc) -> Tuple[TensorDesc, List[TensorDesc]]:
        return x, [x]

    desc = two.__ge_op_proto_descriptor__
    assert desc.outputs == (("output0_1", 0), ("x", 1))

    @register_op(op_type="Seq", mutates_args=["a"])
    def seq(a: TensorDesc) -> TensorDesc:
        return a

    assert seq.__ge_op_proto_descriptor__.outputs == (("a", 0),)
    assert [d.op_type for d in get_registered_op_protos()] == ["Seq", "Two"]


@pytest.mark.parametrize(
    "source, error, fragment",
    [
        ("def f(x) -> TensorDesc: ...", TypeError, "parameter 'x' must be annotated"),
        ("def f(x: TensorDesc = None) -> TensorDesc: ...", TypeError, "must not have a default"),
        ("def f(x: int) -> TensorDesc: ...", TypeError, "input 'x' must be annotated TensorDesc"),
        ("def f(*xs: TensorDesc) -> TensorDesc: ...", TypeError, "variadic"),
        ("def f(x: TensorDesc): ...", TypeError, "return annotation is required"),
        ("def f(x: TensorDesc, *, a: int = True) -> TensorDesc: ...", TypeError, "does not match"),
        ("def f(x: TensorDesc, *, a: float = 1) -> TensorDesc: ...", TypeError, "does not match"),
        ("def f(x: TensorDesc, *, t: Tensor = 0) -> TensorDesc: ...", TypeError, "cannot have a default"),
        ("def f(x: TensorDesc, *, d: DataType = DataType.DT_MAX) -> TensorDesc: ...", ValueError, "DT_MAX"),
        ("def f(x: TensorDesc) -> Tuple[TensorDesc, ...]: ...", TypeError, "'...'"),
    ],
)
def test_prototype_errors_are_prefixed(source, error, fragment):
    namespace = {"TensorDesc": TensorDesc, "Tensor": Tensor, "DataType": DataType, "Tuple": Tuple}
    exec(source, namespace)
    with pytest.raises(error, match=rf"^register_op op_type 'Bad' failed: .*{__import__('re').escape(fragment)}"):
        register_op(op_type="Bad")(namespace["f"])


def test_registry_conflicts_and_mutates_args_rules():
    with pytest.raises(TypeError, match="register_op expects a Python function"):
        register_op(op_type="X")(len)

    def one(x: TensorDesc) -> TensorDesc:
        return x

    with pytest.raises(TypeError, match="mutates_args must be a list or tuple"):
        register_op(op_type="X", mutates_args="x")(one)
    for mutates, error in (
        (["x", "x"], ValueError),
        (["nope"], ValueError),
        ([("x", 3)], ValueError),
        (["x", ("x", 0)], TypeError),
    ):
        with pytest.raises(error):
            register_op(op_type="M", mutates_args=mutates)(one)
    register_op(op_type="First")(one)

    def other(x: TensorDesc) -> TensorDesc:
        return x

    with pytest.raises(ValueError, match="python op proto type already exists: First"):
        register_op(op_type="First")(other)
    clear_registered_op_protos()
    assert get_registered_op_protos() == []


def test_call_infer_meta(rng):
    @register_op(op_type="Concat2")
    def concat(xs: List[TensorDesc], *, axis: int) -> Tuple[TensorDesc, List[TensorDesc]]:
        dims = xs[0].shape.storage_shape.dims
        dims[axis] = sum(x.shape.storage_shape.dims[axis] for x in xs)
        return TensorDesc(dims, xs[0].data_type), [TensorDesc([1], DataType.DT_INT64) for _ in xs]

    ir = concat.__ge_op_proto_descriptor__.ir_meta()
    sizes = [int(v) for v in rng.integers(1, 9, size=3)]
    node = NodeSpec(
        "Concat2",
        "c",
        inputs=[[meta([2, s]) for s in sizes]],
        outputs=[[meta([])], [meta([]) for _ in sizes]],
        attrs=[("VT_INT", 1)],
    )
    ctx = InferMetaContext._create(node)
    result = _bridge.call_infer_meta("Concat2", ir, ctx)
    assert result[0] == ([2, sum(sizes)], [2, sum(sizes)], int(DataType.DT_FLOAT))
    assert result[1:] == [([1], [1], int(DataType.DT_INT64))] * 3
    with pytest.raises(RuntimeError, match="expired"):
        ctx.get_attrs()
    short = NodeSpec(
        "Concat2", "c", inputs=[[meta([2, 1])] * 2], outputs=[[meta([])], [meta([])]], attrs=[("VT_INT", 1)]
    )
    with pytest.raises(TypeError, match="returned 2 descs for dynamic output output1, node has 1 instances"):
        _bridge.call_infer_meta("Concat2", ir, InferMetaContext._create(short))


def test_runtime_attr_type_errors():
    node = NodeSpec("A", "a", attrs=[("VT_INT", 3), ("VT_LIST_LIST_INT", [[1, 2], [3]])])
    attrs = InferMetaContext._create(node).get_attrs()
    assert attrs.get_int(0) == 3 and attrs.get_list_list_int(1) == [[1, 2], [3]] and attrs.get_attr_num() == 2
    with pytest.raises(RuntimeError, match=r"^Failed to get runtime attr type\[VT_FLOAT\] at index\[0\]$"):
        attrs.get_float(0)
    with pytest.raises(RuntimeError, match=r"^Failed to get runtime attr type\[VT_INT\] at index\[5\]$"):
        attrs.get_int(5)
