"""Shared helpers of the bisheng tests: run the driver, load a device binary, call an entry."""

import ctypes
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.normpath(os.path.join(HERE, "..", "bisheng"))  # the py_binary launcher in runfiles
TESTDATA = os.path.join(HERE, "testdata")


def clean_env() -> dict:
    """The caller's environment without anything that would steer bisheng."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("BISHENG_") and k != "ASCEND_HOME_PATH"}
    env.setdefault("PATH", "/usr/bin:/bin")
    return env


def run_bisheng(args: list, cwd: str, env: dict = None) -> subprocess.CompletedProcess:
    # Executed directly, so the shebang (script) or launcher (Bazel py_binary) is exercised too.
    return subprocess.run([DRIVER] + list(args), cwd=cwd, env=env or clean_env(),
                          capture_output=True, text=True)


def llvm_tool(name: str) -> str:
    for candidate in (shutil.which(f"{name}-16"), f"/usr/lib/llvm-16/bin/{name}"):
        if candidate and os.path.exists(candidate):
            return candidate
    raise RuntimeError(f"{name}-16 not found")


def copy_testdata(dest: str, *names: str) -> None:
    os.makedirs(dest, exist_ok=True)
    for name in names:
        shutil.copy(os.path.join(TESTDATA, name), os.path.join(dest, name))


class AscTwinBlockEnv(ctypes.Structure):
    """Mirror of AscTwinBlockEnv in twin/abi/include/asc_twin/aicore_abi.h."""
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        ("block_idx", ctypes.c_uint32),
        ("block_num", ctypes.c_uint32),
        ("npu_arch", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),  # ABI 2; 0: the kernel fences its streaming stores itself
        ("reserved", ctypes.c_uint32),
        ("ub_base", ctypes.c_void_p),
        ("ub_size", ctypes.c_uint64),
        ("gm_check", ctypes.c_void_p),
        ("gm_ctx", ctypes.c_void_p),
        ("soc_version", ctypes.c_char_p),
        ("kernel_name", ctypes.c_char_p),
    ]


class AscTwinKernelInfo(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        ("params", ctypes.c_uint32),
        ("args_size", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32),
    ]


GM_CHECK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
ENTRY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(AscTwinBlockEnv), ctypes.c_void_p,
                         ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)


class DeviceBinary:
    """A device binary loaded the way the runtime does (dlopen of the bytes)."""

    def __init__(self, data: bytes, workdir: str, npu_arch: int, ub_size: int = 196608) -> None:
        path = os.path.join(workdir, "device_binary.so")
        with open(path, "wb") as f:
            f.write(data)
        self.lib = ctypes.CDLL(path, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        self.npu_arch = npu_arch
        self.ub = ctypes.create_string_buffer(ub_size + 4096)
        self.ub_size = ub_size
        self.ranges = []            # (start, length) of "device" buffers the GM check accepts
        self.gm_check = GM_CHECK(self._gm_check)

    def _gm_check(self, _ctx, addr, length) -> int:
        return int(any(start <= addr and addr + length <= start + size for start, size in self.ranges))

    def info(self, kernel: str) -> AscTwinKernelInfo:
        return AscTwinKernelInfo.in_dll(self.lib, f"__asc_twin_info_{kernel}")

    def run(self, kernel: str, args: bytes, block_num: int) -> None:
        entry = ENTRY(("__asc_twin_entry_" + kernel, self.lib))
        ub_base = (ctypes.addressof(self.ub) + 4095) // 4096 * 4096
        err = ctypes.create_string_buffer(256)
        for block in range(block_num):
            env = AscTwinBlockEnv(abi_version=2, block_idx=block, block_num=block_num, npu_arch=self.npu_arch,
                                  flags=0, reserved=0, ub_base=ub_base, ub_size=self.ub_size,
                                  gm_check=ctypes.cast(self.gm_check, ctypes.c_void_p), gm_ctx=None,
                                  soc_version=b"Ascend910B1", kernel_name=kernel.encode())
            status = entry(ctypes.byref(env), args, len(args), err, len(err))
            if status != 0:
                raise RuntimeError(f"{kernel} block {block} trapped: {err.value.decode()}")
