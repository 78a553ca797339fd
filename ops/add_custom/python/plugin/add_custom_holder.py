"""Compile holder of PythonCompilableAddCustom: z = x1 + x2 over float32.

Loaded by GE from ASCEND_CUSTOM_OPP_PATH (this directory). ``compile`` builds the Ascend C kernel
for the session's SoC with bisheng + llvm-objcopy (through the persistent kernel cache) and keeps
the device binary per (storage dims, dtype); ``declare_launch_args`` only publishes what
``compile`` produced: one launch of ``add_custom(x, y, z)`` with one block per 1024 elements.
"""

import sys
from pathlib import Path
from typing import Tuple

from ascendc_jit import KernelArtifacts, build_kernel, compile_target, kernel_source
from ge.custom_op import AnnotatedKernelLaunchInfo, get_compile_ctx, get_declare_launch_args_ctx, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor

print("PY_COMPILE_MODULE_LOADED=1", flush=True)

OP_TYPE = "PythonCompilableAddCustom"
KERNEL_NAME = "add_custom"
BLOCK_LENGTH = 1024  # elements per AI core block; must match the kernel's BLOCK_LENGTH
# The twin's compiler passes this option ("online" for Session, "offline" for atc).
COMPILE_MODE_OPTION = "ge.twin.compileMode"
# Overrides the kernel source (tests use it to feed a kernel that does not compile).
KERNEL_SOURCE_ENV = "ADD_CUSTOM_KERNEL_SOURCE"

ArtifactKey = Tuple[Tuple[int, ...], str]


def _kernel_source() -> Path:
    return kernel_source(__file__, "add_custom.asc", KERNEL_SOURCE_ENV)


def _artifact_key(x1: Tensor, x2: Tensor, y: Tensor) -> ArtifactKey:
    """Validates the node's tensors and returns the cache key (storage dims, dtype)."""
    dims = [tuple(t.storage_shape.dims) for t in (x1, x2, y)]
    if dims[0] != dims[1] or dims[0] != dims[2]:
        raise ValueError(f"{OP_TYPE}: shapes must match, got x1={list(dims[0])} x2={list(dims[1])} y={list(dims[2])}")
    for name, tensor in (("x1", x1), ("x2", x2), ("y", y)):
        if tensor.data_type != DataType.DT_FLOAT:
            raise TypeError(f"{OP_TYPE}: {name} must be DT_FLOAT (float32), got {DataType(tensor.data_type).name}")
    count = x1.shape_size
    if count <= 0 or count % BLOCK_LENGTH:
        raise ValueError(
            f"{OP_TYPE}: element count {count} (shape {list(dims[0])}) must be a positive multiple of {BLOCK_LENGTH}"
        )
    return dims[0], DataType(x1.data_type).name


def _compile_mode() -> str:
    try:
        return get_compile_ctx().get_option(COMPILE_MODE_OPTION)
    except KeyError:
        return "unknown"


def _build(soc: str, arch: str, key: ArtifactKey) -> bytes:
    build = build_kernel(_kernel_source(), soc=soc, npu_arch=arch, op_type=OP_TYPE, kernel_name=KERNEL_NAME)
    print(
        f"ADD_CUSTOM_KERNEL source={'cache' if build.from_cache else 'bisheng'} soc={soc} "
        f"shape={list(key[0])} bytes={len(build.binary)}",
        file=sys.stderr,
        flush=True,
    )
    return build.binary


@register_op_impl(op_type=OP_TYPE)
class PythonCompilableAddCustom:
    def __init__(self) -> None:
        self._kernels: KernelArtifacts[bytes] = KernelArtifacts(OP_TYPE)

    def compile(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        soc, arch = target = compile_target()
        print(
            f"PY_COMPILE_CALLBACK_ENTER=1 mode={_compile_mode()} soc={soc} arch={arch} "
            f"shape={list(x1.storage_shape.dims)}",
            flush=True,
        )
        key = _artifact_key(x1, x2, y)
        self._kernels.build(target, key, lambda soc, arch: _build(soc, arch, key))

    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        key = _artifact_key(x1, x2, y)
        binary = self._kernels.get(key, f"shape {list(key[0])} dtype {key[1]}")
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, x1)
        args.append_input(1, x2)
        args.append_output(0, y)
        launch = AnnotatedKernelLaunchInfo(
            kernel_name=KERNEL_NAME,
            kernel_bin=binary,
            block_dim=x1.shape_size // BLOCK_LENGTH,
            stream_id=ctx.get_stream_id(),
        )
        ctx.add_launch(launch, args)
