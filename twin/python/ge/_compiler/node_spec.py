"""Building the custom-op NodeSpec (pyge's callback-context input) from a graph IR node."""

from typing import List, Optional

import numpy as np

from ge.custom_op._ir_types import AttrType, InputType, OutputType
from ge.custom_op._node import NodeSpec
from ge.graph._ir import Node, TensorDescIR, TensorValue
from ge.graph.types import DataType
from ge.runtime._meta import TensorMeta, TensorPlacement

from .errors import GraphCompileError

_KIND_NAMES = {"required": InputType.REQUIRED, "optional": InputType.OPTIONAL, "dynamic": InputType.DYNAMIC}


def tensor_meta(desc: TensorDescIR, addr: int = 0) -> TensorMeta:
    return TensorMeta(
        data_type=desc.data_type,
        storage_dims=list(desc.shape),
        origin_dims=list(desc.origin_shape),
        storage_format=desc.format,
        origin_format=desc.origin_format,
        addr=addr,
    )


def _where(node: Node) -> str:
    return f"node {node.name} (op {node.type})"


def input_groups(node: Node, ir_meta: dict) -> List[List[int]]:
    """For each IR input, the node input slots of its present instances."""
    declared = node.ir_inputs or [(item["name"], _kind_name(item["kind"]), 1) for item in ir_meta["inputs"]]
    if len(declared) != len(ir_meta["inputs"]):
        raise GraphCompileError(
            f"{_where(node)} has {len(declared)} IR inputs, its prototype declares {len(ir_meta['inputs'])}"
        )
    groups, slot = [], 0
    for (name, _, count), item in zip(declared, ir_meta["inputs"]):
        if name != item["name"]:
            raise GraphCompileError(f"{_where(node)}: IR input {name} does not match prototype input {item['name']}")
        slots = [s for s in range(slot, slot + count) if s < len(node.inputs) and node.inputs[s] is not None]
        if item["kind"] == InputType.REQUIRED and len(slots) != 1:
            raise GraphCompileError(f"{_where(node)}: required input {name} is not connected")
        groups.append(slots)
        slot += count
    if slot != len(node.inputs):
        raise GraphCompileError(f"{_where(node)} has {len(node.inputs)} input slots, its IR inputs cover {slot}")
    return groups


def output_groups(node: Node, ir_meta: dict) -> List[List[int]]:
    declared = node.ir_outputs or [(item["name"], "required", 1) for item in ir_meta["outputs"]]
    if len(declared) != len(ir_meta["outputs"]):
        raise GraphCompileError(
            f"{_where(node)} has {len(declared)} IR outputs, its prototype declares {len(ir_meta['outputs'])}"
        )
    groups, slot = [], 0
    for (name, _, count), item in zip(declared, ir_meta["outputs"]):
        if item["kind"] == OutputType.REQUIRED:
            count = 1
        groups.append(list(range(slot, slot + count)))
        slot += count
    if slot != len(node.output_descs):
        raise GraphCompileError(f"{_where(node)} has {len(node.output_descs)} outputs, its IR outputs cover {slot}")
    return groups


def _kind_name(kind: int) -> str:
    return {v: k for k, v in _KIND_NAMES.items()}[InputType(kind)]


def _tensor_attr(value: TensorValue, keepalive: list) -> TensorMeta:
    """A tensor attr as a host tensor whose bytes the callbacks can read at ``addr``."""
    data = np.frombuffer(value.data, dtype=np.uint8).copy()
    keepalive.append(data)
    meta = tensor_meta(value.desc, data.ctypes.data if data.size else 0)
    meta.placement = TensorPlacement.ON_HOST
    return meta


def _attr_value(node: Node, name: str, ir_type: str, keepalive: list):
    attr = node.attrs.get(name)
    if attr is None:
        raise GraphCompileError(f"{_where(node)}: attr {name} ({ir_type}) is not set")
    value = attr.value
    if ir_type == AttrType.DATA_TYPE:
        return DataType(int(value))
    if ir_type == AttrType.LIST_DATA_TYPE:
        return [DataType(int(v)) for v in value]
    if ir_type == AttrType.TENSOR:
        if not isinstance(value, TensorValue):
            raise GraphCompileError(f"{_where(node)}: attr {name} (VT_TENSOR) holds no tensor")
        return _tensor_attr(value, keepalive)
    return value


def node_spec(
    node: Node, ir_meta: dict, input_addrs: Optional[List[int]] = None, output_addrs: Optional[List[int]] = None
) -> NodeSpec:
    """NodeSpec with the node's current descs; addrs are indexed by node input/output slot."""
    in_groups, out_groups = input_groups(node, ir_meta), output_groups(node, ir_meta)
    in_addr = input_addrs or [0] * len(node.inputs)
    out_addr = output_addrs or [0] * len(node.output_descs)
    inputs = [[tensor_meta(node.input_descs[s], in_addr[s]) for s in group] for group in in_groups]
    outputs = [[tensor_meta(node.output_descs[s], out_addr[s]) for s in group] for group in out_groups]
    keepalive: list = []
    attrs = [(item["type"], _attr_value(node, item["name"], item["type"], keepalive)) for item in ir_meta["attrs"]]
    return NodeSpec(op_type=node.type, name=node.name, inputs=inputs, outputs=outputs, attrs=attrs, keepalive=keepalive)


def present_input_slots(node: Node, ir_meta: dict) -> List[int]:
    """Node input slots in flattened instance order (what append_input indexes)."""
    return [slot for group in input_groups(node, ir_meta) for slot in group]


def output_slots(node: Node, ir_meta: dict) -> List[int]:
    return [slot for group in output_groups(node, ir_meta) for slot in group]
