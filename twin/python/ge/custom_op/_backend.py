"""``OpBackend`` and ``register_kernel`` (§1.13): one ``execute`` per backend in a class body.

Both definitions are named ``execute``, so the later one overwrites the class attribute; the
decorator therefore files each function in the class namespace being built
(``__ge_kernel_bindings__``), where ``register_op_impl`` finds them all.
"""

import sys
from enum import Enum
from typing import Any, Dict, Tuple

INTERFACE_EAGER_EXECUTE = "eager_execute"
INTERFACE_HOST_CPU_EXECUTE = "host_cpu_execute"
KERNEL_BINDINGS_ATTR = "__ge_kernel_bindings__"
_BACKEND_MARK = "__ge_op_backend__"


class OpBackend(Enum):
    DEVICE = "device"
    HOST = "host"


BACKEND_INTERFACES = {OpBackend.DEVICE: INTERFACE_EAGER_EXECUTE, OpBackend.HOST: INTERFACE_HOST_CPU_EXECUTE}


def _function_of(member):
    return member.__func__ if isinstance(member, (staticmethod, classmethod)) else member


def register_kernel(*, backend: OpBackend):
    """Marks a class body's ``execute`` as the kernel of ``backend`` (outermost decorator)."""
    if not isinstance(backend, OpBackend):
        raise TypeError("register_kernel backend must be an OpBackend")

    def decorator(member):
        function = _function_of(member)
        if not callable(function) or getattr(function, "__name__", None) != "execute":
            raise TypeError("register_kernel can only decorate a method named execute")
        namespace = sys._getframe(1).f_locals
        if "__module__" not in namespace or "__qualname__" not in namespace:
            raise TypeError("register_kernel must be used on execute inside a class body")
        bindings: Dict[OpBackend, Any] = namespace.setdefault(KERNEL_BINDINGS_ATTR, {})
        if backend in bindings:
            raise TypeError(f"register_kernel: execute for backend {backend.name} is already registered")
        bindings[backend] = member
        setattr(function, _BACKEND_MARK, backend)
        return member

    return decorator


def kernel_bindings(cls: type) -> Dict[OpBackend, Any]:
    """backend -> execute member (function, staticmethod or classmethod) of a registered class.

    An undecorated ``execute`` is the DEVICE kernel; mixing it with decorated ones is an error."""
    bindings: Dict[OpBackend, Any] = {}
    for klass in reversed(cls.__mro__):
        bindings.update(klass.__dict__.get(KERNEL_BINDINGS_ATTR, {}))
    member = None
    for klass in cls.__mro__:
        if "execute" in klass.__dict__:
            member = klass.__dict__["execute"]
            break
    if member is None:
        return bindings
    marked = getattr(_function_of(member), _BACKEND_MARK, None)
    if marked is not None and bindings.get(marked) is not member:
        # e.g. @staticmethod above @register_kernel: the filed function would bind self
        raise TypeError(
            f"register_op_impl class '{cls.__module__}.{cls.__qualname__}': register_kernel must be "
            "the outermost decorator of execute"
        )
    if bindings and marked is None:
        raise TypeError(
            f"register_op_impl class '{cls.__module__}.{cls.__qualname__}' mixes an undecorated "
            "execute with @register_kernel execute definitions"
        )
    if not bindings:
        if callable(_function_of(member)):
            bindings[OpBackend.DEVICE] = member
    return bindings


# kernel_bindings of each class whose execute has run: an execute runs at every graph run, and
# walking the MRO twice cost as much as the rest of the lookup. An entry remembers the class's
# ``execute`` attribute it was computed for, so replacing execute on the class or on a base gives
# another attribute and a new answer (not seen: re-wrapping the same function in staticmethod, or
# editing the private bindings dict). A class that fails kernel_bindings is never remembered.
# Cleared with the bridge's holders (GE finalize, plugin reload), which drops the classes too.
_bindings_by_class: Dict[type, Tuple[object, Dict[OpBackend, Any]]] = {}


def _run_time_bindings(cls: type) -> Dict[OpBackend, Any]:
    current = getattr(cls, "execute", None)
    entry = _bindings_by_class.get(cls)
    if entry is None or entry[0] != current:  # != : a classmethod's execute is a new bound method each time
        entry = _bindings_by_class[cls] = (current, kernel_bindings(cls))
    return entry[1]


def clear_run_time_bindings() -> None:
    _bindings_by_class.clear()


def bound_execute(instance, backend: OpBackend):
    """The ``execute`` of ``backend`` bound as Python binds methods (plain, static or class)."""
    member = _run_time_bindings(type(instance)).get(backend)
    if member is None:
        return None
    return member.__get__(instance, type(instance))


def unbound_execute(cls: type, backend: OpBackend):
    """What signature validation inspects: staticmethods unbound, plain functions bound to a
    dummy self, classmethods bound to the class (as callback_for_signature does)."""
    member = kernel_bindings(cls)[backend]
    if isinstance(member, staticmethod):
        return member.__func__
    if isinstance(member, classmethod):
        return member.__get__(None, cls)
    return member.__get__(object(), cls)
