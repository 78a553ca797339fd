"""Compile holder of AbsSubCustom: builds kernel/abs_sub_custom.asc with bisheng + llvm-objcopy
(both from PATH, as after CANN's set_env.sh) and publishes its launch.

Only owned values (bytes, ints, tuples) are kept between callbacks; the Tensor and context
objects GE passes in are borrowed for the duration of one call.
"""

import os
import subprocess
import tempfile
import threading
from pathlib import Path

from ge.custom_op import (
    AnnotatedKernelLaunchInfo,
    get_compile_platform_info,
    get_declare_launch_args_ctx,
    register_op_impl,
)

KERNEL_NAME = "abs_sub_custom"
BLOCK_ELEMENTS = 2048  # must match the kernel
KERNEL_SOURCE = Path(__file__).resolve().parents[2] / "kernel" / "abs_sub_custom.asc"


def _dims(tensor):
    return tuple(int(d) for d in tensor.storage_shape.dims)


def _key(*tensors):
    return tuple((_dims(t), int(t.data_type)) for t in tensors)


def _element_count(tensor):
    count = 1
    for dim in _dims(tensor):
        count *= dim
    return count


def _build_kernel(npu_arch: str) -> bytes:
    """bisheng -> host object with .aicore_binary -> llvm-objcopy -> device binary bytes."""
    work = Path(os.environ.get("ABS_SUB_CUSTOM_BUILD_DIR", tempfile.gettempdir()))
    work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=work) as tmp:
        host_object = Path(tmp) / "abs_sub_custom.o"
        device_binary = Path(tmp) / "abs_sub_custom.aicore.o"
        include = Path(os.environ["ASCEND_HOME_PATH"]) / "asc" / "include"
        for command in (
            [
                "bisheng",
                "-c",
                str(KERNEL_SOURCE),
                "-o",
                str(host_object),
                f"--npu-arch=dav-{npu_arch}",
                f"-I{include}",
                "-O2",
            ],
            ["llvm-objcopy", "-O", "binary", "--only-section=.aicore_binary", str(host_object), str(device_binary)],
        ):
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()}")
        return device_binary.read_bytes()


@register_op_impl(op_type="AbsSubCustom")
class AbsSubCustom:
    def __init__(self):
        self._binaries = {}
        self._platform = None
        self._lock = threading.Lock()

    def compile(self, x1, x2, y) -> None:
        if _dims(x1) != _dims(x2) or _element_count(x1) % BLOCK_ELEMENTS:
            raise ValueError(
                f"AbsSubCustom needs equal shapes with a multiple of {BLOCK_ELEMENTS} elements, "
                f"got {_dims(x1)} and {_dims(x2)}"
            )
        info = get_compile_platform_info()
        arch = str(info.get_platform_resource("version", "NpuArch")).removeprefix("dav-")
        platform = (str(info.get_soc_version()), arch)
        with self._lock:
            if platform != self._platform:
                self._binaries.clear()
                self._platform = platform
            key = _key(x1, x2, y)
            if key in self._binaries:
                return
            print(
                f"PY_COMPILE_CALLBACK_ENTER=1 mode={os.environ.get('ABS_SUB_CUSTOM_MODE', 'unknown')} "
                f"soc={platform[0]} arch={arch} shape={list(_dims(x1))}",
                flush=True,
            )
            self._binaries[key] = _build_kernel(arch)

    def declare_launch_args(self, x1, x2, y) -> None:
        with self._lock:
            binary = self._binaries.get(_key(x1, x2, y))
        if binary is None:
            raise RuntimeError("AbsSubCustom: declare_launch_args for a shape compile() never saw")
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        args.append_input(0, x1)
        args.append_input(1, x2)
        args.append_output(0, y)
        ctx.add_launch(
            AnnotatedKernelLaunchInfo(
                kernel_name=KERNEL_NAME,
                kernel_bin=binary,
                block_dim=_element_count(x1) // BLOCK_ELEMENTS,
                stream_id=ctx.get_stream_id(),
            ),
            args,
        )


print("PY_COMPILE_MODULE_LOADED=1", flush=True)
