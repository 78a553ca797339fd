"""Runtime helpers imported by the ES wrapper modules gen_esb generates (``es_<Op>.py``)."""

from typing import Optional, Sequence

from ge.graph._ir import AttrValue
from ge.graph.types import AttrValueType, DataType

from .graph_builder import GraphBuilder
from .tensor_holder import TensorHolder

_SCALAR_CHECKS = {
    "VT_INT": (lambda v: isinstance(v, int) and not isinstance(v, bool), int),
    "VT_FLOAT": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), float),
    "VT_BOOL": (lambda v: isinstance(v, bool), bool),
    "VT_STRING": (lambda v: isinstance(v, str), str),
    "VT_DATA_TYPE": (lambda v: isinstance(v, DataType), DataType),
}


def resolve_builder(
    op_type: str,
    values: Sequence,
    owner: Optional[GraphBuilder] = None,
    names: Sequence[str] = (),
    tensor_like: bool = True,
) -> GraphBuilder:
    """The builder of the first TensorHolder among the inputs, else the explicit owner."""
    if not tensor_like:  # plain-holder ops: report a wrong input type before anything else
        for name, value in zip(names, values):
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if item is not None and not isinstance(item, TensorHolder):
                    raise TypeError(f"{op_type}: input {name} must be a TensorHolder, got {type(item).__name__}")
    for value in values:
        candidates = value if isinstance(value, (list, tuple)) else [value]
        for item in candidates:
            if isinstance(item, TensorHolder):
                return item.get_owner_builder()
    if isinstance(owner, GraphBuilder):
        return owner
    raise ValueError(f"{op_type}: cannot resolve the owner GraphBuilder: pass a TensorHolder input or owner_builder")


def as_input(builder: GraphBuilder, value, op_type: str, name: str, tensor_like: bool):
    if value is None or isinstance(value, TensorHolder):
        return value
    if tensor_like:
        return builder._to_holder(value)
    raise TypeError(f"{op_type}: input {name} must be a TensorHolder, got {type(value).__name__}")


def as_dynamic_input(builder: GraphBuilder, values, op_type: str, name: str, tensor_like: bool) -> list:
    if not isinstance(values, (list, tuple)):
        raise TypeError(f"{op_type}: dynamic input {name} must be a list of TensorHolder")
    return [as_input(builder, v, op_type, f"{name}[{i}]", tensor_like) for i, v in enumerate(values)]


def typed_attr(op_type: str, name: str, vt_name: str, value) -> Optional[AttrValue]:
    """Check a wrapper attr argument against its IR type and tag it for the graph."""
    if value is None:
        return None
    if vt_name in _SCALAR_CHECKS:
        check, convert = _SCALAR_CHECKS[vt_name]
        if not check(value):
            raise TypeError(f"{op_type}: attr {name} must be {convert.__name__}, got {type(value).__name__}")
        return AttrValue(AttrValueType[vt_name], convert(value))
    if vt_name.startswith("VT_LIST_") and vt_name != "VT_LIST_LIST_INT":
        check, convert = _SCALAR_CHECKS["VT_" + vt_name[len("VT_LIST_") :]]
        if not isinstance(value, (list, tuple)) or not all(check(v) for v in value):
            raise TypeError(f"{op_type}: attr {name} must be a list of {convert.__name__}")
        return AttrValue(AttrValueType[vt_name], [convert(v) for v in value])
    if vt_name == "VT_LIST_LIST_INT":
        if not isinstance(value, (list, tuple)) or not all(
            isinstance(r, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in r)
            for r in value
        ):
            raise TypeError(f"{op_type}: attr {name} must be a list of lists of int")
        return AttrValue(AttrValueType.VT_LIST_LIST_INT, [[int(v) for v in r] for r in value])
    raise TypeError(f"{op_type}: attr {name} has unsupported type {vt_name}")
