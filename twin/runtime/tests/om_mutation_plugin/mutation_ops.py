"""Ops of the version-2 (Python-run) OM mutation run, loaded as a plugin from
ASCEND_CUSTOM_OPP_PATH by the model loader:

- MutAdd   : kernel node, z = x + y by vadd_f32 of the runtime's test kernels ($MUTATION_KERNELS);
- MutScale : host execute, y = 2 * x.
"""

import os

from op_test_support import declare_vadd_f32, host_floats, same_desc

from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
from ge.runtime import Tensor, TensorDesc


@register_op(op_type="MutAdd")
def mut_add(x1: TensorDesc, x2: TensorDesc) -> TensorDesc:
    return same_desc(x1)


@register_op(op_type="MutScale")
def mut_scale(x: TensorDesc) -> TensorDesc:
    return same_desc(x)


@register_op_impl(op_type="MutAdd")
class MutAdd:
    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        with open(os.environ["MUTATION_KERNELS"], "rb") as f:
            declare_vadd_f32(f.read(), x1, x2, y)


@register_op_impl(op_type="MutScale")
class MutScale:
    @register_kernel(backend=OpBackend.HOST)
    def execute(self, x: Tensor) -> None:
        y = get_execute_ctx().malloc_output_tensor(0, x.shape, x.format, x.data_type)
        host_floats(y)[...] = 2 * host_floats(x)
