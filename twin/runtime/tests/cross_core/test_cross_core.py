"""Mixed kernels on the CPU twin through libascendcl.so: a launch of numBlocks N of a
MIX_AIC_1_2 kernel runs N AIC and 2N AIV blocks at once, each with its own local memories, and
CrossCoreSetFlag/WaitFlag (modes 0, 1, 2) really order them; every misuse traps with one line.

Env: ASCENDCL_LIB, CROSS_CORE_KERNEL (cross_core.asc built by bisheng for Ascend910B1).
Random data (seed printed), compared with numpy.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest
from acl_ctypes import (
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE,
    function,
    load_acl,
    ok,
    resolve,
)

ACL_ERROR_RT_AICORE_EXCEPTION = 507015
# Ascend910B1 ([AICoreSpec] of twin/platform/Ascend910B1.ini).
SIZES = {"UB": 196608, "L1": 524288, "L0A": 65536, "L0B": 65536, "L0C": 131072, "BIAS": 1024, "FIXBUF": 2048}


@pytest.fixture(scope="module")
def acl() -> ctypes.CDLL:
    return load_acl(os.environ["ASCENDCL_LIB"])


@pytest.fixture()
def rng() -> np.random.Generator:
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}")
    return np.random.default_rng(seed)


class Device:
    def __init__(self, acl: ctypes.CDLL):
        self.acl = acl
        ok(acl, acl.aclInit(None))
        ok(acl, acl.aclrtSetDevice(0))
        self.stream = ctypes.c_void_p()
        ok(acl, acl.aclrtCreateStream(ctypes.byref(self.stream)))
        data = open(resolve(os.environ["CROSS_CORE_KERNEL"]), "rb").read()
        self.binary = ctypes.c_void_p()
        ok(acl, acl.aclrtBinaryLoadFromData(data, len(data), None, ctypes.byref(self.binary)))
        self.buffers: list[ctypes.c_void_p] = []

    def alloc(self, nbytes: int) -> ctypes.c_void_p:
        d = ctypes.c_void_p()
        ok(self.acl, self.acl.aclrtMalloc(ctypes.byref(d), nbytes, ACL_MEM_MALLOC_NORMAL_ONLY))
        ok(self.acl, self.acl.aclrtMemset(d, nbytes, 0, nbytes))
        self.buffers.append(d)
        return d

    def upload(self, array: np.ndarray) -> ctypes.c_void_p:
        d = self.alloc(array.nbytes)
        ok(self.acl, self.acl.aclrtMemcpy(d, array.nbytes, array.ctypes.data, array.nbytes, ACL_MEMCPY_HOST_TO_DEVICE))
        return d

    def download(self, d: ctypes.c_void_p, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        ok(self.acl, self.acl.aclrtMemcpy(out.ctypes.data, out.nbytes, d, out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST))
        return out

    def launch(self, kernel: str, blocks: int, *args) -> int:
        blob = np.array([a.value if isinstance(a, ctypes.c_void_p) else a for a in args] or [0], dtype=np.uint64)
        size = 8 * len(args)
        ok(
            self.acl,
            self.acl.aclrtLaunchKernel(
                function(self.acl, self.binary, kernel), blocks, blob.ctypes.data, size, self.stream
            ),
        )
        return self.acl.aclrtSynchronizeStream(self.stream)

    def error(self) -> str:
        msg = self.acl.aclGetRecentErrMsg()
        return msg.decode() if msg else ""

    def close(self) -> None:
        for d in self.buffers:
            ok(self.acl, self.acl.aclrtFree(d))
        ok(self.acl, self.acl.aclrtBinaryUnLoad(self.binary))
        ok(self.acl, self.acl.aclrtDestroyStream(self.stream))
        ok(self.acl, self.acl.aclrtResetDevice(0))
        ok(self.acl, self.acl.aclFinalize())


@pytest.fixture()
def dev(acl):
    d = Device(acl)
    yield d
    d.close()


@pytest.mark.parametrize("blocks", [1, 3, 24])
def test_mode2_aic_consumes_what_its_aivs_produced_and_back(dev, rng, blocks):
    half = 64 * int(rng.integers(1, 5))
    x = rng.standard_normal(blocks * 2 * half).astype(np.float32)
    y, w, z = (dev.alloc(x.nbytes) for _ in range(3))
    assert dev.launch("mix_mode2", blocks, dev.upload(x), y, w, z, half) == 0, dev.error()
    expected_w = x + 1
    groups = (x + 1).reshape(blocks, 2, half)
    expected_z = 2 * groups[:, ::-1, :].reshape(-1)  # each AIV doubled its sibling's half
    np.testing.assert_array_equal(dev.download(w, x), expected_w)
    np.testing.assert_allclose(dev.download(z, x), expected_z, rtol=1e-6)


@pytest.mark.parametrize("blocks", [2, 7, 48])
def test_mode0_every_aiv_waits_for_all(dev, rng, blocks):
    chunk = 8 * int(rng.integers(1, 9))
    x = rng.standard_normal(blocks * chunk).astype(np.float32)
    y, z = dev.alloc(x.nbytes), dev.alloc(x.nbytes)
    assert dev.launch("aiv_mode0", blocks, dev.upload(x), y, z, chunk) == 0, dev.error()
    expected = 2 * np.roll((x + 1).reshape(blocks, chunk), -1, axis=0).reshape(-1)
    np.testing.assert_allclose(dev.download(z, x), expected, rtol=1e-6)


@pytest.mark.parametrize("blocks", [1, 5])
def test_mode1_the_two_aivs_of_a_core_wait_for_each_other(dev, rng, blocks):
    half = 8 * int(rng.integers(1, 17))
    x = rng.standard_normal(blocks * 2 * half).astype(np.float32)
    y, z = dev.alloc(x.nbytes), dev.alloc(x.nbytes)
    assert dev.launch("mix_mode1", blocks, dev.upload(x), y, z, half) == 0, dev.error()
    expected = 2 * (x + 1).reshape(blocks, 2, half)[:, ::-1, :].reshape(-1)
    np.testing.assert_allclose(dev.download(z, x), expected, rtol=1e-6)


def test_block_ids_of_each_core_type(dev):
    blocks = 4
    out = np.zeros((3 * blocks, 6), dtype=np.int64)
    d = dev.alloc(out.nbytes)
    assert dev.launch("mix_ids", blocks, d) == 0, dev.error()
    got = dev.download(d, out)
    aic = [[1, b, blocks, 0, 1, 1] for b in range(blocks)]
    aiv = [[2, v, blocks, v % 2, 2, 2] for v in range(2 * blocks)]
    assert got.tolist() == aic + aiv


@pytest.mark.parametrize(
    "which,expected",
    [
        (0, "kernel mix_misuse AIV block 0: CrossCoreSetFlag: flagId 11 is out of range (0-10)"),
        (
            1,
            "kernel mix_misuse AIV block 1: CrossCoreWaitFlag(6) on AIV 1: deadlock: every other core of the launch "
            "has ended or waits too, nobody can set it",
        ),
        (2, "kernel mix_misuse AIC block 0: CrossCoreSetFlag<1>: mode 1 synchronises the AIVs of one AI core"),
        (
            3,
            "kernel mix_misuse AIC block 0: CrossCoreSetFlag<2>: flagId 8 of AIV 0 was set 16 times without a "
            "CrossCoreWaitFlag (at most 15)",
        ),
    ],
)
def test_cross_core_misuse_traps_with_one_line(dev, which, expected):
    assert dev.launch("mix_misuse", 2, which) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = dev.error()
    assert expected in msg, msg
    assert "\n" not in msg.strip()


def test_mode2_in_a_vector_kernel_traps(dev):
    assert dev.launch("vec_mode2", 2) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = dev.error()
    assert (
        "kernel vec_mode2 block 0: CrossCoreSetFlag<2>: mode 2 synchronises an AIC with its AIVs, but a "
        "KERNEL_TYPE_AIV_ONLY kernel runs no AIC"
    ) in msg, msg


@pytest.mark.parametrize(
    "which,name,position",
    [
        (0, "UB", "AIV"),
        (1, "L1", "AIC"),
        (2, "L0A", "AIC"),
        (3, "L0B", "AIC"),
        (4, "L0C", "AIC"),
        (5, "BIAS", "AIC"),
        (6, "FIXBUF", "AIC"),
        (8, "L1", "AIV"),
    ],
)
def test_init_buffer_overflow_names_the_memory(dev, which, name, position):
    size = SIZES[name]
    assert dev.launch("mix_overflow", 1, which, size) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = dev.error()
    expected = (
        f"{position} block 0: TPipe::InitBuffer: {name} capacity exceeded: 1 x {size + 32} B requested at "
        f"offset 0, {name} of Ascend910B1 is {size} B"
    )
    assert expected in msg, msg


def test_a_cube_queue_on_an_aiv_traps(dev):
    assert dev.launch("mix_overflow", 1, 7, 32) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = dev.error()
    assert "AIV block 0: TPipe::InitBuffer: this block runs on an AIV, which has no L1" in msg, msg


def test_a_tscm_queue_on_an_aiv_of_a_mixed_kernel_holds_the_whole_l1(dev):
    assert dev.launch("mix_overflow", 1, 8, SIZES["L1"] - 32) == 0, dev.error()


def test_a_cube_kernel_fills_its_memories_to_the_end(dev):
    assert dev.launch("aic_fill", 3, SIZES["L1"], SIZES["L0A"]) == 0, dev.error()


@pytest.mark.parametrize("blocks", [1, 3, 24])
def test_sync_all_in_a_mixed_kernel_waits_for_every_aiv(dev, rng, blocks):
    chunk = 8 * int(rng.integers(1, 9))
    aivs = 2 * blocks
    x = rng.standard_normal(aivs * chunk).astype(np.float32)
    y, z = dev.alloc(x.nbytes), dev.alloc(x.nbytes)
    assert dev.launch("mix_sync_all", blocks, dev.upload(x), y, z, chunk) == 0, dev.error()
    expected = 2 * np.roll((x + 1).reshape(aivs, chunk), -1, axis=0).reshape(-1)
    np.testing.assert_allclose(dev.download(z, x), expected, rtol=1e-6)


@pytest.mark.parametrize("blocks", [1, 4])
def test_an_aic_may_set_up_ub_queues_it_never_uses(dev, rng, blocks):
    count = 8 * int(rng.integers(1, 17))
    x = rng.standard_normal(blocks * 2 * count).astype(np.float32)
    y = dev.alloc(x.nbytes)
    assert dev.launch("mix_ub_queue_everywhere", blocks, dev.upload(x), y, count, 0) == 0, dev.error()
    np.testing.assert_array_equal(dev.download(y, x), x + 1)


def test_an_aic_using_its_ub_queue_traps(dev):
    assert dev.launch("mix_ub_queue_everywhere", 1, dev.alloc(64), dev.alloc(64), 8, 1) == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = dev.error()
    assert "AIC block 0: TQue::AllocTensor: this block runs on an AIC, which has no UB" in msg, msg
