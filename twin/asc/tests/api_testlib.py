"""Shared by the numpy-checked API tests: a libascendcl device over ctypes (load a bisheng
device binary, launch a kernel with uint64 arguments, move arrays), the run's seed and
per-case random generators. ASCENDCL_LIB names libascendcl.so."""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest

SEED = int(os.environ.get("ASC_TWIN_SEED", int.from_bytes(os.urandom(4), "little")))

H2D, D2H = 1, 2
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
F32, F16, I16 = np.float32, np.float16, np.int16


def _path(var: str) -> str:
    p = os.environ[var]
    return p if os.path.isabs(p) else os.path.join(os.getcwd(), p)


_VP, _SZ = ctypes.c_void_p, ctypes.c_size_t
_ACL_ARGTYPES = {  # the ACL functions the tests call with pointers and sizes
    "aclrtMalloc": [ctypes.POINTER(_VP), _SZ, ctypes.c_int],
    "aclrtFree": [_VP],
    "aclrtMemcpy": [_VP, _SZ, _VP, _SZ, ctypes.c_int],
    "aclrtBinaryLoadFromData": [_VP, _SZ, _VP, ctypes.POINTER(_VP)],
    "aclrtBinaryGetFunction": [_VP, ctypes.c_char_p, ctypes.POINTER(_VP)],
    "aclrtLaunchKernel": [_VP, ctypes.c_uint32, _VP, _SZ, _VP],
    "aclrtCreateStream": [ctypes.POINTER(_VP)],
    "aclrtSynchronizeStream": [_VP],
    "aclrtDestroyStream": [_VP],
    "aclrtBinaryUnLoad": [_VP],
}


class Device:
    def __init__(self):
        lib = ctypes.CDLL(_path("ASCENDCL_LIB"))
        lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
        for name, argtypes in _ACL_ARGTYPES.items():
            getattr(lib, name).argtypes = argtypes
        self.lib = lib
        self.ok(lib.aclInit(None))
        self.ok(lib.aclrtSetDevice(0))
        self.stream = ctypes.c_void_p()
        self.ok(lib.aclrtCreateStream(ctypes.byref(self.stream)))
        self.binaries, self.funcs, self.allocs = [], {}, []

    def ok(self, rc: int) -> None:
        if rc != 0:
            msg = self.lib.aclGetRecentErrMsg()
            raise AssertionError(f"ACL error {rc}: {msg.decode() if msg else ''}")

    def load(self, var: str, names: list[str]) -> None:
        data = open(_path(var), "rb").read()
        handle = ctypes.c_void_p()
        self.ok(self.lib.aclrtBinaryLoadFromData(data, len(data), None, ctypes.byref(handle)))
        self.binaries.append(handle)
        for name in names:
            f = ctypes.c_void_p()
            self.ok(self.lib.aclrtBinaryGetFunction(handle, name.encode(), ctypes.byref(f)))
            self.funcs[name] = f

    def put(self, array: np.ndarray) -> int:
        array = np.ascontiguousarray(array)
        ptr = ctypes.c_void_p()
        self.ok(self.lib.aclrtMalloc(ctypes.byref(ptr), max(array.nbytes, 32), 2))
        self.allocs.append(ptr)
        if array.nbytes:
            self.ok(self.lib.aclrtMemcpy(ptr, array.nbytes, array.ctypes.data, array.nbytes, H2D))
        return ptr.value

    def get(self, ptr: int, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        self.ok(self.lib.aclrtMemcpy(out.ctypes.data, out.nbytes, ptr, out.nbytes, D2H))
        return out

    def launch(self, name: str, blocks: int, *args: int) -> int:
        blob = np.array(args, dtype=np.uint64)
        self.ok(self.lib.aclrtLaunchKernel(self.funcs[name], blocks, blob.ctypes.data, blob.nbytes, self.stream))
        return self.lib.aclrtSynchronizeStream(self.stream)

    def expect_trap(self, name: str, blocks: int, args: tuple, message: str, ok_args: tuple) -> str:
        """Launches a kernel that must trap with `message` (the ACL error names kernel and block),
        then the same kernel with `ok_args`, which must succeed: the device lives on."""
        rc = self.launch(name, blocks, *args)
        assert rc == ACL_ERROR_RT_AICORE_EXCEPTION, f"{name}{args}: expected a trap, got {rc}"
        msg = self.lib.aclGetRecentErrMsg().decode()
        assert message in msg, msg
        assert self.launch(name, blocks, *ok_args) == 0
        return msg

    def free_all(self) -> None:
        for p in self.allocs:
            self.ok(self.lib.aclrtFree(p))
        self.allocs = []

    def close(self) -> None:
        self.free_all()
        for b in self.binaries:
            self.ok(self.lib.aclrtBinaryUnLoad(b))
        self.ok(self.lib.aclrtDestroyStream(self.stream))
        self.ok(self.lib.aclrtResetDevice(0))
        self.ok(self.lib.aclFinalize())


def rng_for(*key) -> np.random.Generator:
    return np.random.default_rng([SEED, *[hash(str(k)) & 0xFFFFFFFF for k in key]])


def device_fixtures(binaries):
    """The module's `dev` fixture (a Device with binaries() = {env var: [kernel names]} loaded,
    closed at the end) and an autouse fixture freeing each test's device buffers."""

    @pytest.fixture(scope="module")
    def dev():
        print(f"[api tests] seed = {SEED} (set ASC_TWIN_SEED={SEED} to repeat)")  # shown with the first test
        d = Device()
        for var, names in binaries().items():
            d.load(var, names)
        yield d
        d.close()

    @pytest.fixture(autouse=True)
    def free_buffers(dev):
        yield
        dev.free_all()

    return dev, free_buffers
