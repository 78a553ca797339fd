"""Shared part of the borrowed callback contexts: node tensor lookups by IR index."""

from typing import Optional

from ge._lease import NATIVE_EXPIRED, Lease
from ge.runtime import Tensor

from . import _node
from ._attrs import RuntimeAttrs
from ._node import NodeSpec


class BorrowedContext:
    """Base of contexts that exist only during one callback; ``_invalidate`` ends them."""

    __slots__ = ("_node", "_lease")

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError(f"ge.custom_op.{type(self).__name__}: No constructor defined!")

    def _init_borrowed(self, node: NodeSpec) -> None:
        if not isinstance(node, NodeSpec):
            raise ValueError(f"{type(self).__name__} needs a NodeSpec, got {type(node).__name__}")
        self._node = node
        self._lease = Lease()

    def _alive(self) -> NodeSpec:
        self._lease.check(NATIVE_EXPIRED)
        return self._node

    def _invalidate(self) -> None:
        self._lease.expire()


class SchemaTensorAccess(BorrowedContext):
    """The private getters the bridge uses to assemble schema-bound arguments."""

    __slots__ = ()

    def _get_required_input_tensor(self, ir_index: int) -> Tensor:
        meta = _node.required_instance(self._alive().inputs, ir_index, "input")
        return Tensor._borrow(meta, self._lease)

    def _get_optional_input_tensor(self, ir_index: int) -> Optional[Tensor]:
        meta = _node.optional_instance(self._alive().inputs, ir_index, "input")
        return None if meta is None else Tensor._borrow(meta, self._lease)

    def _get_dynamic_input_num(self, ir_index: int) -> int:
        return _node.dynamic_count(self._alive().inputs, ir_index, "input")

    def _get_dynamic_input_tensor(self, ir_index: int, relative_index: int) -> Tensor:
        meta = _node.dynamic_instance(self._alive().inputs, ir_index, relative_index, "input")
        return Tensor._borrow(meta, self._lease)

    def _get_required_output_tensor(self, ir_index: int) -> Tensor:
        meta = _node.required_instance(self._alive().outputs, ir_index, "output")
        return Tensor._borrow(meta, self._lease)

    def _get_dynamic_output_num(self, ir_index: int) -> int:
        return _node.dynamic_count(self._alive().outputs, ir_index, "output")

    def _get_dynamic_output_tensor(self, ir_index: int, relative_index: int) -> Tensor:
        meta = _node.dynamic_instance(self._alive().outputs, ir_index, relative_index, "output")
        return Tensor._borrow(meta, self._lease)

    def _get_attrs(self) -> RuntimeAttrs:
        return RuntimeAttrs._borrow(self._alive().attrs, self._lease)
