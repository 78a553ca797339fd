"""Base classes of Python custom ops (CANN: ge.custom_op.base).

Inheriting is optional: register_op_impl finds ``execute`` on any class. ``EagerExecuteOp`` is
the earlier API's base class, kept so code of either CANN release runs; its ``execute`` may be
the legacy ``execute(self, ctx)`` (inputs read with ``ctx.get_input_tensor(i)``) or schema-bound
``execute(self, x, y, *, attr)``: the bridge tells them apart by the signature (see _signature.py).
"""

from abc import ABC, abstractmethod


class BaseCustomOp(ABC):
    """Base class for Python custom ops."""


class EagerExecuteOp(BaseCustomOp):
    """Base class for Python eager execute custom ops."""

    @abstractmethod
    def execute(self, *args, **kwargs) -> None:
        """Execute with either the legacy context or schema-bound arguments."""
        raise NotImplementedError
