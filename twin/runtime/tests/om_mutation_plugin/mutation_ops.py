"""Ops of the version-2 (Python-run) OM mutation run, loaded as a plugin from
ASCEND_CUSTOM_OPP_PATH by the model loader:

- MutAdd   : kernel node, z = x + y by vadd_f32 of the runtime's test kernels ($MUTATION_KERNELS);
- MutScale : host execute, y = 2 * x.
"""

import ctypes
import os

import numpy as np

from ge.custom_op import (AnnotatedKernelLaunchInfo, OpBackend, get_declare_launch_args_ctx, get_execute_ctx,
                          register_kernel, register_op, register_op_impl)
from ge.runtime import Tensor, TensorDesc


def _same(x: TensorDesc) -> TensorDesc:
    return TensorDesc(list(x.shape.storage_shape.dims), x.data_type)


def _host_floats(tensor: Tensor) -> np.ndarray:
    count = tensor.shape_size
    return np.ctypeslib.as_array((ctypes.c_float * count).from_address(tensor.addr)) if count else np.empty(0)


@register_op(op_type="MutAdd")
def mut_add(x1: TensorDesc, x2: TensorDesc) -> TensorDesc:
    return _same(x1)


@register_op(op_type="MutScale")
def mut_scale(x: TensorDesc) -> TensorDesc:
    return _same(x)


@register_op_impl(op_type="MutAdd")
class MutAdd:
    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        with open(os.environ["MUTATION_KERNELS"], "rb") as f:
            binary = f.read()
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, x1)
        args.append_input(1, x2)
        args.append_output(0, y)
        args.append_scalar(x1.shape_size)
        ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="vadd_f32", kernel_bin=binary, block_dim=2,
                                                 stream_id=ctx.get_stream_id()), args)


@register_op_impl(op_type="MutScale")
class MutScale:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x: Tensor) -> None:
        y = get_execute_ctx().malloc_output_tensor(0, x.shape, x.format, x.data_type)
        _host_floats(y)[...] = 2 * _host_floats(x)
