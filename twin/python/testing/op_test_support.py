"""Pieces the test operators of twin/python/tests (stepped_ops.py) and of the runtime's OM
mutation run (twin/runtime/tests/om_mutation_plugin) share: float32 tensors, a same-shape
inference result, host-memory views, and the launch of the runtime's test kernel vadd_f32."""

import ctypes

import numpy as np

from ge.custom_op import AnnotatedKernelLaunchInfo, get_declare_launch_args_ctx
from ge.runtime import Tensor, TensorDesc

VADD_BLOCKS = 2


def same_desc(x: TensorDesc) -> TensorDesc:
    """An inference result of x's shape and data type."""
    return TensorDesc(list(x.shape.storage_shape.dims), x.data_type)


def host_floats(tensor: Tensor) -> np.ndarray:
    """A view (not a copy) of a float32 tensor in host memory, in its storage shape."""
    count = tensor.shape_size
    flat = (
        np.ctypeslib.as_array((ctypes.c_float * count).from_address(tensor.addr))
        if count
        else np.empty(0, dtype=np.float32)
    )
    return flat.reshape(tensor.storage_shape.dims)


def declare_vadd_f32(kernel_bin: bytes, x1: Tensor, x2: Tensor, y: Tensor) -> None:
    """declare_launch_args of y = x1 + x2 by vadd_f32 of the runtime's test kernels
    (twin/runtime/model/tests/kernels): arguments x1, x2, y and the element count."""
    ctx = get_declare_launch_args_ctx()
    args = ctx.create_kernel_args()
    args.append_input(0, x1)
    args.append_input(1, x2)
    args.append_output(0, y)
    args.append_scalar(x1.shape_size)
    ctx.add_launch(
        AnnotatedKernelLaunchInfo(
            kernel_name="vadd_f32", kernel_bin=kernel_bin, block_dim=VADD_BLOCKS, stream_id=ctx.get_stream_id()
        ),
        args,
    )
