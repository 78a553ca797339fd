"""EagerOpExecutionContext: the context of a schema-bound ``execute`` callback (§1.8), and the
part it shares with the host backend's HostCpuOpExecutionContext (_host_ctx.py).

Memory comes from the runtime through ``allocator.malloc(size) -> int`` (a device address for
the device backend, a host address for the host one); the allocator object is supplied by
whoever runs the node (the twin's graph executor).
"""

from typing import List, Optional, Protocol

from ge.graph import _dtype
from ge.graph.types import DataType
from ge.runtime import StorageFormat, StorageShape, Tensor
from ge.runtime._meta import TensorMeta, TensorPlacement, element_count

from . import _node
from ._attrs import RuntimeAttrs
from ._ctx_base import BorrowedContext
from ._node import NodeSpec


class DeviceAllocator(Protocol):
    def malloc(self, size: int) -> int: ...


def _index(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TypeError(f"incompatible function arguments: {what} must be a non-negative int")
    return value


class ExecutionContextBase(BorrowedContext):
    """Inputs, attrs and outputs of a node being executed (both backends)."""

    __slots__ = ("_allocator", "_outputs")
    _PLACEMENT = TensorPlacement.ON_DEVICE_HBM

    def _init_execution(self, node: NodeSpec, allocator: DeviceAllocator, output_count: Optional[int]) -> None:
        self._init_borrowed(node)
        if allocator is None:
            raise ValueError(f"{type(self).__name__} needs an allocator")
        self._allocator = allocator
        count = len(node.output_instances) if output_count is None else output_count
        self._outputs: List[Optional[TensorMeta]] = [None] * count

    def _borrow(self, meta: TensorMeta) -> Tensor:
        return Tensor._borrow(meta, self._lease)

    def get_input_num(self) -> int:
        return len(self._alive().input_instances)

    def get_input_tensor(self, index: int) -> Tensor:
        inputs = self._alive().input_instances
        if not 0 <= _index(index, "index") < len(inputs):
            raise RuntimeError(f"Failed to get input tensor at index {index}")
        return self._borrow(inputs[index])

    def get_required_input_tensor(self, ir_index: int) -> Tensor:
        return self._borrow(_node.required_instance(self._alive().inputs, ir_index, "input"))

    def get_optional_input_tensor(self, ir_index: int) -> Optional[Tensor]:
        meta = _node.optional_instance(self._alive().inputs, ir_index, "input")
        return None if meta is None else self._borrow(meta)

    def get_dynamic_input_num(self, ir_index: int) -> int:
        return _node.dynamic_count(self._alive().inputs, ir_index, "input")

    def get_dynamic_input_tensor(self, ir_index: int, relative_index: int) -> Tensor:
        return self._borrow(_node.dynamic_instance(self._alive().inputs, ir_index, relative_index, "input"))

    def get_attrs(self) -> RuntimeAttrs:
        return RuntimeAttrs._borrow(self._alive().attrs, self._lease)

    def _output_slot(self, index) -> int:
        self._alive()
        if not 0 <= _index(index, "index") < len(self._outputs):
            raise RuntimeError(f"Failed to get output tensor at index {index}: op has {len(self._outputs)} outputs")
        return index

    def malloc_output_tensor(self, index: int, shape: StorageShape, format: StorageFormat, dtype) -> Tensor:
        slot = self._output_slot(index)
        if not isinstance(shape, StorageShape) or not isinstance(format, StorageFormat):
            raise TypeError("incompatible function arguments: shape must be a StorageShape and format a StorageFormat")
        dtype = DataType(int(dtype))
        storage = shape.storage_shape.dims
        count = element_count(storage)
        if count < 0:
            raise RuntimeError(f"Failed to malloc output tensor {index}: shape {storage} is not static")
        size = _dtype.bytes_for(dtype, count)
        try:
            addr = int(self._allocator.malloc(max(size, 1)))
        except Exception as exc:
            raise RuntimeError(f"Failed to malloc output tensor {index} of {size} bytes: {exc}") from exc
        meta = TensorMeta(
            dtype,
            storage,
            shape.origin_shape.dims,
            format.storage_format,
            format.origin_format,
            addr=addr,
            placement=self._PLACEMENT,
            expand_dims_type=format.expand_dims_type._to_int(),
        )
        self._outputs[slot] = meta
        return self._borrow(meta)

    def make_output_ref_input(self, output_index: int, input_index: int) -> Tensor:
        slot = self._output_slot(output_index)
        source = self.get_input_tensor(input_index)._meta
        self._outputs[slot] = source
        return self._borrow(source)

    def get_output_tensor(self, index: int) -> Tensor:
        slot = self._output_slot(index)
        meta = self._outputs[slot]
        if meta is None:
            raise RuntimeError(f"Failed to get output tensor at index {index}: not allocated")
        return self._borrow(meta)

    def _take_outputs(self) -> List[Optional[TensorMeta]]:
        """Output tensors produced by the callback, for the runtime (readable after it ended)."""
        return list(self._outputs)


class EagerOpExecutionContext(ExecutionContextBase):
    __slots__ = ("_stream",)
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _stream: int

    @classmethod
    def _create(
        cls, node: NodeSpec, *, stream: int, allocator: DeviceAllocator, output_count: Optional[int] = None
    ) -> "EagerOpExecutionContext":
        ctx = object.__new__(cls)
        ctx._init_execution(node, allocator, output_count)
        ctx._stream = stream
        return ctx

    def malloc_workspace(self, size: int) -> int:
        self._alive()
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise TypeError("incompatible function arguments: size must be a non-negative int")
        try:
            return int(self._allocator.malloc(size))
        except Exception as exc:
            raise RuntimeError(f"Failed to malloc workspace of {size} bytes: {exc}") from exc

    def get_stream(self) -> int:
        self._alive()
        return self._stream
