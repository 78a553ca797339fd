"""register_op_impl and the process-global registry of Python op implementations (§1.2)."""

import inspect
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple, Type

from ._backend import (  # noqa: F401
    BACKEND_INTERFACES,
    INTERFACE_EAGER_EXECUTE,
    INTERFACE_HOST_CPU_EXECUTE,
    OpBackend,
    kernel_bindings,
    register_kernel,
)

INTERFACE_COMPILABLE = "compilable"
INTERFACE_ANNOTATED_ARGS = "annotated_args"

# (interface, method name) in the order CANN reports them; execute's interfaces come from its
# backends (register_kernel)
_CAPABILITIES = (
    (INTERFACE_COMPILABLE, "compile"),
    (INTERFACE_ANNOTATED_ARGS, "declare_launch_args"),
)


@dataclass(frozen=True)
class OpImplDescriptor:
    descriptor_key: str
    op_type: str
    module_name: str
    class_name: str
    interfaces: List[str] = field(default_factory=list)
    cls: Type[Any] = field(default=object, compare=False, repr=False)
    kernel_bindings: Tuple[str, ...] = ()  # OpBackend values with an execute, e.g. ("device", "host")

    def to_bridge_dict(self) -> dict:
        return {
            "descriptor_key": self.descriptor_key,
            "op_type": self.op_type,
            "module_name": self.module_name,
            "class_name": self.class_name,
            "interfaces": list(self.interfaces),
            "kernel_bindings": list(self.kernel_bindings),
        }


_lock = threading.RLock()
_by_key: Dict[str, OpImplDescriptor] = {}
_by_op_type: Dict[str, OpImplDescriptor] = {}


def _interfaces_of(cls: type) -> List[str]:
    backends = kernel_bindings(cls)
    found = [BACKEND_INTERFACES[b] for b in OpBackend if b in backends]
    for interface, method_name in _CAPABILITIES:
        member = getattr(cls, method_name, None)
        # compile is schema-bound only, so a non-callable compile is a definition error
        if interface == INTERFACE_COMPILABLE and hasattr(cls, method_name) and not callable(member):
            raise TypeError(f"{method_name} must be callable")
        if callable(member):
            found.append(interface)
    if not found:
        methods = ", ".join(["execute"] + [name for _, name in _CAPABILITIES])
        raise TypeError(
            f"register_op_impl class '{cls.__module__}.{cls.__qualname__}' must implement "
            f"at least one supported method: {methods}"
        )
    return found


def _add(descriptor: OpImplDescriptor) -> None:
    with _lock:
        if descriptor.descriptor_key in _by_key:
            raise ValueError(f"python op impl descriptor_key already exists: {descriptor.descriptor_key}")
        if descriptor.op_type in _by_op_type:
            raise ValueError(f"python op impl type already exists: {descriptor.op_type}")
        _by_key[descriptor.descriptor_key] = descriptor
        _by_op_type[descriptor.op_type] = descriptor


def register_op_impl(*, op_type: str):
    """Class decorator registering a Python implementation of ``op_type``."""
    if not isinstance(op_type, str) or not op_type:
        raise TypeError("register_op_impl op_type must be a non-empty string")

    def decorator(cls):
        if not inspect.isclass(cls):
            raise TypeError("register_op_impl expects a class")
        if inspect.isabstract(cls):
            raise TypeError("register_op_impl expects a concrete class")
        descriptor = OpImplDescriptor(
            descriptor_key=f"{cls.__module__}:{cls.__name__}:{op_type}",
            op_type=op_type,
            module_name=cls.__module__,
            class_name=cls.__name__,
            interfaces=_interfaces_of(cls),
            cls=cls,
            kernel_bindings=tuple(b.value for b in OpBackend if b in kernel_bindings(cls)),
        )
        _add(descriptor)
        cls.__ge_op_impl_descriptor__ = descriptor
        return cls

    return decorator


def clear_registered_op_impls() -> None:
    with _lock:
        _by_key.clear()
        _by_op_type.clear()


def get_registered_op_impls() -> List[OpImplDescriptor]:
    with _lock:
        return list(_by_key.values())


def get_registered_op_impl_dicts() -> List[dict]:
    return [d.to_bridge_dict() for d in get_registered_op_impls()]


def get_registered_op_impl_by_descriptor_key(descriptor_key: str) -> Optional[OpImplDescriptor]:
    with _lock:
        return _by_key.get(descriptor_key)


def get_registered_op_impl_by_op_type(op_type: str) -> Optional[OpImplDescriptor]:
    """Twin helper for the graph compiler (CANN resolves impls by type in C++)."""
    with _lock:
        return _by_op_type.get(op_type)
