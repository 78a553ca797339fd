"""libascendcl.so through ctypes, as a Python user without a binding would drive it.

Env: ASCENDCL_LIB (path of libascendcl.so), TEST_KERNELS_2201 (the hand-written test device
binary, see tests/kernels/test_kernels.cc). Random data, seed printed, compared with numpy.
"""

from __future__ import annotations

import ctypes
import os
import time

import numpy as np
import pytest
from acl_ctypes import ACL_MEM_MALLOC_NORMAL_ONLY, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, load_acl
from acl_ctypes import function as _function
from acl_ctypes import ok as _ok
from acl_ctypes import resolve as _resolve

ACL_ERROR_RT_CONTEXT_NULL = 107002
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
ACL_ERROR_RT_KERNEL_LOOKUP = 507027


@pytest.fixture(scope="module")
def acl() -> ctypes.CDLL:
    return load_acl(os.environ["ASCENDCL_LIB"])


@pytest.fixture()
def session(acl: ctypes.CDLL):
    _ok(acl, acl.aclInit(None))
    _ok(acl, acl.aclrtSetDevice(0))
    stream = ctypes.c_void_p()
    _ok(acl, acl.aclrtCreateStream(ctypes.byref(stream)))
    data = open(_resolve(os.environ["TEST_KERNELS_2201"]), "rb").read()
    binary = ctypes.c_void_p()
    _ok(acl, acl.aclrtBinaryLoadFromData(data, len(data), None, ctypes.byref(binary)))
    yield stream, binary
    _ok(acl, acl.aclrtBinaryUnLoad(binary))
    _ok(acl, acl.aclrtDestroyStream(stream))
    _ok(acl, acl.aclrtResetDevice(0))
    _ok(acl, acl.aclFinalize())


def test_first_use_initializes_and_error_message(acl: ctypes.CDLL) -> None:
    device = ctypes.c_int32(-1)
    # No aclInit: ACL initializes on first use (CANN's rule); no device is set yet.
    assert acl.aclrtGetDevice(ctypes.byref(device)) == ACL_ERROR_RT_CONTEXT_NULL
    assert b"aclrtGetDevice" in acl.aclGetRecentErrMsg()
    assert acl.aclGetRecentErrMsg() is None  # obtained and cleared
    _ok(acl, acl.aclFinalize())


@pytest.mark.parametrize("n,blocks", [(1, 1), (1000, 4), (65537, 48), (300000, 7)])
def test_vadd_matches_numpy(acl: ctypes.CDLL, session, n: int, blocks: int) -> None:
    stream, binary = session
    assert acl.aclrtGetSocName() == b"Ascend910B1"
    vadd = _function(acl, binary, "vadd_f32")
    count = ctypes.c_size_t()
    _ok(acl, acl.aclrtFunctionGetParamCount(vadd, ctypes.byref(count)))
    assert count.value == 4
    seed = time.time_ns() % (2**32)
    print(f"seed={seed}")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    nbytes = x.nbytes
    dev = [ctypes.c_void_p() for _ in range(3)]
    for d in dev:
        _ok(acl, acl.aclrtMalloc(ctypes.byref(d), nbytes, ACL_MEM_MALLOC_NORMAL_ONLY))
    _ok(acl, acl.aclrtMemcpy(dev[0], nbytes, x.ctypes.data, nbytes, ACL_MEMCPY_HOST_TO_DEVICE))
    _ok(acl, acl.aclrtMemcpy(dev[1], nbytes, y.ctypes.data, nbytes, ACL_MEMCPY_HOST_TO_DEVICE))
    args = np.array([dev[0].value, dev[1].value, dev[2].value, n], dtype=np.uint64)
    _ok(acl, acl.aclrtLaunchKernel(vadd, blocks, args.ctypes.data, args.nbytes, stream))
    _ok(acl, acl.aclrtSynchronizeStream(stream))
    z = np.empty_like(x)
    _ok(acl, acl.aclrtMemcpy(z.ctypes.data, nbytes, dev[2], nbytes, ACL_MEMCPY_DEVICE_TO_HOST))
    np.testing.assert_array_equal(z, x + y)
    for d in dev:
        _ok(acl, acl.aclrtFree(d))


def test_trap_is_one_line_and_runtime_survives(acl: ctypes.CDLL, session) -> None:
    stream, binary = session
    trap = _function(acl, binary, "trap_on_block")
    args = np.array([5], dtype=np.uint64)
    _ok(acl, acl.aclrtLaunchKernel(trap, 8, args.ctypes.data, args.nbytes, stream))
    assert acl.aclrtSynchronizeStream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = acl.aclGetRecentErrMsg().decode()
    assert msg.startswith("kernel trap_on_block block 5: UB capacity exceeded"), msg
    assert "\n" not in msg
    args = np.array([99], dtype=np.uint64)  # no block traps now
    _ok(acl, acl.aclrtLaunchKernel(trap, 8, args.ctypes.data, args.nbytes, stream))
    _ok(acl, acl.aclrtSynchronizeStream(stream))


def test_unknown_kernel_lists_the_binary_kernels(acl: ctypes.CDLL, session) -> None:
    _, binary = session
    func = ctypes.c_void_p()
    assert acl.aclrtBinaryGetFunction(binary, b"add_custom", ctypes.byref(func)) == ACL_ERROR_RT_KERNEL_LOOKUP
    msg = acl.aclGetRecentErrMsg().decode()
    assert "'add_custom' is not in this binary" in msg and "vadd_f32" in msg, msg
