"""Compile holder of RmsNormCustom: y = x / sqrt(mean(x^2 over H) + epsilon) * gamma.

Loaded by GE from ASCEND_CUSTOM_OPP_PATH (this directory). ``compile`` builds the Ascend C kernel
(one binary with a half and a float kernel) for the session's SoC through the toolkit
``ascendc_jit`` and runs the operator's host tiling function, ``RmsNormCustomHostTiling``, exported
by its host tiling library liboptiling.so in its OPP root (proto/rms_norm_custom_host_tiling.cc,
over the high-level API's ``GetRmsNormMaxMinTmpSize`` / ``GetRmsNormTilingInfo``), through
ctypes: the 136-byte
``RmsNormCustomTiling``, the block dim (from the SoC's vector core count) and the workspace size.
``declare_launch_args`` publishes one launch of ``rms_norm_custom_<dtype>(x, gamma, y, workspace,
tiling)``, the tiling struct passed by value as 17 scalar slots.
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
from ge.graph import DataType, Format
from ge.runtime import Tensor

print("RMS_NORM_MODULE_LOADED=1", flush=True)

OP_TYPE = "RmsNormCustom"
KERNELS = {DataType.DT_FLOAT16: "rms_norm_custom_half", DataType.DT_FLOAT: "rms_norm_custom_float"}
ELEMENT_BYTES = {DataType.DT_FLOAT16: 2, DataType.DT_FLOAT: 4}
TILING_BYTES = 136  # sizeof(RmsNormCustomTiling): 10 scalars + two RmsNormTiling (kernel/rms_norm_custom_tiling.h)
TILING_SYMBOL = "RmsNormCustomHostTiling"
TILING_LIBRARY = "liboptiling.so"  # the operator's host tiling library, beside libcust_opapi.so in its OPP root
KERNEL_SOURCE_ENV = "RMS_NORM_CUSTOM_KERNEL_SOURCE"

ArtifactKey = Tuple[Tuple[int, ...], str, float]


@dataclass(frozen=True)
class Launch:
    binary: bytes
    kernel_name: str
    block_dim: int
    workspace_bytes: int
    tiling: bytes


def _artifact_key(x: Tensor, gamma: Tensor, y: Tensor, epsilon: float) -> ArtifactKey:
    """Validates the node's tensors and returns the artifact key (x's dims, dtype, epsilon)."""
    dims, dgamma = tuple(x.storage_shape.dims), list(gamma.storage_shape.dims)
    if len(dims) != 3 or dgamma != [dims[-1]]:
        raise ValueError(f"{OP_TYPE}: x must be [B, S, H] and gamma [H]; got x {list(dims)}, gamma {dgamma}")
    if tuple(y.storage_shape.dims) != dims:
        raise ValueError(f"{OP_TYPE}: y shape {list(y.storage_shape.dims)} differs from x shape {list(dims)}")
    if x.data_type not in KERNELS:
        raise TypeError(f"{OP_TYPE}: x must be DT_FLOAT16 or DT_FLOAT, got {DataType(x.data_type).name}")
    for name, t in (("x", x), ("gamma", gamma), ("y", y)):
        # the format list of the operator (CANN's OpDef .Format): ND only; the twin has no OpDef
        if t.storage_format != Format.FORMAT_ND:
            raise ValueError(f"{OP_TYPE}: {name} must be FORMAT_ND, got {Format(t.storage_format).name}")
        if name != "x" and t.data_type != x.data_type:
            raise TypeError(
                f"{OP_TYPE}: {name} must have x's dtype {DataType(x.data_type).name}, got {DataType(t.data_type).name}"
            )
    return dims, DataType(x.data_type).name, float(epsilon)


def _tiling_function():
    """RmsNormCustomHostTiling from the operator's liboptiling.so in an ASCEND_CUSTOM_OPP_PATH root.

    The library links libregister.so (the optiling classes), which CANN's GE has loaded; the twin's
    Python GE has not, and atc's environment has no LD_LIBRARY_PATH, so it is loaded first from the
    toolkit's lib64 (where GE loads libgraph.so from), by soname for the tiling library to find.
    """
    register = Path(os.environ.get("ASCEND_HOME_PATH", "")) / "lib64" / "libregister.so"
    if not register.is_file():
        raise RuntimeError(f"{OP_TYPE}: {register} is missing (ASCEND_HOME_PATH must name the toolkit)")
    ctypes.CDLL(str(register), mode=ctypes.RTLD_GLOBAL)
    for root in os.environ.get("ASCEND_CUSTOM_OPP_PATH", "").split(":"):
        lib = Path(root) / TILING_LIBRARY
        if root and lib.is_file():
            handle = ctypes.CDLL(str(lib))
            if hasattr(handle, TILING_SYMBOL):
                fn = getattr(handle, TILING_SYMBOL)
                fn.restype = ctypes.c_int64
                fn.argtypes = [
                    ctypes.c_char_p,
                    ctypes.c_uint32,
                    ctypes.c_uint32,
                    ctypes.c_uint32,
                    ctypes.c_uint32,
                    ctypes.c_float,
                    ctypes.c_void_p,
                    ctypes.c_uint64,
                    ctypes.POINTER(ctypes.c_uint32),
                    ctypes.POINTER(ctypes.c_uint64),
                    ctypes.c_char_p,
                    ctypes.c_uint64,
                ]
                return fn
    raise RuntimeError(f"{OP_TYPE}: no {TILING_LIBRARY} in ASCEND_CUSTOM_OPP_PATH exports {TILING_SYMBOL}")


def host_tiling(soc: str, dims: Tuple[int, ...], element_bytes: int, epsilon: float) -> Tuple[bytes, int, int]:
    """(tiling bytes, block dim, workspace bytes) from the operator's host tiling function."""
    if any(d <= 0 or d >= 2**32 for d in dims):
        raise ValueError(f"{OP_TYPE}: x {list(dims)}: every dimension must be in [1, 2^32)")
    buf = ctypes.create_string_buffer(TILING_BYTES)
    error = ctypes.create_string_buffer(512)
    block_dim, workspace = ctypes.c_uint32(0), ctypes.c_uint64(0)
    got = _tiling_function()(
        soc.encode(),
        dims[0],
        dims[1],
        dims[2],
        element_bytes,
        epsilon,
        ctypes.cast(buf, ctypes.c_void_p),
        TILING_BYTES,
        ctypes.byref(block_dim),
        ctypes.byref(workspace),
        error,
        len(error),
    )
    if got != TILING_BYTES:
        raise ValueError(f"{OP_TYPE}: no tiling for x {list(dims)} on {soc}: {error.value.decode(errors='replace')}")
    return buf.raw, block_dim.value, workspace.value


@register_op_impl(op_type=OP_TYPE)
class RmsNormCustom:
    def __init__(self) -> None:
        self._launches: KernelArtifacts[Launch] = KernelArtifacts(OP_TYPE)

    def compile(self, x: Tensor, gamma: Tensor, y: Tensor, *, epsilon: float) -> None:
        soc, arch = target = compile_target()
        key = _artifact_key(x, gamma, y, epsilon)
        print(
            f"RMS_NORM_COMPILE soc={soc} arch={arch} shape={list(key[0])} dtype={key[1]} epsilon={key[2]!r}", flush=True
        )
        dtype = DataType(x.data_type)

        def make(soc: str, arch: str) -> Launch:
            tiling, block_dim, workspace = host_tiling(soc, key[0], ELEMENT_BYTES[dtype], key[2])
            source = kernel_source(__file__, "rms_norm_custom.asc", KERNEL_SOURCE_ENV)
            build = build_kernel(source, soc=soc, npu_arch=arch, op_type=OP_TYPE)
            print(
                f"RMS_NORM_KERNEL source={'cache' if build.from_cache else 'bisheng'} soc={soc} "
                f"blocks={block_dim} workspace={workspace}",
                file=sys.stderr,
                flush=True,
            )
            return Launch(build.binary, KERNELS[dtype], block_dim, workspace, tiling)

        self._launches.build(target, key, make)

    def declare_launch_args(self, x: Tensor, gamma: Tensor, y: Tensor, *, epsilon: float) -> None:
        key = _artifact_key(x, gamma, y, epsilon)
        launch = self._launches.get(key, f"shape {list(key[0])} dtype {key[1]} epsilon {key[2]!r}")
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, x)
        args.append_input(1, gamma)
        args.append_output(0, y)
        args.append_workspace(ctx.malloc_workspace(launch.workspace_bytes))
        for slot in struct.unpack(f"<{TILING_BYTES // 8}Q", launch.tiling):  # the by-value struct
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
