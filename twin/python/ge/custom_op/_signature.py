"""Validation of schema-bound callback signatures against an op's canonical IR (§1.3)."""

import inspect
import types
import typing

from ge.graph.types import DataType
from ge.runtime import Tensor

from ._ir_types import AttrType, InputType, OutputType

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_UNION_ORIGINS = (typing.Union, types.UnionType)

# ir attr type -> (RuntimeAttrs getter, expected annotation)
RUNTIME_ATTR_SPECS = {
    AttrType.INT: ("get_int", int),
    AttrType.FLOAT: ("get_float", float),
    AttrType.BOOL: ("get_bool", bool),
    AttrType.STRING: ("get_str", str),
    AttrType.DATA_TYPE: ("get_data_type", DataType),
    AttrType.TENSOR: ("get_tensor", Tensor),
    AttrType.LIST_INT: ("get_list_int", list[int]),
    AttrType.LIST_FLOAT: ("get_list_float", list[float]),
    AttrType.LIST_BOOL: ("get_list_bool", list[bool]),
    AttrType.LIST_STRING: ("get_list_str", list[str]),
    AttrType.LIST_DATA_TYPE: ("get_list_data_type", list[DataType]),
    AttrType.LIST_LIST_INT: ("get_list_list_int", list[list[int]]),
}

SCHEMA_METHODS = ("execute", "compile", "declare_launch_args")


def runtime_attr_spec(ir_type: str, index: int):
    spec = RUNTIME_ATTR_SPECS.get(ir_type)
    if spec is None:
        raise ValueError(f"unsupported custom op runtime attr type: {ir_type}, attr index: {index}")
    return spec


def _error(descriptor, method: str, expected: str, actual: str) -> TypeError:
    return TypeError(
        f"invalid {method} signature for op type {descriptor.op_type}, descriptor key "
        f"{descriptor.descriptor_key}, method {method}: expected {expected}, actual {actual}"
    )


def _canonical(annotation):
    """Fold typing spellings together: List[T] == list[T], Optional[T] == T | None."""
    if annotation is None:
        return type(None)
    origin = typing.get_origin(annotation)
    if origin is list:
        return ("list", tuple(_canonical(a) for a in typing.get_args(annotation)))
    if origin in _UNION_ORIGINS:
        return ("union", frozenset(_canonical(a) for a in typing.get_args(annotation)))
    return annotation


def _expected_input(kind: int):
    if kind == InputType.REQUIRED:
        return Tensor
    if kind == InputType.OPTIONAL:
        return typing.Optional[Tensor]
    if kind == InputType.DYNAMIC:
        return list[Tensor]
    raise ValueError(f"unsupported custom op IR input kind: {kind}")


def _expected_output(kind: int):
    if kind == OutputType.REQUIRED:
        return Tensor
    if kind == OutputType.DYNAMIC:
        return list[Tensor]
    raise ValueError(f"unsupported custom op IR output kind: {kind}")


def _resolved_hints(method, descriptor, method_name: str) -> dict:
    if getattr(method, "__no_type_check__", False):
        return {}
    try:
        return typing.get_type_hints(method)
    except (NameError, TypeError, AttributeError) as exc:
        raise _error(
            descriptor, method_name, "resolvable type annotations", f"type hint resolution failed: {exc}"
        ) from exc


def _check_annotation(param, expected, hints, descriptor, method_name, where) -> None:
    if param.annotation is inspect.Parameter.empty:
        return  # annotations are optional per parameter
    actual = hints.get(param.name, param.annotation)
    if _canonical(actual) != _canonical(expected):
        raise _error(descriptor, method_name, f"{where} annotation {_canonical(expected)!r}", f"{_canonical(actual)!r}")


def callback_for_signature(cls, method_name: str):
    """The callable whose signature the bridge validates: staticmethods unbound, plain
    functions bound (self dropped), classmethods bound to the class."""
    member = inspect.getattr_static(cls, method_name)
    if isinstance(member, staticmethod):
        return member.__func__
    if isinstance(member, classmethod):
        return member.__get__(None, cls)
    if inspect.isfunction(member):
        return member.__get__(object(), cls)
    return getattr(cls, method_name)


def is_legacy_execute(method) -> bool:
    """The earlier API's ``execute(self, ctx)``: exactly one positional parameter named ``ctx``
    (after binding), called with the execution context instead of IR-bound tensors. CANN tells
    the two styles apart by this test alone, so an op whose only input is named ``ctx`` is legacy."""
    try:
        params = list(inspect.signature(method).parameters.values())
    except (TypeError, ValueError):
        return False
    return len(params) == 1 and params[0].name == "ctx" and params[0].kind in _POSITIONAL


def validate_args_signature(method, ir_meta: dict, descriptor, *, method_name: str) -> None:
    if method_name not in SCHEMA_METHODS:
        raise ValueError(f"unsupported schema callback: {method_name}")
    signature = inspect.signature(method)
    params = list(signature.parameters.values())
    for param in params:
        if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            raise _error(descriptor, method_name, "no variadic parameters", f"variadic parameter {param.name}")

    ir_inputs = ir_meta["inputs"]
    ir_outputs = [] if method_name == "execute" else ir_meta["outputs"]
    ir_attrs = ir_meta["attrs"]
    n_positional = len(ir_inputs) + len(ir_outputs)
    if len(params) != n_positional + len(ir_attrs):
        what = "input" if method_name == "execute" else "input/output"
        raise _error(
            descriptor,
            method_name,
            f"{n_positional} positional {what} parameters followed by {len(ir_attrs)} keyword-only attrs",
            f"{len(params)} parameters",
        )

    hints = _resolved_hints(method, descriptor, method_name)
    for index, item in enumerate(ir_inputs):
        param = params[index]
        if param.kind not in _POSITIONAL:
            raise _error(
                descriptor,
                method_name,
                f"positional input parameter at index {index}",
                f"parameter {param.name} kind {param.kind.name}",
            )
        _check_annotation(
            param, _expected_input(item["kind"]), hints, descriptor, method_name, f"input parameter at index {index}"
        )
    for index, item in enumerate(ir_outputs):
        param = params[len(ir_inputs) + index]
        if param.kind not in _POSITIONAL:
            raise _error(
                descriptor,
                method_name,
                f"positional output parameter at index {index}",
                f"parameter {param.name} kind {param.kind.name}",
            )
        _check_annotation(
            param, _expected_output(item["kind"]), hints, descriptor, method_name, f"output parameter at index {index}"
        )
    for index, item in enumerate(ir_attrs):
        param = params[n_positional + index]
        if param.kind is not inspect.Parameter.KEYWORD_ONLY:
            raise _error(
                descriptor,
                method_name,
                f"keyword-only attr parameter {item['name']}",
                f"parameter {param.name} kind {param.kind.name}",
            )
        if param.name != item["name"]:
            raise _error(
                descriptor, method_name, f"attr name {item['name']} at index {index}", f"attr name {param.name}"
            )
        _, expected = runtime_attr_spec(item["type"], index)
        _check_annotation(param, expected, hints, descriptor, method_name, f"attr parameter {item['name']}")

    if method_name == "execute":
        return  # CANN checks no return annotation on execute (it does on compile/declare_launch_args)
    if signature.return_annotation is inspect.Signature.empty:
        raise _error(descriptor, method_name, "None return annotation", "missing return annotation")
    returned = _canonical(hints.get("return", signature.return_annotation))
    if returned is not type(None):
        raise _error(descriptor, method_name, "None return annotation", repr(returned))


# CANN's private name, kept for code that imports it
_validate_args_signature = validate_args_signature
