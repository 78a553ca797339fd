"""libascendcl.so bound with ctypes (argument types for the calls the Python tests make), as a
Python user without a binding would drive it. Shared by the ctypes-based tests."""

from __future__ import annotations

import ctypes
import os

ACL_SUCCESS = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def resolve(path: str) -> str:
    """A Bazel runfiles path (relative to the test's working directory) made absolute."""
    return path if os.path.isabs(path) else os.path.join(os.getcwd(), path)


def load_acl(path: str) -> ctypes.CDLL:
    lib = ctypes.CDLL(resolve(path))
    lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
    lib.aclrtGetSocName.restype = ctypes.c_char_p
    lib.aclrtMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_int]
    lib.aclrtFree.argtypes = [ctypes.c_void_p]
    lib.aclrtMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    lib.aclrtMemset.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int32, ctypes.c_size_t]
    lib.aclrtBinaryLoadFromData.argtypes = [
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    lib.aclrtBinaryGetFunction.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.aclrtBinaryUnLoad.argtypes = [ctypes.c_void_p]
    lib.aclrtLaunchKernel.argtypes = [
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_void_p,
        ctypes.c_size_t,
        ctypes.c_void_p,
    ]
    lib.aclrtCreateStream.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.aclrtSynchronizeStream.argtypes = [ctypes.c_void_p]
    lib.aclrtDestroyStream.argtypes = [ctypes.c_void_p]
    lib.aclrtFunctionGetParamCount.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
    lib.aclrtSetOpExecuteTimeOut.argtypes = [ctypes.c_uint32]
    lib.aclrtGetCurrentContext.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.aclrtSetCurrentContext.argtypes = [ctypes.c_void_p]
    return lib


def ok(acl: ctypes.CDLL, rc: int) -> None:
    if rc != ACL_SUCCESS:
        msg = acl.aclGetRecentErrMsg()
        raise AssertionError(f"ACL error {rc}: {msg.decode() if msg else ''}")


def function(acl: ctypes.CDLL, binary: ctypes.c_void_p, name: str) -> ctypes.c_void_p:
    func = ctypes.c_void_p()
    ok(acl, acl.aclrtBinaryGetFunction(binary, name.encode(), ctypes.byref(func)))
    return func
