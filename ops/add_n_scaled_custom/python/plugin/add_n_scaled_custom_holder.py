"""Holder of AddNScaledCustom: y = scale * (x0 + ... + x{N-1}), float32, N >= 1 inputs.

An eager op: it has no declare_launch_args, so GE runs its ``execute`` at every graph run.
``compile`` (called by GE once per node and new shape) builds the Ascend C kernel through the
toolkit ``ascendc_jit`` and computes the tiling for that shape; ``execute`` allocates y, writes
the N input addresses into a GE workspace (the kernel's input table), and launches
``add_n_scaled_custom(table, y, totalLength, tiling)`` on the stream of its execution context.
"""

import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Tuple

from _acl_kernel import AclKernels

from ascendc_jit import KernelArtifacts, build_kernel, compile_target, kernel_source
from ge.custom_op import get_compile_platform_info, get_execute_ctx, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor

print("ADD_N_SCALED_MODULE_LOADED=1", flush=True)

OP_TYPE = "AddNScaledCustom"
KERNEL_NAME = "add_n_scaled_custom"
TILE_ELEMENTS = 2048  # 8 KiB of float32 per UB tile
TILING_FORMAT = "<IIfI"  # AddNScaledTiling of kernel/add_n_scaled_tiling.h
# Overrides the kernel source (tests feed a kernel that does not compile).
KERNEL_SOURCE_ENV = "ADD_N_SCALED_CUSTOM_KERNEL_SOURCE"

ArtifactKey = Tuple[Tuple[int, ...], int, float]  # (dims, input count, scale)


@dataclass(frozen=True)
class Launch:
    binary: bytes
    total: int
    block_dim: int
    tiling: bytes


def _kernel_source() -> Path:
    return kernel_source(__file__, "add_n_scaled_custom.asc", KERNEL_SOURCE_ENV)


def _artifact_key(x: List[Tensor], scale: float) -> ArtifactKey:
    """Validates the inputs and returns the artifact key."""
    if not x:
        raise ValueError(f"{OP_TYPE}: needs at least one input x")
    dims = tuple(x[0].storage_shape.dims)
    for i, tensor in enumerate(x):
        if tensor.data_type != DataType.DT_FLOAT:
            raise TypeError(f"{OP_TYPE}: x{i} must be DT_FLOAT, got {DataType(tensor.data_type).name}")
        if tuple(tensor.storage_shape.dims) != dims:
            raise ValueError(f"{OP_TYPE}: x{i} shape {list(tensor.storage_shape.dims)} differs from x0 {list(dims)}")
    if not 0 < x[0].shape_size < 2**32:
        raise ValueError(f"{OP_TYPE}: element count {x[0].shape_size} must be in [1, 2^32)")
    return dims, len(x), float(scale)


def tiling_for(total: int, cores: int) -> Tuple[int, int, int]:
    """(blockLength, tileLength, blockNum): whole tiles per block, at most `cores` blocks, none empty."""
    tiles = -(-total // TILE_ELEMENTS)
    block_length = -(-tiles // max(1, cores)) * TILE_ELEMENTS
    return block_length, TILE_ELEMENTS, -(-total // block_length)


@register_op_impl(op_type=OP_TYPE)
class AddNScaledCustom:
    def __init__(self) -> None:
        self._launches: KernelArtifacts[Launch] = KernelArtifacts(OP_TYPE)
        self._acl = None  # AclKernels, made on the first execute (the runtime is up by then)

    def compile(self, x: List[Tensor], y: Tensor, *, scale: float) -> None:
        soc, arch = target = compile_target()
        key = _artifact_key(x, scale)
        print(
            f"ADD_N_SCALED_COMPILE soc={soc} arch={arch} shape={list(key[0])} inputs={key[1]} scale={key[2]!r}",
            flush=True,
        )
        cores = get_compile_platform_info().get_ai_core_num()

        def make(soc: str, arch: str) -> Launch:
            build = build_kernel(_kernel_source(), soc=soc, npu_arch=arch, op_type=OP_TYPE)
            print(
                f"ADD_N_SCALED_KERNEL source={'cache' if build.from_cache else 'bisheng'} soc={soc}",
                file=sys.stderr,
                flush=True,
            )
            block_length, tile, blocks = tiling_for(x[0].shape_size, cores)
            tiling = struct.pack(TILING_FORMAT, block_length, tile, key[2], key[1])
            return Launch(build.binary, x[0].shape_size, blocks, tiling)

        self._launches.build(target, key, make)

    def execute(self, x: List[Tensor], *, scale: float) -> None:
        key = _artifact_key(x, scale)
        launch = self._launches.get(key, f"shape {list(key[0])} with {key[1]} inputs, scale {key[2]!r}")
        ctx = get_execute_ctx()
        if self._acl is None:
            self._acl = AclKernels()
        y = ctx.malloc_output_tensor(0, x[0].shape, x[0].format, x[0].data_type)
        table = struct.pack(f"<{len(x)}Q", *(ctx.get_dynamic_input_tensor(0, i).addr for i in range(len(x))))
        table_addr = ctx.malloc_workspace(len(table))
        self._acl.copy_to_device(table_addr, table)
        slots = [table_addr, y.addr, launch.total, *struct.unpack("<QQ", launch.tiling)]
        self._acl.launch(launch.binary, KERNEL_NAME, launch.block_dim, slots, ctx.get_stream())
        print(f"ADD_N_SCALED_EXECUTE shape={list(key[0])} inputs={key[1]} blocks={launch.block_dim}", flush=True)
