"""Entry points the graph compiler calls (CANN: ge.custom_op._bridge, §1.11).

Holders: one instance of the registered class per instance id ``"<descriptor_key>#<seq>"``,
created with a no-argument constructor. Each ``call_*`` assembles positional tensors in IR order
(inputs, then outputs for compile/declare), attrs as keyword arguments, runs the callback inside
its ContextVar scope and invalidates the context afterwards — whatever happened.
"""

import itertools
import sys
import threading
from dataclasses import dataclass
from typing import Any, Dict, Optional

from ._backend import BACKEND_INTERFACES, OpBackend, bound_execute, clear_run_time_bindings, unbound_execute
from ._infer_meta import call_infer_meta  # noqa: F401  (bridge entry point)
from ._ir_types import InputType, OutputType
from ._signature import callback_for_signature, is_legacy_execute, runtime_attr_spec, validate_args_signature
from .bootstrap import MODULE_PREFIX, get_registered_op_impls, get_registered_op_protos, load_custom_op_plugins
from .context import _compile_ctx_scope, _declare_launch_args_ctx_scope, _execute_ctx_scope
from .registry import INTERFACE_ANNOTATED_ARGS, INTERFACE_COMPILABLE, get_registered_op_impl_by_descriptor_key


@dataclass
class _Holder:
    descriptor_key: str
    instance_id: str
    instance: Any  # an instance of the user's @register_op_impl class


_holders_lock = threading.RLock()
_holders: Dict[str, _Holder] = {}
_sequence = itertools.count()


def load_and_get_op_impl_descriptors() -> list:
    load_custom_op_plugins()
    return get_registered_op_impls()


def load_and_get_op_descriptors() -> dict:
    load_custom_op_plugins()
    return {"protos": get_registered_op_protos(), "impls": get_registered_op_impls()}


def new_instance_id(descriptor_key: str) -> str:
    """A fresh ``<descriptor_key>#<seq>`` id (CANN's C++ adapter makes these)."""
    return f"{descriptor_key}#{next(_sequence)}"


def create_op_impl_holder(instance_id: str, descriptor_key: str) -> bool:
    descriptor = get_registered_op_impl_by_descriptor_key(descriptor_key)
    if descriptor is None:
        raise KeyError(f"python op impl descriptor_key not found: {descriptor_key}")
    with _holders_lock:
        if instance_id not in _holders:
            _holders[instance_id] = _Holder(descriptor_key, instance_id, descriptor.cls())
    return True


def destroy_op_impl_holder(instance_id: str) -> bool:
    with _holders_lock:
        return _holders.pop(instance_id, None) is not None


def get_op_impl_holder_instance(instance_id: str) -> object:
    """The Python object behind a holder (twin helper, e.g. for cache inspection in tests)."""
    return _holder(instance_id).instance


def _holder(instance_id: str) -> _Holder:
    with _holders_lock:
        holder = _holders.get(instance_id)
    if holder is None:
        raise KeyError(f"python op impl holder is not created: {instance_id}")
    return holder


def validate_op_impl_descriptor(descriptor_key: str, ir_meta: Optional[dict]) -> bool:
    descriptor = get_registered_op_impl_by_descriptor_key(descriptor_key)
    if descriptor is None:
        raise KeyError(f"python op impl descriptor_key not found: {descriptor_key}")
    checks: list[tuple[str, str, Optional[OpBackend]]] = [
        (BACKEND_INTERFACES[backend], "execute", backend) for backend in OpBackend
    ]
    checks += [(INTERFACE_COMPILABLE, "compile", None), (INTERFACE_ANNOTATED_ARGS, "declare_launch_args", None)]
    for interface, method_name, backend in checks:
        if interface not in descriptor.interfaces:
            continue
        method = (
            unbound_execute(descriptor.cls, backend)
            if backend is not None
            else callback_for_signature(descriptor.cls, method_name)
        )
        if backend is not None and is_legacy_execute(method):
            continue  # execute(self, ctx) reads its inputs from ctx: no IR binding to check
        if ir_meta is None:
            suffix = f": {descriptor.op_type}" if method_name == "execute" else ""
            raise RuntimeError(f"canonical IR not found for schema-bound {method_name}{suffix}")
        validate_args_signature(method, ir_meta, descriptor, method_name=method_name)
    return True


# Signatures call_compile has checked: (class, callable, code, frozen ir_meta). Reference
# (§1.3): CANN validates once per descriptor when it loads plugins and its call_compile
# re-validates on every call. Re-validating costs 140-250 us per call; the result depends only
# on the callable and the IR, so a successful check is remembered for that exact pair. Anything
# that can change the answer gives a new key and is checked again: another IR, another class, a
# method replaced on the class or the instance, or a function whose __code__ was swapped.
# Not re-checked (documented choice): in-place edits of a function's __annotations__ or
# __signature__, or string annotations whose module globals are rebound after the first check.
# Failures are never remembered, so a bad signature raises on every call.
_SIGNATURE_CACHE_LIMIT = 4096
_checked_signatures: set = set()


def _frozen(value):
    """A hashable copy of ir_meta (dicts, lists and scalars)."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(item) for item in value)
    return value


def _signature_key(instance, method, ir_meta: dict):
    function = getattr(method, "__func__", method)  # bound/class methods: the function itself
    try:
        # type(method): the same function bound (self dropped) or plain has another signature
        key = (type(instance), type(method), function, getattr(function, "__code__", None), _frozen(ir_meta))
        hash(key)
    except TypeError:  # an unhashable callable or IR value: check every time
        return None
    return key


def _validate_compile_signature(holder: _Holder, method, ir_meta: dict) -> None:
    key = _signature_key(holder.instance, method, ir_meta)
    if key is not None and key in _checked_signatures:
        return
    validate_args_signature(method, ir_meta, holder.instance.__ge_op_impl_descriptor__, method_name="compile")
    if key is not None:
        if len(_checked_signatures) >= _SIGNATURE_CACHE_LIMIT:
            _checked_signatures.clear()
        _checked_signatures.add(key)


def _inputs(ir_inputs, required, optional, dynamic_num, dynamic) -> list:
    args = []
    for ir_index, item in enumerate(ir_inputs):
        kind = item["kind"]
        if kind == InputType.REQUIRED:
            args.append(required(ir_index))
        elif kind == InputType.OPTIONAL:
            args.append(optional(ir_index))
        elif kind == InputType.DYNAMIC:
            args.append([dynamic(ir_index, rel) for rel in range(dynamic_num(ir_index))])
        else:
            raise ValueError(f"unsupported custom op IR input kind: {kind}, ir index: {ir_index}")
    return args


def _outputs(ctx, ir_outputs) -> list:
    args = []
    for ir_index, item in enumerate(ir_outputs):
        kind = item["kind"]
        if kind == OutputType.REQUIRED:
            args.append(ctx._get_required_output_tensor(ir_index))
        elif kind == OutputType.DYNAMIC:
            args.append(
                [ctx._get_dynamic_output_tensor(ir_index, rel) for rel in range(ctx._get_dynamic_output_num(ir_index))]
            )
        else:
            raise ValueError(f"unsupported custom op IR output kind: {kind}")
    return args


def _attrs(get_attrs, ir_attrs) -> dict:
    if not ir_attrs:
        return {}
    attrs = get_attrs()
    return {
        item["name"]: getattr(attrs, runtime_attr_spec(item["type"], index)[0])(index)
        for index, item in enumerate(ir_attrs)
    }


def _schema_arguments(ctx, ir_meta: dict):
    args = _inputs(
        ir_meta["inputs"],
        ctx._get_required_input_tensor,
        ctx._get_optional_input_tensor,
        ctx._get_dynamic_input_num,
        ctx._get_dynamic_input_tensor,
    )
    args.extend(_outputs(ctx, ir_meta["outputs"]))
    return args, _attrs(ctx._get_attrs, ir_meta["attrs"])


def call_execute(instance_id: str, ir_meta: Optional[dict], ctx, backend: OpBackend = OpBackend.DEVICE) -> None:
    """Runs the ``execute`` registered for ``backend`` (an undecorated execute is DEVICE's):
    the legacy ``execute(self, ctx)`` gets the context, a schema-bound one the IR-bound inputs
    and attrs. Either runs inside the execute-context scope, and what it returns is ignored, as
    in CANN."""
    try:
        holder = _holder(instance_id)
        method = bound_execute(holder.instance, backend)
        if not callable(method):
            raise TypeError(
                f"python op impl does not implement callable execute for backend {backend.name}: {instance_id}"
            )
        if is_legacy_execute(method):
            args, kwargs = [ctx], {}
        else:
            if ir_meta is None:
                op_type = holder.instance.__ge_op_impl_descriptor__.op_type
                raise RuntimeError(f"canonical IR not found for schema-bound execute: {op_type}")
            args = _inputs(
                ir_meta["inputs"],
                ctx.get_required_input_tensor,
                ctx.get_optional_input_tensor,
                ctx.get_dynamic_input_num,
                ctx.get_dynamic_input_tensor,
            )
            kwargs = _attrs(ctx.get_attrs, ir_meta["attrs"])
        with _execute_ctx_scope(ctx):
            method(*args, **kwargs)
    finally:
        ctx._invalidate()


def call_compile(instance_id: str, ir_meta: Optional[dict], ctx) -> None:
    try:
        holder = _holder(instance_id)
        method = getattr(holder.instance, "compile", None)
        if not callable(method):
            raise TypeError(f"python op impl does not implement compile: {instance_id}")
        if ir_meta is None:
            raise RuntimeError("canonical IR not found for schema-bound compile")
        _validate_compile_signature(holder, method, ir_meta)
        args, kwargs = _schema_arguments(ctx, ir_meta)
        with _compile_ctx_scope(ctx):
            result = method(*args, **kwargs)
        if result is not None:
            raise TypeError("compile must return None")
    finally:
        ctx._invalidate()


def call_declare_launch_args(instance_id: str, ir_meta: Optional[dict], ctx) -> None:
    try:
        holder = _holder(instance_id)
        method = getattr(holder.instance, "declare_launch_args", None)
        if not callable(method):
            raise TypeError(f"python op impl does not implement declare_launch_args: {instance_id}")
        if ir_meta is None:
            raise RuntimeError("canonical IR not found for schema-bound declare_launch_args")
        args, kwargs = _schema_arguments(ctx, ir_meta)
        with _declare_launch_args_ctx_scope(ctx):
            result = method(*args, **kwargs)
        if result is not None:
            raise TypeError("declare_launch_args must return None")
    finally:
        ctx._invalidate()


def clear_op_impl_holders() -> None:
    with _holders_lock:
        _holders.clear()
    _checked_signatures.clear()  # drops the references to plugin classes too
    clear_run_time_bindings()


def clear_loaded_op_impl_modules() -> None:
    for name in [n for n in sys.modules if n.startswith(MODULE_PREFIX)]:
        del sys.modules[name]
