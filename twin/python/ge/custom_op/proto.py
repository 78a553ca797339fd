"""register_op: an op prototype (IR) and infer_meta defined by a Python function (§1.9)."""

import inspect
import threading
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from ge.graph.types import DataType
from ge.runtime import Tensor, TensorDesc

from ._ir_types import AttrType, InputType, OutputType

_NO_DEFAULT = inspect.Parameter.empty

_SCALAR_ATTR_TYPES = {
    int: AttrType.INT,
    float: AttrType.FLOAT,
    bool: AttrType.BOOL,
    str: AttrType.STRING,
    DataType: AttrType.DATA_TYPE,
    Tensor: AttrType.TENSOR,
}
_LIST_ATTR_TYPES = {
    int: AttrType.LIST_INT,
    float: AttrType.LIST_FLOAT,
    bool: AttrType.LIST_BOOL,
    str: AttrType.LIST_STRING,
    DataType: AttrType.LIST_DATA_TYPE,
}
_ELEMENT_OF_LIST = {v: k for k, v in _LIST_ATTR_TYPES.items()}
_ATTR_PY_TYPE = {v: k for k, v in _SCALAR_ATTR_TYPES.items()}


@dataclass(frozen=True)
class OpProtoDescriptor:
    descriptor_key: str
    op_type: str
    module_name: str
    function_name: str
    inputs: Tuple[Tuple[str, int], ...]  # (name, InputType)
    outputs: Tuple[Tuple[str, int], ...]  # (name, OutputType)
    attrs: Tuple[Tuple[str, str, bool, Any], ...]  # (name, VT_*, required, default)
    mutates_args: Tuple[Tuple[str, int], ...] = ()  # (input name, output index)
    func: Any = field(default=None, compare=False, repr=False)

    def ir_meta(self) -> dict:
        return {
            "inputs": [{"name": n, "kind": int(k)} for n, k in self.inputs],
            "attrs": [{"name": n, "type": t} for n, t, _, _ in self.attrs],
            "outputs": [{"name": n, "kind": int(k)} for n, k in self.outputs],
        }

    def to_bridge_dict(self) -> dict:
        meta = self.ir_meta()
        for item, (_, _, required, default) in zip(meta["attrs"], self.attrs):
            item["required"] = required
            if not required:
                item["default"] = int(default) if isinstance(default, DataType) else default
        return {
            "descriptor_key": self.descriptor_key,
            "op_type": self.op_type,
            "module_name": self.module_name,
            "function_name": self.function_name,
            **meta,
            "mutates_args": [list(p) for p in self.mutates_args],
        }


_lock = threading.RLock()
_by_key: Dict[str, OpProtoDescriptor] = {}
_by_op_type: Dict[str, OpProtoDescriptor] = {}


def _input_kind(annotation, name: str) -> int:
    if annotation is TensorDesc:
        return InputType.REQUIRED
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and set(args) == {TensorDesc, type(None)}:
        return InputType.OPTIONAL
    if origin is list and args == (TensorDesc,):
        return InputType.DYNAMIC
    raise TypeError(
        f"input '{name}' must be annotated TensorDesc, Optional[TensorDesc] or List[TensorDesc], got {annotation!r}"
    )


def _unwrap_optional(annotation):
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return next(a for a in args if a is not type(None))
    return None


def _attr_type(annotation, name: str) -> str:
    if annotation in _SCALAR_ATTR_TYPES:
        return _SCALAR_ATTR_TYPES[annotation]
    if typing.get_origin(annotation) is list:
        (element,) = typing.get_args(annotation) or (None,)
        if element in _LIST_ATTR_TYPES:
            return _LIST_ATTR_TYPES[element]
        if typing.get_origin(element) is list and typing.get_args(element) == (int,):
            return AttrType.LIST_LIST_INT
    raise TypeError(f"attr '{name}' has unsupported annotation {annotation!r}")


def _check_default(name: str, ir_type: str, default) -> None:
    def exact(value, py_type) -> bool:
        return type(value) is py_type

    if ir_type == AttrType.TENSOR:
        raise TypeError(f"attr '{name}' of type Tensor cannot have a default")
    if ir_type in _ATTR_PY_TYPE:
        ok = exact(default, _ATTR_PY_TYPE[ir_type])
    elif ir_type == AttrType.LIST_LIST_INT:
        ok = exact(default, list) and all(exact(r, list) and all(exact(v, int) for v in r) for r in default)
    else:
        element = _ELEMENT_OF_LIST[ir_type]
        ok = exact(default, list) and all(exact(v, element) for v in default)
    if not ok:
        raise TypeError(f"default of attr '{name}' does not match its annotation exactly: {default!r}")
    values = default if isinstance(default, list) else [default]
    if any(isinstance(v, DataType) and v == DataType.DT_MAX for v in values):
        raise ValueError(f"default of attr '{name}' must not be DataType.DT_MAX")


def _output_kinds(annotation) -> List[int]:
    if annotation is None or annotation is type(None):
        return []
    if annotation is TensorDesc:
        return [OutputType.REQUIRED]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is list and args == (TensorDesc,):
        return [OutputType.DYNAMIC]
    if origin is tuple:
        if not args or Ellipsis in args or args == ((),):
            raise TypeError("tuple return annotation must list one or more outputs without '...'")
        kinds = []
        for arg in args:
            sub = _output_kinds(arg)
            if len(sub) != 1:
                raise TypeError(f"tuple return annotation entry {arg!r} must be TensorDesc or List[TensorDesc]")
            kinds.extend(sub)
        return kinds
    raise TypeError(
        f"return annotation must be None, TensorDesc, List[TensorDesc] or a Tuple of them, got {annotation!r}"
    )


def _mutation_pairs(mutates_args, input_names: List[str], n_outputs: int) -> List[Tuple[str, int]]:
    if isinstance(mutates_args, str) or not isinstance(mutates_args, (list, tuple)):
        raise TypeError("mutates_args must be a list or tuple")
    items = list(mutates_args)
    pairs_form = [isinstance(i, (list, tuple)) for i in items]
    if any(pairs_form) and not all(pairs_form):
        raise TypeError("mutates_args must be all input names or all (input_name, output_index) pairs")
    if items and all(pairs_form):
        pairs = []
        for item in items:
            if len(item) != 2 or not isinstance(item[0], str) or type(item[1]) is not int:
                raise TypeError(f"mutates_args pair {item!r} must be (input_name: str, output_index: int)")
            pairs.append((item[0], item[1]))
    else:
        if not all(isinstance(i, str) for i in items):
            raise TypeError("mutates_args must be all input names or all (input_name, output_index) pairs")
        if len(items) > n_outputs:
            raise ValueError(f"mutates_args names {len(items)} inputs but the op has {n_outputs} outputs")
        pairs = [(name, index) for index, name in enumerate(items)]
    seen_inputs, seen_outputs = set(), set()
    for name, index in pairs:
        if name not in input_names:
            raise ValueError(f"mutates_args names unknown input '{name}'")
        if name in seen_inputs:
            raise ValueError(f"mutates_args names input '{name}' twice")
        if index in seen_outputs:
            raise ValueError(f"mutates_args binds output {index} twice")
        if not 0 <= index < n_outputs:
            raise ValueError(f"mutates_args output index {index} is out of range for {n_outputs} outputs")
        seen_inputs.add(name)
        seen_outputs.add(index)
    return pairs


def _build_descriptor(func, op_type: str, mutates_args) -> OpProtoDescriptor:
    signature = inspect.signature(func)
    try:
        hints = typing.get_type_hints(func)
    except (NameError, TypeError) as exc:
        raise TypeError(f"cannot resolve annotations: {exc}") from exc
    inputs, attrs = [], []
    for param in signature.parameters.values():
        if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise TypeError(f"variadic parameter '{param.name}' is not supported")
        if param.name not in hints:
            raise TypeError(f"parameter '{param.name}' must be annotated")
        annotation = hints[param.name]
        if param.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            if param.default is not _NO_DEFAULT:
                raise TypeError(f"input '{param.name}' must not have a default")
            inputs.append((param.name, _input_kind(annotation, param.name)))
            continue
        default = param.default
        inner = _unwrap_optional(annotation)
        if inner is not None and default is None:
            attrs.append((param.name, _attr_type(inner, param.name), False, None))
            continue
        ir_type = _attr_type(annotation, param.name)
        if default is _NO_DEFAULT:
            attrs.append((param.name, ir_type, True, None))
        else:
            _check_default(param.name, ir_type, default)
            attrs.append((param.name, ir_type, False, default))
    if "return" not in hints and signature.return_annotation is inspect.Signature.empty:
        raise TypeError("a return annotation is required (None, TensorDesc, List[TensorDesc] or a Tuple)")
    kinds = _output_kinds(hints.get("return"))
    input_names = [name for name, _ in inputs]
    pairs = _mutation_pairs(mutates_args, input_names, len(kinds))
    bound = {index: name for name, index in pairs}
    taken = set(input_names)
    outputs = []
    for index, kind in enumerate(kinds):
        name = bound.get(index)
        if name is None:
            base = name = f"output{index}"
            suffix = 0
            while name in taken:
                suffix += 1
                name = f"{base}_{suffix}"
            taken.add(name)
        outputs.append((name, kind))
    return OpProtoDescriptor(
        descriptor_key=f"{func.__module__}:{func.__qualname__}:{op_type}",
        op_type=op_type,
        module_name=func.__module__,
        function_name=func.__qualname__,
        inputs=tuple(inputs),
        outputs=tuple(outputs),
        attrs=tuple(attrs),
        mutates_args=tuple(pairs),
        func=func,
    )


def _add(descriptor: OpProtoDescriptor) -> OpProtoDescriptor:
    with _lock:
        existing = _by_key.get(descriptor.descriptor_key)
        if existing is not None:
            if existing == descriptor:
                return existing
            raise ValueError(
                f"python op proto descriptor_key already exists with a different definition: "
                f"{descriptor.descriptor_key}"
            )
        if descriptor.op_type in _by_op_type:
            raise ValueError(f"python op proto type already exists: {descriptor.op_type}")
        _by_key[descriptor.descriptor_key] = descriptor
        _by_op_type[descriptor.op_type] = descriptor
        return descriptor


def register_op(*, op_type: str, mutates_args=()):
    """Function decorator registering an op prototype and its infer_meta."""
    if not isinstance(op_type, str) or not op_type:
        raise TypeError("register_op op_type must be a non-empty string")

    def decorator(func):
        try:
            if not inspect.isfunction(func):
                raise TypeError("register_op expects a Python function")
            descriptor = _add(_build_descriptor(func, op_type, mutates_args))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"register_op op_type '{op_type}' failed: {exc}") from exc
        func.__ge_op_proto_descriptor__ = descriptor
        return func

    return decorator


def clear_registered_op_protos() -> None:
    with _lock:
        _by_key.clear()
        _by_op_type.clear()


def get_registered_op_protos() -> List[OpProtoDescriptor]:
    with _lock:
        return sorted(_by_key.values(), key=lambda d: d.op_type)


def get_registered_op_proto_dicts() -> List[dict]:
    return [d.to_bridge_dict() for d in get_registered_op_protos()]


def get_registered_op_proto_by_descriptor_key(descriptor_key: str) -> Optional[OpProtoDescriptor]:
    with _lock:
        return _by_key.get(descriptor_key)


def get_registered_op_proto_by_op_type(op_type: str) -> Optional[OpProtoDescriptor]:
    with _lock:
        return _by_op_type.get(op_type)
