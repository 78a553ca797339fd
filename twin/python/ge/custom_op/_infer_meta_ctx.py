"""InferMetaContext: inputs of a Python infer_meta as owned TensorDesc copies (§1.9)."""

from typing import Optional

from ge.runtime import StorageShape, TensorDesc
from ge.runtime._meta import TensorMeta

from . import _node
from ._attrs import RuntimeAttrs
from ._ctx_base import BorrowedContext
from ._node import NodeSpec


def _desc_of(meta: TensorMeta) -> TensorDesc:
    return TensorDesc(StorageShape(list(meta.origin_dims), list(meta.storage_dims)), meta.data_type)


class InferMetaContext(BorrowedContext):
    __slots__ = ()

    @classmethod
    def _create(cls, node: NodeSpec) -> "InferMetaContext":
        ctx = object.__new__(cls)
        ctx._init_borrowed(node)
        return ctx

    def get_required_input_tensor(self, ir_index: int) -> TensorDesc:
        return _desc_of(_node.required_instance(self._alive().inputs, ir_index, "input"))

    def get_optional_input_tensor(self, ir_index: int) -> Optional[TensorDesc]:
        meta = _node.optional_instance(self._alive().inputs, ir_index, "input")
        return None if meta is None else _desc_of(meta)

    def get_dynamic_input_num(self, ir_index: int) -> int:
        return _node.dynamic_count(self._alive().inputs, ir_index, "input")

    def get_dynamic_input_tensor(self, ir_index: int, relative_index: int) -> TensorDesc:
        return _desc_of(_node.dynamic_instance(self._alive().inputs, ir_index, relative_index, "input"))

    def get_attrs(self) -> RuntimeAttrs:
        return RuntimeAttrs._borrow(self._alive().attrs, self._lease)

    def get_dynamic_output_num(self, ir_index: int) -> int:
        return _node.dynamic_count(self._alive().outputs, ir_index, "output")
