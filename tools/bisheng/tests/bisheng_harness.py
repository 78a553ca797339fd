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
    env = {k: v for k, v in os.environ.items() if not k.startswith("BISHENG_") and k != "ASCEND_HOME_PATH"}
    env.setdefault("PATH", "/usr/bin:/bin")
    return env


def run_bisheng(args: list, cwd: str, env: dict = None) -> subprocess.CompletedProcess:
    # Executed directly, so the shebang (script) or launcher (Bazel py_binary) is exercised too.
    return subprocess.run([DRIVER] + list(args), cwd=cwd, env=env or clean_env(), capture_output=True, text=True)


def llvm_tool(name: str) -> str:
    for candidate in (shutil.which(f"{name}-16"), f"/usr/lib/llvm-16/bin/{name}"):
        if candidate and os.path.exists(candidate):
            return candidate
    raise RuntimeError(f"{name}-16 not found")


def copy_testdata(dest: str, *names: str) -> None:
    os.makedirs(dest, exist_ok=True)
    for name in names:
        shutil.copy(os.path.join(TESTDATA, name), os.path.join(dest, name))


class AscTwinLocalMem(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("size", ctypes.c_uint64)]


class AscTwinBlockEnv(ctypes.Structure):
    """The head of AscTwinBlockEnv (twin/abi/include/asc_twin/aicore_abi.h) up to kernel_name:
    passed with struct_size = its own size, so the kernel must leave the fields after it alone
    (ABI 3's append-only rule, exercised from a host that knows fewer fields)."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("abi_version", ctypes.c_uint32),
        ("block_idx", ctypes.c_uint32),
        ("block_num", ctypes.c_uint32),
        ("npu_arch", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),  # 0: the kernel fences its streaming stores itself
        ("core_type", ctypes.c_uint32),
        ("kernel_type", ctypes.c_uint32),
        ("sub_block_idx", ctypes.c_uint32),
        ("sub_block_num", ctypes.c_uint32),
        ("task_ration", ctypes.c_uint32),
        ("aic_core_num", ctypes.c_uint32),
        ("aiv_core_num", ctypes.c_uint32),
        ("resident_limit", ctypes.c_uint32),
        ("mem", AscTwinLocalMem * 7),  # UB, L1, L0A, L0B, L0C, BT, FB
        ("gm_check", ctypes.c_void_p),
        ("gm_ctx", ctypes.c_void_p),
        ("gm_range", ctypes.c_void_p),
        ("gm_generation", ctypes.c_void_p),
        ("soc_version", ctypes.c_char_p),
        ("kernel_name", ctypes.c_char_p),
    ]


class AscTwinKernelInfo(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        ("params", ctypes.c_uint32),
        ("args_size", ctypes.c_uint32),
        ("kernel_type", ctypes.c_uint32),
    ]


GM_CHECK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint64)
ENTRY = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(AscTwinBlockEnv), ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t
)


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
        self.ranges = []  # (start, length) of "device" buffers the GM check accepts
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
            env = AscTwinBlockEnv(
                struct_size=ctypes.sizeof(AscTwinBlockEnv),
                abi_version=3,
                block_idx=block,
                block_num=block_num,
                npu_arch=self.npu_arch,
                flags=0,
                core_type=2,
                kernel_type=0xFFFFFFFF,
                sub_block_num=1,
                task_ration=1,
                gm_check=ctypes.cast(self.gm_check, ctypes.c_void_p),
                gm_ctx=None,
                soc_version=b"Ascend910B1",
                kernel_name=kernel.encode(),
            )
            env.mem[0].base = ub_base
            env.mem[0].size = self.ub_size
            status = entry(ctypes.byref(env), args, len(args), err, len(err))
            if status != 0:
                raise RuntimeError(f"{kernel} block {block} trapped: {err.value.decode()}")
