"""Compile holder of MatmulLeakyReluCustom: c = LeakyRelu(a @ b + bias, negative_slope).

Loaded by GE from ASCEND_CUSTOM_OPP_PATH (this directory). ``compile`` builds the Ascend C kernel
for the session's SoC through the toolkit ``ascendc_jit`` and computes the tiling with the Matmul
API's host library: ``MatmulLeakyReluCustomTiling``, exported by the operator's OPP proto library
(proto/matmul_leakyrelu_host_tiling.cc, over ``matmul_tiling::MultiCoreMatmulTiling``), called
through ctypes. ``declare_launch_args`` publishes one launch of
``matmul_leakyrelu_custom(a, b, bias, c, workspace, tiling)`` on ``usedCoreNum`` blocks, the
208-byte tiling struct passed by value as 26 scalar slots.
"""

import ctypes
import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Tuple

from ascendc_jit import KernelArtifacts, build_kernel, compile_target, kernel_source
from ge.custom_op import AnnotatedKernelLaunchInfo, get_declare_launch_args_ctx, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor

print("MATMUL_LEAKYRELU_MODULE_LOADED=1", flush=True)

OP_TYPE = "MatmulLeakyReluCustom"
KERNEL_NAME = "matmul_leakyrelu_custom"
TILING_BYTES = 208  # sizeof(MatmulLeakyReluTiling): TCubeTiling (50 int32) + slope + reserved
TILING_SYMBOL = "MatmulLeakyReluCustomTiling"
KERNEL_SOURCE_ENV = "MATMUL_LEAKYRELU_CUSTOM_KERNEL_SOURCE"
WORKSPACE_BYTES = 32  # the kernel takes a workspace argument (CANN's signature); it uses none

ArtifactKey = Tuple[int, int, int, float]


@dataclass(frozen=True)
class Launch:
    binary: bytes
    block_dim: int
    tiling: bytes


def _artifact_key(a: Tensor, b: Tensor, bias: Tensor, c: Tensor, negative_slope: float) -> ArtifactKey:
    da, db, dbias = list(a.storage_shape.dims), list(b.storage_shape.dims), list(bias.storage_shape.dims)
    if len(da) != 2 or len(db) != 2 or len(dbias) != 1 or da[1] != db[0] or dbias[0] != db[1]:
        raise ValueError(f"{OP_TYPE}: a {da}, b {db} and bias {dbias} do not fit a @ b + bias")
    for name, t, want in (
        ("a", a, DataType.DT_FLOAT16),
        ("b", b, DataType.DT_FLOAT16),
        ("bias", bias, DataType.DT_FLOAT),
        ("c", c, DataType.DT_FLOAT),
    ):
        if t.data_type != want:
            raise TypeError(f"{OP_TYPE}: {name} must be {want.name}, got {DataType(t.data_type).name}")
    return da[0], db[1], da[1], float(negative_slope)


def _tiling_function():
    """MatmulLeakyReluCustomTiling from the proto library in ASCEND_CUSTOM_OPP_PATH (already loaded by GE)."""
    for root in os.environ.get("ASCEND_CUSTOM_OPP_PATH", "").split(":"):
        lib = Path(root) / "libcust_opapi.so"
        if root and lib.is_file():
            handle = ctypes.CDLL(str(lib))
            if hasattr(handle, TILING_SYMBOL):
                fn = getattr(handle, TILING_SYMBOL)
                fn.restype = ctypes.c_int64
                fn.argtypes = [
                    ctypes.c_char_p,
                    ctypes.c_int32,
                    ctypes.c_int32,
                    ctypes.c_int32,
                    ctypes.c_float,
                    ctypes.c_void_p,
                    ctypes.c_uint64,
                ]
                return fn
    raise RuntimeError(f"{OP_TYPE}: no OPP proto library in ASCEND_CUSTOM_OPP_PATH exports {TILING_SYMBOL}")


def host_tiling(soc: str, m: int, n: int, k: int, negative_slope: float) -> bytes:
    buf = ctypes.create_string_buffer(TILING_BYTES)
    got = _tiling_function()(soc.encode(), m, n, k, negative_slope, ctypes.cast(buf, ctypes.c_void_p), TILING_BYTES)
    if got != TILING_BYTES:
        raise ValueError(
            f"{OP_TYPE}: matmul_tiling found no tiling for M={m} N={n} K={k} on {soc} (see the ASCENDC log line)"
        )
    return buf.raw


@register_op_impl(op_type=OP_TYPE)
class MatmulLeakyReluCustom:
    def __init__(self) -> None:
        self._launches: KernelArtifacts[Launch] = KernelArtifacts(OP_TYPE)

    def compile(self, a: Tensor, b: Tensor, bias: Tensor, c: Tensor, *, negative_slope: float) -> None:
        soc, arch = target = compile_target()
        key = _artifact_key(a, b, bias, c, negative_slope)
        print(
            f"MATMUL_LEAKYRELU_COMPILE soc={soc} arch={arch} M={key[0]} N={key[1]} K={key[2]} "
            f"negative_slope={key[3]!r}",
            flush=True,
        )

        def make(soc: str, arch: str) -> Launch:
            tiling = host_tiling(soc, key[0], key[1], key[2], key[3])
            used_cores = struct.unpack_from("<i", tiling, 0)[0]
            source = kernel_source(__file__, "matmul_leakyrelu_custom.asc", KERNEL_SOURCE_ENV)
            build = build_kernel(source, soc=soc, npu_arch=arch, op_type=OP_TYPE)
            print(
                f"MATMUL_LEAKYRELU_KERNEL source={'cache' if build.from_cache else 'bisheng'} soc={soc} "
                f"blocks={used_cores}",
                file=sys.stderr,
                flush=True,
            )
            return Launch(build.binary, used_cores, tiling)

        self._launches.build(target, key, make)

    def declare_launch_args(self, a: Tensor, b: Tensor, bias: Tensor, c: Tensor, *, negative_slope: float) -> None:
        key = _artifact_key(a, b, bias, c, negative_slope)
        launch = self._launches.get(key, f"M={key[0]} N={key[1]} K={key[2]} negative_slope {key[3]!r}")
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, a)
        args.append_input(1, b)
        args.append_input(2, bias)
        args.append_output(0, c)
        args.append_workspace(ctx.malloc_workspace(WORKSPACE_BYTES))
        for slot in struct.unpack(f"<{TILING_BYTES // 8}Q", launch.tiling):  # the by-value struct
            args.append_scalar(slot)
        ctx.add_launch(
            AnnotatedKernelLaunchInfo(
                kernel_name=KERNEL_NAME,
                kernel_bin=launch.binary,
                block_dim=launch.block_dim,
                stream_id=ctx.get_stream_id(),
            ),
            args,
        )
