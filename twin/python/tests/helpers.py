"""Builders for NodeSpecs and ir_meta dicts used across tests."""

from ge.custom_op._node import NodeSpec
from ge.graph.types import DataType, Format
from ge.runtime._meta import TensorMeta

ADD_IR = {
    "inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}],
    "attrs": [],
    "outputs": [{"name": "y", "kind": 0}],
}


def meta(dims, dtype=DataType.DT_FLOAT, addr=0, fmt=Format.FORMAT_ND):
    return TensorMeta(dtype, list(dims), storage_format=fmt, addr=addr)


def add_node(n=64, addrs=(0, 0, 0), name="add0"):
    return NodeSpec(
        "PythonCompilableAddCustom",
        name,
        inputs=[[meta([n], addr=addrs[0])], [meta([n], addr=addrs[1])]],
        outputs=[[meta([n], addr=addrs[2])]],
    )
