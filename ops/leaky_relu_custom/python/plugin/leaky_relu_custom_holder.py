"""Compile holder of LeakyReluCustom: y = x >= 0 ? x : x * negative_slope over float16/float32.

Loaded by GE from ASCEND_CUSTOM_OPP_PATH (this directory). ``compile`` builds the Ascend C kernel
(one binary with a half and a float kernel) for the session's SoC through the toolkit
``ascendc_jit`` and computes the tiling for the node's shape; ``declare_launch_args`` publishes one
launch of ``leaky_relu_custom_<dtype>(x, y, workspace, totalLength, tiling)``: two tensors, a GE
workspace, the element count as a scalar and the 16-byte tiling struct as two scalar slots.
"""

import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Tuple

from ascendc_jit import KernelArtifacts, build_kernel, compile_target, kernel_source
from ge.custom_op import (
    AnnotatedKernelLaunchInfo,
    get_compile_ctx,
    get_compile_platform_info,
    get_declare_launch_args_ctx,
    register_op_impl,
)
from ge.graph import DataType
from ge.runtime import Tensor

print("LEAKY_RELU_MODULE_LOADED=1", flush=True)

OP_TYPE = "LeakyReluCustom"
KERNELS = {DataType.DT_FLOAT16: "leaky_relu_custom_half", DataType.DT_FLOAT: "leaky_relu_custom_float"}
ELEMENT_BYTES = {DataType.DT_FLOAT16: 2, DataType.DT_FLOAT: 4}
TILE_BYTES = 8192  # one UB tile of x (and of y): 4096 halves or 2048 floats
WORKSPACE_RECORD_BYTES = 32  # per-block record the kernel writes (kernel/leaky_relu_custom.asc)
# LeakyReluTiling of kernel/leaky_relu_tiling.h: blockLength, tileLength, negativeSlope, blockNum.
TILING_FORMAT = "<IIfI"
COMPILE_MODE_OPTION = "ge.twin.compileMode"
# Overrides the kernel source (tests use it to feed a kernel that does not compile).
KERNEL_SOURCE_ENV = "LEAKY_RELU_CUSTOM_KERNEL_SOURCE"

ArtifactKey = Tuple[Tuple[int, ...], str, float]


@dataclass(frozen=True)
class Launch:
    binary: bytes
    kernel_name: str
    total: int
    block_dim: int
    tiling: bytes


def _kernel_source() -> Path:
    return kernel_source(__file__, "leaky_relu_custom.asc", KERNEL_SOURCE_ENV)


def _artifact_key(x: Tensor, y: Tensor, negative_slope: float) -> ArtifactKey:
    """Validates the node's tensors and returns the artifact key (storage dims, dtype, slope)."""
    dims = tuple(x.storage_shape.dims)
    if tuple(y.storage_shape.dims) != dims:
        raise ValueError(f"{OP_TYPE}: y shape {list(y.storage_shape.dims)} differs from x shape {list(dims)}")
    if x.data_type not in KERNELS:
        raise TypeError(f"{OP_TYPE}: x must be DT_FLOAT16 or DT_FLOAT, got {DataType(x.data_type).name}")
    if y.data_type != x.data_type:
        raise TypeError(
            f"{OP_TYPE}: y must have x's dtype {DataType(x.data_type).name}, got {DataType(y.data_type).name}"
        )
    if x.shape_size <= 0 or x.shape_size >= 2**32:
        raise ValueError(f"{OP_TYPE}: element count {x.shape_size} (shape {list(dims)}) must be in [1, 2^32)")
    return dims, DataType(x.data_type).name, float(negative_slope)


def tiling_for(total: int, element_bytes: int, cores: int) -> Tuple[int, int, int]:
    """(blockLength, tileLength, blockNum): whole tiles per block, at most `cores` blocks, none empty."""
    tile = TILE_BYTES // element_bytes
    tiles = -(-total // tile)
    tiles_per_block = -(-tiles // max(1, cores))
    block_length = tiles_per_block * tile
    return block_length, tile, -(-total // block_length)


def _compile_mode() -> str:
    try:
        return get_compile_ctx().get_option(COMPILE_MODE_OPTION)
    except KeyError:
        return "unknown"


def _build(soc: str, arch: str) -> bytes:
    build = build_kernel(_kernel_source(), soc=soc, npu_arch=arch, op_type=OP_TYPE)
    print(
        f"LEAKY_RELU_KERNEL source={'cache' if build.from_cache else 'bisheng'} soc={soc} bytes={len(build.binary)}",
        file=sys.stderr,
        flush=True,
    )
    return build.binary


@register_op_impl(op_type=OP_TYPE)
class LeakyReluCustom:
    def __init__(self) -> None:
        self._launches: KernelArtifacts[Launch] = KernelArtifacts(OP_TYPE)

    def compile(self, x: Tensor, y: Tensor, *, negative_slope: float) -> None:
        soc, arch = target = compile_target()
        key = _artifact_key(x, y, negative_slope)
        print(
            f"LEAKY_RELU_COMPILE mode={_compile_mode()} soc={soc} arch={arch} shape={list(key[0])} "
            f"dtype={key[1]} negative_slope={key[2]!r}",
            flush=True,
        )
        cores = get_compile_platform_info().get_ai_core_num()
        dtype = DataType(x.data_type)

        def make(soc: str, arch: str) -> Launch:
            block_length, tile, blocks = tiling_for(x.shape_size, ELEMENT_BYTES[dtype], cores)
            tiling = struct.pack(TILING_FORMAT, block_length, tile, key[2], blocks)
            return Launch(_build(soc, arch), KERNELS[dtype], x.shape_size, blocks, tiling)

        self._launches.build(target, key, make)

    def declare_launch_args(self, x: Tensor, y: Tensor, *, negative_slope: float) -> None:
        key = _artifact_key(x, y, negative_slope)
        launch = self._launches.get(key, f"shape {list(key[0])} dtype {key[1]} negative_slope {key[2]!r}")
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, x)
        args.append_output(0, y)
        args.append_workspace(ctx.malloc_workspace(launch.block_dim * WORKSPACE_RECORD_BYTES))
        args.append_scalar(launch.total)
        for slot in struct.unpack("<QQ", launch.tiling):  # the by-value struct: two 8-byte slots
            args.append_scalar(slot)
        ctx.add_launch(
            AnnotatedKernelLaunchInfo(
                kernel_name=launch.kernel_name,
                kernel_bin=launch.binary,
                block_dim=launch.block_dim,
                stream_id=ctx.get_stream_id(),
            ),
            args,
        )
