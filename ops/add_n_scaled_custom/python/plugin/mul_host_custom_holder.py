"""Holder of MulHostCustom: y = x1 * x2 (float32), a host-CPU kernel.

Its only ``execute`` is registered for OpBackend.HOST, so GE places the node on the host: it
copies x1 and x2 from device memory to host memory before the call and y back to the device
for a device consumer. The tensors the callback sees are host addresses; numpy works on them in
place through ctypes views.
"""

import ctypes

import numpy as np

from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor

OP_TYPE = "MulHostCustom"


def _host_view(tensor: Tensor) -> np.ndarray:
    """A float32 array over the tensor's host memory (no copy)."""
    buffer = (ctypes.c_float * tensor.shape_size).from_address(tensor.addr)
    return np.ctypeslib.as_array(buffer)


@register_op_impl(op_type=OP_TYPE)
class MulHostCustom:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x1: Tensor, x2: Tensor) -> None:
        for name, tensor in (("x1", x1), ("x2", x2)):
            if tensor.data_type != DataType.DT_FLOAT:
                raise TypeError(f"{OP_TYPE}: {name} must be DT_FLOAT, got {DataType(tensor.data_type).name}")
        if list(x1.storage_shape.dims) != list(x2.storage_shape.dims):
            raise ValueError(f"{OP_TYPE}: x1 {list(x1.storage_shape.dims)} and x2 {list(x2.storage_shape.dims)} differ")
        ctx = get_execute_ctx()
        y = ctx.malloc_output_tensor(0, x1.shape, x1.format, x1.data_type)
        np.multiply(_host_view(x1), _host_view(x2), out=_host_view(y))
        print(f"MUL_HOST_EXECUTE shape={list(x1.storage_shape.dims)} placement={int(y.placement)}", flush=True)
