"""The graph library's C ABI through the Python bindings the `ge` package uses (ge.graph._c_api):
typed messages of graph_c_api.proto both ways, random attributes of every type (inf/nan
included) reaching the op's inference intact, and one clear error per malformed request."""

from __future__ import annotations

import math
import os
import platform
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from ge.graph import _air
from ge.graph._c_api import GraphCApi, GraphCApiError, capi_pb2
from ge.graph._ir import AttrValue, TensorDescIR, TensorValue
from ge.graph.types import AttrValueType as VT
from ge.graph.types import DataType

GRAPH_FAILED = 0xFFFFFFFF
GRAPH_PARAM_INVALID = 50331649
ABSENT = -7  # what TwinAttrEchoTest reports for a missing string/list element (test_opp.cc)


def runfile(path: str) -> Path:
    return Path(os.environ.get("TEST_SRCDIR", ".")) / os.environ.get("TEST_WORKSPACE", "") / path


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> GraphCApi:
    lib = GraphCApi(runfile("twin/graph/libgraph.so"))
    root = tmp_path_factory.mktemp("opp")
    lib_dir = root / "op_graph" / "lib" / "linux" / platform.machine()
    lib_dir.mkdir(parents=True)
    shutil.copy(runfile("twin/graph/tests/libtest_opp.so"), lib_dir / "libcust_opapi.so")
    assert lib.load_opp_libraries(str(root)) == [str(lib_dir / "libcust_opapi.so")]
    return lib


@pytest.fixture(scope="module")
def rng() -> np.random.Generator:
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    return np.random.default_rng(seed)


def request(op_type: str, inputs, attrs=(), counts=()):
    """An InferRequest: inputs = per IR input a list of (shape, dtype); attrs = (name, vt, value)."""
    pb = capi_pb2().InferRequest(op_type=op_type)
    for instances in inputs:
        slot = pb.inputs.add()
        for shape, dtype in instances:
            slot.instances.add(shape=shape, dtype=int(dtype))
    for name, vt, value in attrs:
        _air.fill_attr(pb.attrs.add(name=name).value, AttrValue(vt, value), name)
    for name, count in counts:
        pb.dynamic_output_counts.add(name=name, count=count)
    return pb


def concat(**overrides):
    fields = dict(inputs=[[([2, 3], DataType.DT_FLOAT)], []], attrs=[("axis", VT.VT_INT, 0)], counts=[("extra", 0)])
    fields.update(overrides)
    return request("TwinConcatTest", **fields)


def test_listing_has_ir(api: GraphCApi) -> None:
    protos = {op.op_type: op for op in api.list_op_protos().ops}
    pb = capi_pb2()
    cat = protos["TwinConcatTest"]
    assert [(i.name, i.kind) for i in cat.inputs] == [("x", pb.IR_DYNAMIC), ("bias", pb.IR_OPTIONAL)]
    assert [(o.name, o.kind) for o in cat.outputs] == [("y", pb.IR_REQUIRED), ("extra", pb.IR_DYNAMIC)]
    assert list(cat.inputs[0].dtypes.values) == [DataType.DT_FLOAT, DataType.DT_INT32]
    axis = cat.attrs[0]
    assert (axis.name, axis.type, axis.value_type, axis.required, axis.HasField("default_value")) == (
        "axis",
        "Int",
        "VT_INT",
        True,
        False,
    )
    defaults = {a.name: a.default_value for a in cat.attrs if not a.required}
    assert list(defaults["pads"].list_i.values) == [1, 2, 3] and defaults["mode"].s == "sum"
    assert list(defaults["names"].list_s.values) == ["a", "b"] and defaults["scale"].f == 1.5
    data = protos["Data"]
    assert [(a.name, a.default_value.i) for a in data.attrs] == [("index", 0)]


def test_infer_concat_matches_numpy(api: GraphCApi, rng: np.random.Generator) -> None:
    for _ in range(30):
        rank = int(rng.integers(1, 5))
        axis = int(rng.integers(-rank, rank))
        base = rng.integers(1, 6, size=rank)
        arrays = []
        for _ in range(int(rng.integers(1, 5))):
            dims = base.copy()
            dims[axis] = rng.integers(1, 6)
            arrays.append(rng.standard_normal(dims).astype(np.float32))
        response = api.infer(
            concat(
                inputs=[[(list(map(int, a.shape)), DataType.DT_FLOAT) for a in arrays], []],
                attrs=[("axis", VT.VT_INT, axis)],
                counts=[("extra", 1)],
            )
        )
        y, extra = response.outputs
        assert list(y.shape) == list(np.concatenate(arrays, axis=axis).shape)
        assert y.dtype == DataType.DT_FLOAT
        assert (extra.name, extra.ir_name, extra.ir_index, list(extra.shape), extra.dtype) == (
            "extra0",
            "extra",
            1,
            [3, 15, 0],
            DataType.DT_INT32,
        )


def _bits(value: float) -> int:
    return int(np.array([value], dtype=np.float32).view(np.uint32)[0])


def _echo_case(rng: np.random.Generator, f: float):
    """Random values of every attr type for TwinAttrEchoTest and the y shape its InferShape echoes."""
    i = int(rng.integers(-(2**63), 2**63 - 1, dtype=np.int64))
    b = bool(rng.integers(0, 2))
    s = "".join(chr(int(c)) for c in rng.integers(ord("a"), ord("z") + 1, size=int(rng.integers(0, 4))))
    dt = DataType.DT_BF16 if rng.integers(0, 2) else DataType.DT_INT8
    li = [int(v) for v in rng.integers(-(2**40), 2**40, size=int(rng.integers(0, 4)))]
    lf = [float(v) for v in rng.uniform(-1e6, 1e6, size=int(rng.integers(0, 4))).astype(np.float32)]
    lb = [bool(v) for v in rng.integers(0, 2, size=int(rng.integers(0, 4)))]
    tensor = TensorValue(TensorDescIR(shape=[2], data_type=DataType.DT_FLOAT), rng.bytes(8))
    attrs = [
        ("i", VT.VT_INT, i),
        ("f", VT.VT_FLOAT, f),
        ("b", VT.VT_BOOL, b),
        ("s", VT.VT_STRING, s),
        ("dt", VT.VT_DATA_TYPE, dt),
        ("li", VT.VT_LIST_INT, li),
        ("lf", VT.VT_LIST_FLOAT, lf),
        ("lb", VT.VT_LIST_BOOL, lb),
        ("t", VT.VT_TENSOR, tensor),
        ("ls", VT.VT_LIST_STRING, ["x" * int(n) for n in rng.integers(1, 5, size=int(rng.integers(0, 3)))]),
        ("ldt", VT.VT_LIST_DATA_TYPE, [DataType(int(v)) for v in rng.integers(0, 3, size=2)]),
        ("lli", VT.VT_LIST_LIST_INT, [[int(v)] for v in rng.integers(-9, 9, size=int(rng.integers(0, 3)))]),
    ]
    rng.shuffle(attrs)  # a request's attr order is free

    def padded(values):
        return [len(values)] + list(values) + [ABSENT] * (3 - len(values))

    echo = (
        [i, _bits(f), int(b)]
        + padded([ord(c) for c in s])
        + [int(dt)]
        + padded(li)
        + padded([_bits(v) for v in lf])
        + padded([int(v) for v in lb])
    )
    return attrs, echo


def test_random_attributes_of_every_type_arrive_intact(api: GraphCApi, rng: np.random.Generator) -> None:
    specials = [math.inf, -math.inf, math.nan, -0.0, 1e-45, 3.4028234663852886e38]
    for k in range(60):
        f = specials[k] if k < len(specials) else float(np.float32(rng.uniform(-1e30, 1e30)))
        attrs, echo = _echo_case(rng, f)
        response = api.infer(request("TwinAttrEchoTest", [[([4], DataType.DT_FLOAT16)]], attrs))
        (y,) = response.outputs
        got = list(y.shape)
        if math.isnan(f):  # any NaN payload is a NaN: compare the rest exactly
            assert math.isnan(np.array([got[1]], dtype=np.uint32).view(np.float32)[0])
            got[1] = echo[1]
        assert got == echo, (k, f)
        assert y.dtype == DataType.DT_FLOAT16


def test_non_finite_float_defaults_are_listed_exactly(api: GraphCApi) -> None:
    """Listing and requests carry float32 bit patterns, not text: no token for inf/nan needed."""
    cat = {op.op_type: op for op in api.list_op_protos().ops}["TwinConcatTest"]
    weights = [a for a in cat.attrs if a.name == "weights"][0]
    assert list(weights.default_value.list_f.values) == [0.5, 0.25]
    for scale in (math.inf, -math.inf, math.nan):
        response = api.infer(
            concat(
                attrs=[
                    ("axis", VT.VT_INT, 0),
                    ("scale", VT.VT_FLOAT, scale),
                    ("weights", VT.VT_LIST_FLOAT, [scale, 1.0]),
                ]
            )
        )
        assert list(response.outputs[0].shape) == [2, 3]


@pytest.mark.parametrize(
    "what, build, status, message",
    [
        (
            "op failure",
            lambda: concat(inputs=[[([2], DataType.DT_FLOAT)], []], attrs=[("axis", VT.VT_INT, 3)]),
            GRAPH_FAILED,
            "InferShape of op 'TwinConcatTest' (node 'TwinConcatTest') failed",
        ),
        (
            "no IMPL_OP",
            lambda: request("TwinNoImplTest", [[([1], DataType.DT_FLOAT)]]),
            GRAPH_PARAM_INVALID,
            "op type 'TwinNoImplTest' has no IMPL_OP registration",
        ),
        (
            "attr of another type",
            lambda: concat(attrs=[("axis", VT.VT_FLOAT, 0.0)]),
            GRAPH_PARAM_INVALID,
            "attr 'axis' of op 'TwinConcatTest' must be of type Int, the request gives Float",
        ),
        ("unknown op", lambda: request("NoSuchOp", []), GRAPH_PARAM_INVALID, "op type 'NoSuchOp' is not registered"),
        (
            "bad dtype",
            lambda: concat(inputs=[[([2, 3], 77)], []]),
            GRAPH_PARAM_INVALID,
            "inputs[0] has dtype 77, which is no ge::DataType value",
        ),
        (
            "missing required input",
            lambda: request("TwinAttrEchoTest", [[]]),
            GRAPH_PARAM_INVALID,
            "required input 'x' of op 'TwinAttrEchoTest' is missing",
        ),
        (
            "not a message",
            lambda: b"\x0a\xff\xff\xff\xff\x0f",
            GRAPH_PARAM_INVALID,
            "is not a valid ge.twin.capi.InferRequest message",
        ),
    ],
)
def test_bad_requests_fail_with_one_line(api: GraphCApi, what, build, status, message) -> None:
    with pytest.raises(GraphCApiError) as info:
        api.infer(build())
    assert info.value.status == status, what
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_load_of_a_missing_root_names_it(api: GraphCApi) -> None:
    with pytest.raises(GraphCApiError) as info:
        api.load_opp_libraries("/nonexistent/opp/root")
    assert info.value.status == GRAPH_FAILED and "'/nonexistent/opp/root'" in str(info.value)
