"""Constant nodes (GraphBuilder.create_const_* -> ``Const`` with a VT_TENSOR ``value`` attr).
Their bytes go to the OM's CONSTANTS partition, which the executor copies to device once."""

from ge.graph._ir import Node, TensorValue

from .errors import GraphCompileError
from .memory_size import tensor_bytes

CONST_NODE_TYPES = ("Const", "Constant")


def const_value(node: Node) -> TensorValue:
    attr = node.attrs.get("value")
    value = getattr(attr, "value", None)
    if not isinstance(value, TensorValue):
        raise GraphCompileError(f"node {node.name} (op {node.type}) has no tensor 'value' attr")
    expected = tensor_bytes(value.desc, f"constant {node.name}")
    if len(value.data) != expected:
        raise GraphCompileError(
            f"node {node.name} (op {node.type}): value holds {len(value.data)} bytes, its "
            f"desc {value.desc.data_type.name} {value.desc.shape} needs {expected}"
        )
    return value
