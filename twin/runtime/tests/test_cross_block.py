"""Blocks that wait for each other (SyncAll, IBSet, IBWait) through libascendcl.so: the runtime
runs every block of such a launch at once, as the NPU does when blockDim <= the AI-core count.
And launches on different streams (host threads) that run at the same time on one device.

Env: ASCENDCL_LIB, CROSS_BLOCK_KERNEL (tests/kernels/cross_block.asc built by bisheng).
Random data (seed printed), compared with numpy.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

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

ACL_ERROR_RT_AICORE_TIMEOUT = 507014
ACL_ERROR_RT_AICORE_EXCEPTION = 507015
MAX_RESIDENT_910B1 = 48  # Ascend910B1: 24 AI cores, 48 vector cores


@pytest.fixture(scope="module")
def acl() -> ctypes.CDLL:
    return load_acl(os.environ["ASCENDCL_LIB"])


@pytest.fixture()
def rng() -> np.random.Generator:
    seed = int.from_bytes(os.urandom(4), "little")
    print(f"seed {seed}")
    return np.random.default_rng(seed)


class Device:
    """aclInit .. aclFinalize around one stream and the cross-block kernels; device buffers
    freed at the end."""

    def __init__(self, acl: ctypes.CDLL):
        self.acl = acl
        ok(acl, acl.aclInit(None))
        ok(acl, acl.aclrtSetDevice(0))
        self.stream = ctypes.c_void_p()
        ok(acl, acl.aclrtCreateStream(ctypes.byref(self.stream)))
        data = open(resolve(os.environ["CROSS_BLOCK_KERNEL"]), "rb").read()
        self.binary = ctypes.c_void_p()
        ok(acl, acl.aclrtBinaryLoadFromData(data, len(data), None, ctypes.byref(self.binary)))
        self.buffers: list[ctypes.c_void_p] = []

    def alloc(self, nbytes: int) -> ctypes.c_void_p:
        d = ctypes.c_void_p()
        ok(self.acl, self.acl.aclrtMalloc(ctypes.byref(d), nbytes, ACL_MEM_MALLOC_NORMAL_ONLY))
        ok(self.acl, self.acl.aclrtMemset(d, nbytes, 0, nbytes))  # workspaces start zeroed
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

    def launch(self, kernel: str, blocks: int, *args: int) -> int:
        """Launch + synchronize; the synchronize's code."""
        blob = np.array([a.value if isinstance(a, ctypes.c_void_p) else a for a in args], dtype=np.uint64)
        ok(
            self.acl,
            self.acl.aclrtLaunchKernel(
                function(self.acl, self.binary, kernel), blocks, blob.ctypes.data, blob.nbytes, self.stream
            ),
        )
        return self.acl.aclrtSynchronizeStream(self.stream)

    def close(self) -> None:
        for d in self.buffers:
            ok(self.acl, self.acl.aclrtFree(d))
        ok(self.acl, self.acl.aclrtBinaryUnLoad(self.binary))
        ok(self.acl, self.acl.aclrtDestroyStream(self.stream))
        ok(self.acl, self.acl.aclrtResetDevice(0))
        ok(self.acl, self.acl.aclFinalize())


@pytest.fixture()
def device(acl: ctypes.CDLL):
    dev = Device(acl)
    yield dev
    dev.close()


def normalize_reference(x: np.ndarray, blocks: int) -> tuple[np.ndarray, np.float32]:
    """What the kernel computes, in its order: per-block float32 sums, their float32 total,
    y = x / total, and max(y)."""
    chunks = x.reshape(blocks, -1)
    partial = np.array([np.float32(sum(c.tolist(), np.float32(0))) for c in chunks], dtype=np.float32)
    total = np.float32(0)
    for p in partial:
        total = np.float32(total + p)
    y = (x / total).astype(np.float32)
    return y, y.max()


@pytest.mark.parametrize("kernel", ["normalize_sync_all", "normalize_sync_all_hw"])
@pytest.mark.parametrize("blocks", [1, 7, MAX_RESIDENT_910B1])
def test_sync_all_reduces_across_blocks(device: Device, rng: np.random.Generator, kernel: str, blocks: int) -> None:
    per_block = 64
    x = rng.uniform(0.5, 2.0, blocks * per_block).astype(np.float32)
    dx, dy = device.upload(x), device.alloc(x.nbytes)
    dpartial, dstats = device.alloc(2 * blocks * 4), device.alloc(blocks * 4)
    args = [dx, dpartial, dy, dstats]
    if kernel == "normalize_sync_all":
        args.append(device.alloc(blocks * 32))  # GM workspace: 32 bytes per block, zeroed
    rc = device.launch(kernel, blocks, *args, per_block)
    assert rc == 0, device.acl.aclGetRecentErrMsg()
    want_y, want_max = normalize_reference(x, blocks)
    np.testing.assert_allclose(device.download(dy, x), want_y, rtol=1e-6)
    # every block read every other block's maximum after the second barrier
    np.testing.assert_allclose(
        device.download(dstats, np.zeros(blocks, np.float32)), np.full(blocks, want_max), rtol=1e-6
    )


@pytest.mark.parametrize("kernel", ["normalize_sync_all", "normalize_sync_all_hw"])
def test_sync_all_on_the_small_launch_path_keeps_blocks_resident(
    acl: ctypes.CDLL, rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch, kernel: str
) -> None:
    """The small-launch path runs a launch on the device's dispatcher alone; with its threshold
    raised (read when the device process starts) every launch after the kernel's first takes
    it. Blocks that wait must still all become resident: block 0 waits, the others get threads."""
    monkeypatch.setenv("ASCEND_TWIN_INLINE_LAUNCH_NS", str(10**9))
    device = Device(acl)
    try:
        ok(acl, acl.aclrtSetOpExecuteTimeOut(5))  # a lost block ends in 507014, not a hang
        blocks, per_block = MAX_RESIDENT_910B1, 64
        for _ in range(3):  # the first launch learns the pace; the others run inline
            x = rng.uniform(0.5, 2.0, blocks * per_block).astype(np.float32)
            dx, dy = device.upload(x), device.alloc(x.nbytes)
            dpartial, dstats = device.alloc(2 * blocks * 4), device.alloc(blocks * 4)
            args = [dx, dpartial, dy, dstats]
            if kernel == "normalize_sync_all":
                args.append(device.alloc(blocks * 32))
            rc = device.launch(kernel, blocks, *args, per_block)
            assert rc == 0, device.acl.aclGetRecentErrMsg()
            want_y, want_max = normalize_reference(x, blocks)
            np.testing.assert_allclose(device.download(dy, x), want_y, rtol=1e-6)
            np.testing.assert_allclose(
                device.download(dstats, np.zeros(blocks, np.float32)), np.full(blocks, want_max), rtol=1e-6
            )
    finally:
        ok(acl, acl.aclrtSetOpExecuteTimeOut(0))
        device.close()


def test_ib_chain_runs_blocks_out_of_claim_order(device: Device, rng: np.random.Generator) -> None:
    # Block b waits for block b + 1: with blocks claimed from 0 on and fewer threads than
    # blocks, only a resident launch can finish.
    blocks = MAX_RESIDENT_910B1
    x = rng.uniform(-10, 10, blocks).astype(np.float32)
    dx, dout = device.upload(x), device.alloc(x.nbytes)
    for _ in range(2):  # the flags stay set: a new zeroed workspace per launch
        assert device.launch("suffix_chain", blocks, dx, dout, device.alloc(blocks * 32)) == 0, (
            device.acl.aclGetRecentErrMsg()
        )
        want = np.zeros(blocks, np.float32)
        carry = np.float32(0)
        for b in reversed(range(blocks)):
            carry = np.float32(x[b] + carry)
            want[b] = carry
        np.testing.assert_array_equal(device.download(dout, x), want)


def test_more_blocks_than_cores_is_refused(device: Device) -> None:
    blocks = MAX_RESIDENT_910B1 + 1
    x = np.ones(blocks * 8, np.float32)
    rc = device.launch(
        "normalize_sync_all_hw",
        blocks,
        device.upload(x),
        device.alloc(2 * blocks * 4),
        device.alloc(x.nbytes),
        device.alloc(blocks * 4),
        8,
    )
    assert rc == ACL_ERROR_RT_AICORE_EXCEPTION
    msg = device.acl.aclGetRecentErrMsg().decode()
    assert "normalize_sync_all_hw" in msg and "numBlocks=49 exceeds the 48 cores of Ascend910B1" in msg, msg
    assert "\n" not in msg


def test_ib_wait_never_satisfied_ends_by_the_watchdog(device: Device, rng: np.random.Generator) -> None:
    acl = device.acl
    ok(acl, acl.aclrtSetOpExecuteTimeOut(1))
    try:
        rc = device.launch("wait_forever", 4, device.alloc(4 * 64))
        assert rc == ACL_ERROR_RT_AICORE_TIMEOUT
        msg = acl.aclGetRecentErrMsg().decode()
        # the 1 s timeout set above is the one that ended it (the default is 1091 s)
        assert "kernel wait_forever block 0: still running after the operator execution timeout of 1000 ms" in msg, msg
    finally:
        ok(acl, acl.aclrtSetOpExecuteTimeOut(0))
    # the device was reset; the next launch works
    blocks = 5
    x = rng.uniform(0.5, 2.0, blocks * 16).astype(np.float32)
    dy = device.alloc(x.nbytes)
    assert (
        device.launch(
            "normalize_sync_all_hw",
            blocks,
            device.upload(x),
            device.alloc(2 * blocks * 4),
            dy,
            device.alloc(blocks * 4),
            16,
        )
        == 0
    ), acl.aclGetRecentErrMsg()
    np.testing.assert_allclose(device.download(dy, x), normalize_reference(x, blocks)[0], rtol=1e-6)


def _run_on_own_stream(
    acl: ctypes.CDLL,
    context: ctypes.c_void_p,
    binary: ctypes.c_void_p,
    codes: dict,
    messages: dict,
    name: str,
    kernel: str,
    *args,
) -> None:
    """On this thread: a stream of its own, launch + synchronize, the code and message kept."""
    ok(acl, acl.aclrtSetCurrentContext(context))
    stream = ctypes.c_void_p()
    ok(acl, acl.aclrtCreateStream(ctypes.byref(stream)))
    blob = np.array([a.value if isinstance(a, ctypes.c_void_p) else a for a in args], dtype=np.uint64)
    ok(acl, acl.aclrtLaunchKernel(function(acl, binary, kernel), 1, blob.ctypes.data, blob.nbytes, stream))
    codes[name] = acl.aclrtSynchronizeStream(stream)
    msg = acl.aclGetRecentErrMsg()
    messages[name] = msg.decode() if msg else ""
    ok(acl, acl.aclrtDestroyStream(stream))


def _two_streams(device: Device, first: tuple, second: tuple) -> tuple[dict, dict]:
    """Runs `first` (wait_for_flag) on one host thread, then, once the kernel itself says it is
    running, `second` on another: the order is observed, not assumed from a sleep."""
    started = device.alloc(64)
    first = first + (started,)
    context = ctypes.c_void_p()
    ok(device.acl, device.acl.aclrtGetCurrentContext(ctypes.byref(context)))
    codes: dict[str, int] = {}
    messages: dict[str, str] = {}
    threads = [
        threading.Thread(target=_run_on_own_stream, args=(device.acl, context, device.binary, codes, messages, *launch))
        for launch in (first, second)
    ]
    threads[0].start()
    seen = ctypes.c_int32.from_address(started.value)  # (alloc zeroed it) device memory is host memory here
    deadline = time.monotonic() + 60
    while seen.value == 0 and threads[0].is_alive() and time.monotonic() < deadline:
        time.sleep(0.001)
    assert seen.value == 1, "the first launch never started"
    threads[1].start()
    for t in threads:
        t.join(60)
    return codes, messages


def test_launches_on_two_streams_run_at_the_same_time(device: Device) -> None:
    # wait_for_flag (stream A) ends only when raise_flag (stream B, another host thread) runs
    # while it is still in flight; serialized launches would time it out (out = 2).
    flag, out = device.alloc(64), device.alloc(64)
    codes, messages = _two_streams(
        device, ("wait", "wait_for_flag", flag, out, 10_000_000), ("raise", "raise_flag", flag)
    )
    assert codes == {"wait": 0, "raise": 0}, messages
    assert device.download(out, np.zeros(1, np.int32))[0] == 1, "the launches did not overlap"


def test_a_fault_fails_every_launch_in_flight_and_names_the_culprit(device: Device, rng: np.random.Generator) -> None:
    flag, out = device.alloc(64), device.alloc(64)
    codes, messages = _two_streams(
        device, ("wait", "wait_for_flag", flag, out, 20_000_000), ("fault", "wild_store", flag)
    )
    assert codes == {"wait": ACL_ERROR_RT_AICORE_EXCEPTION, "fault": ACL_ERROR_RT_AICORE_EXCEPTION}, messages
    assert messages["fault"].startswith("kernel wild_store block 0: SIGSEGV"), messages
    assert messages["wait"].startswith(
        "kernel wait_for_flag: the device was reset while it ran: kernel wild_store block 0: SIGSEGV"
    ), messages
    # the device restarted; launches work again
    blocks = 3
    x = rng.uniform(0.5, 2.0, blocks * 16).astype(np.float32)
    dy = device.alloc(x.nbytes)
    assert (
        device.launch(
            "normalize_sync_all_hw",
            blocks,
            device.upload(x),
            device.alloc(2 * blocks * 4),
            dy,
            device.alloc(blocks * 4),
            16,
        )
        == 0
    ), device.acl.aclGetRecentErrMsg()
    np.testing.assert_allclose(device.download(dy, x), normalize_reference(x, blocks)[0], rtol=1e-6)


@pytest.mark.parametrize("blocks", [2, 9, MAX_RESIDENT_910B1])
def test_prologue_clears_land_before_any_block_accumulates(
    device: Device, rng: np.random.Generator, blocks: int
) -> None:
    """Every block clears the whole output, then atomically adds its row (no barrier): as on the
    NPU, where all blocks start together, the output is the sum of all rows, not of the rows of
    the blocks that ran after the last clear."""
    n = 1024
    x = rng.uniform(-4.0, 4.0, (blocks, n)).astype(np.float32)
    dx = device.upload(x)
    dout = device.upload(rng.uniform(-1.0, 1.0, n).astype(np.float32))  # garbage the clears must remove
    rc = device.launch("clear_then_accumulate", blocks, dx, dout, n)
    assert rc == 0, device.acl.aclGetRecentErrMsg()
    np.testing.assert_allclose(device.download(dout, x[0]), x.sum(axis=0, dtype=np.float64), rtol=1e-5, atol=1e-4)


def test_accumulation_of_a_launch_too_large_to_be_resident_is_not_ordered(
    device: Device, rng: np.random.Generator
) -> None:
    """More blocks than the SoC holds at once run in waves (on the NPU too): no ordering is
    promised, and the launch still runs to the end without waiting."""
    blocks, n = MAX_RESIDENT_910B1 + 16, 256
    x = rng.uniform(-4.0, 4.0, (blocks, n)).astype(np.float32)
    rc = device.launch("clear_then_accumulate", blocks, device.upload(x), device.alloc(n * 4), n)
    assert rc == 0, device.acl.aclGetRecentErrMsg()
