"""Launching a device binary from an ``execute`` callback through ACL's kernel API (ctypes over
libascendcl.so): aclrtBinaryLoadFromData -> aclrtBinaryGetFunction -> aclrtLaunchKernel on the
stream GE hands the callback, plus aclrtMemcpy for a small host -> device table.

The leading underscore keeps GE's plugin loader from importing this file as a plugin; the holder
imports it as a module of its directory.
"""

import ctypes
import hashlib
import os
import struct
import threading
from typing import Dict, Sequence, Tuple

ACL_SUCCESS = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1


def _library() -> ctypes.CDLL:
    # the library pyACL (and GE's Session) already loaded: one runtime state in the process. Found
    # as pyACL finds it: $ASCEND_TWIN_ACL_LIB (set, e.g., when an OM that runs through Python is
    # loaded by a program), else the tree's lib64, else the loader's search.
    explicit = os.environ.get("ASCEND_TWIN_ACL_LIB")
    home = os.environ.get("ASCEND_HOME_PATH")
    for candidate in (explicit, os.path.join(home, "lib64", "libascendcl.so") if home else ""):
        if candidate and os.path.exists(candidate):
            return ctypes.CDLL(candidate)
    return ctypes.CDLL("libascendcl.so")


class AclKernels:
    """Loaded binaries and function handles by (binary digest, kernel name); thread-safe."""

    def __init__(self) -> None:
        lib = self._lib = _library()
        void_p, size_t = ctypes.c_void_p, ctypes.c_size_t
        self._load = lib.aclrtBinaryLoadFromData
        self._load.argtypes = [void_p, size_t, void_p, ctypes.POINTER(void_p)]
        self._get = lib.aclrtBinaryGetFunction
        self._get.argtypes = [void_p, ctypes.c_char_p, ctypes.POINTER(void_p)]
        self._launch = lib.aclrtLaunchKernel
        self._launch.argtypes = [void_p, ctypes.c_uint32, void_p, size_t, void_p]
        self._memcpy = lib.aclrtMemcpy
        self._memcpy.argtypes = [void_p, size_t, void_p, size_t, ctypes.c_int]
        self._message = lib.aclGetRecentErrMsg
        self._message.restype = ctypes.c_char_p
        for fn in (self._load, self._get, self._launch, self._memcpy):
            fn.restype = ctypes.c_int
        self._lock = threading.Lock()
        self._functions: Dict[Tuple[str, str], int] = {}
        self._binaries: Dict[str, Tuple[int, bytes]] = {}

    def _check(self, ret: int, what: str) -> None:
        if ret != ACL_SUCCESS:
            detail = (self._message() or b"").decode(errors="replace").strip()
            raise RuntimeError(f"{what} failed with ACL error {ret}" + (f": {detail}" if detail else ""))

    def function(self, binary: bytes, kernel_name: str) -> int:
        digest = hashlib.sha256(binary).hexdigest()
        with self._lock:
            key = (digest, kernel_name)
            if key not in self._functions:
                if digest not in self._binaries:
                    handle = ctypes.c_void_p()
                    self._check(self._load(binary, len(binary), None, ctypes.byref(handle)), "aclrtBinaryLoadFromData")
                    self._binaries[digest] = (handle.value, binary)  # keep the bytes with the handle
                func = ctypes.c_void_p()
                self._check(
                    self._get(self._binaries[digest][0], kernel_name.encode(), ctypes.byref(func)),
                    f"aclrtBinaryGetFunction({kernel_name})",
                )
                self._functions[key] = func.value
            return self._functions[key]

    def launch(self, binary: bytes, kernel_name: str, block_dim: int, slots: Sequence[int], stream: int) -> None:
        """Launches with one 8-byte argument slot per value (kernel parameter order)."""
        args = struct.pack(f"<{len(slots)}Q", *slots)
        self._check(
            self._launch(self.function(binary, kernel_name), block_dim, args, len(args), stream),
            f"aclrtLaunchKernel({kernel_name}, {block_dim} blocks)",
        )

    def copy_to_device(self, device_addr: int, data: bytes) -> None:
        self._check(
            self._memcpy(device_addr, len(data), data, len(data), ACL_MEMCPY_HOST_TO_DEVICE),
            "aclrtMemcpy (host to device)",
        )
