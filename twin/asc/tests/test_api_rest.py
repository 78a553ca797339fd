"""Blocks polling each other's GM flags through the data cache, kernel printf through the
runtime (CANN's "[AIV Block i/n] " prefix, block order), LocalMemAllocator over every local
memory, Fill / InitGlobalMemory and AscendC::Std, each as a CANN sample uses them (kernels:
programs/api_rest.asc, built by bisheng, run through libascendcl). Random inputs checked against
numpy; the seed is printed (ASC_TWIN_SEED=<n> repeats a run).

Env: ASCENDCL_LIB, API_REST (device binary).
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import ACL_ERROR_RT_AICORE_EXCEPTION, F16, F32, device_fixtures, rng_for  # noqa: E402

KERNELS = [
    "dcci_poll",
    "printf_blocks",
    "printf_then_trap",
    "l1_atomic_chain",
    "allocator_facts",
    "allocator_overflow",
    "fill_add_f32",
    "fill_f16",
    "fill_i32",
    "fill_u16",
    "init_global_memory_f32",
    "std_traits",
]
dev, free_buffers = device_fixtures(lambda: {"API_REST": KERNELS})


def bits(value, dtype) -> int:
    return int(np.array([value], dtype).view({2: np.uint16, 4: np.uint32}[np.dtype(dtype).itemsize])[0])


# ---------------------------------------------------------------- polling GM through the data cache


@pytest.mark.parametrize("blocks", [2, 4, 24, 48])
def test_blocks_polling_each_others_flags_through_the_data_cache_complete(dev, blocks):
    """gm_by_dcache: block 0 spins on GetValue after DataCacheCleanAndInvalid for the flags the
    other blocks set. It hung: the compiler kept the first load of the flag in a register, and the
    blocks block 0 waited for could be queued behind it on its own thread. Here the other blocks
    also wait for block 0 first, so a launch that is not resident hangs either way round."""
    flags, out = dev.put(np.zeros(blocks * 16, np.int32)), dev.put(np.zeros(2, np.int64))
    assert dev.launch("dcci_poll", blocks, flags, out, 20000) == 0
    total, _ = dev.get(out, np.zeros(2, np.int64))
    assert total == sum((b + 1) * 3 for b in range(1, blocks))


# ---------------------------------------------------------------- printf

LINE = re.compile(r"^\[AIV Block (\d+)/(\d+)\] line (\d+) of block (\d+), (.*)$")


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_printf_records_come_per_launch_in_block_order_with_cann_prefix(dev, capfd, blocks):
    """hello_world / 00_printf: every record starts with "[AIV Block <idx>/<num>] " and a launch's
    records are printed block by block (block 0's first) when the stream is synchronized, even
    though the later blocks print first."""
    lines = 4
    capfd.readouterr()
    assert dev.launch("printf_blocks", blocks, lines, 30000) == 0
    out = capfd.readouterr().out.splitlines()
    want = []
    for b in range(blocks):
        for k in range(lines):
            tail = f"half {0.5 + b:f}" if k % 3 == 0 else f"hex {0xA0 + b:x}" if k % 3 == 1 else "str ok"
            want.append(f"[AIV Block {b}/{blocks}] line {k} of block {b}, {tail}")
    assert out == want


def test_printf_before_a_trap_is_printed_and_the_launch_fails(dev, capfd):
    capfd.readouterr()
    rc = dev.launch("printf_then_trap", 2)
    assert rc == ACL_ERROR_RT_AICORE_EXCEPTION
    out = capfd.readouterr().out.splitlines()
    assert out[0] == "[AIV Block 0/2] before the trap"  # block 1 may never start once block 0 failed
    assert "Trap: the kernel executed Trap()" in dev.lib.aclGetRecentErrMsg().decode()


# ---------------------------------------------------------------- LocalMemAllocator


def test_l1_tiles_accumulate_into_gm_in_a_fixed_block_order(dev):
    """set_atomic_deterministic_computation, scenario 3: LocalMemAllocator<Hardware::L1> used to be
    a static_assert. Four blocks move their slice GM -> L1 -> GM, block 0 as the initial value,
    the others with SetAtomicAdd in the order 0, 2, 3, 1 (GM flags), so the float sums are the
    ones of that order exactly."""
    rng = rng_for("l1_atomic_chain")
    n = 256
    src = rng.uniform(-100, 100, (4, n)).astype(F32)
    s, sync, dst = dev.put(src), dev.put(np.zeros(4 * 32, np.int32)), dev.put(np.zeros(n, F32))
    assert dev.launch("l1_atomic_chain", 4, s, sync, dst, n) == 0
    want = ((src[0] + src[2]) + src[3]) + src[1]
    np.testing.assert_array_equal(dev.get(dst, np.zeros(n, F32)), want)


def test_every_local_memory_allocates_aligned_tiles_from_its_own_address_zero(dev):
    rng = rng_for("allocator_facts")
    x = rng.standard_normal(64).astype(F32)
    px, po, pi = dev.put(x), dev.put(np.zeros(64, F32)), dev.put(np.zeros(32, np.int64))
    assert dev.launch("allocator_facts", 1, px, po, pi) == 0
    facts = dev.get(pi, np.zeros(32, np.int64))
    # 3 halves round up to one 32-byte block; the 16 floats follow at 32; default positions
    # VECCALC, A1, A2, B2, CO1, C2, C2PIPE2GM
    for i, pos in enumerate([11, 1, 2, 4, 7, 6, 14]):
        assert facts[4 * i : 4 * i + 4].tolist() == [96, 32, pos, 16], i
    assert facts[28] == 3  # Alloc<TPosition::B1, ...>
    np.testing.assert_array_equal(dev.get(po, np.zeros(64, F32)), x)


@pytest.mark.parametrize(
    "which,name,capacity",
    [(0, "UB", 196608), (1, "L1", 524288), (2, "L0A", 65536), (3, "L0C", 131072), (4, "BIAS", 1024)],
)
def test_allocating_beyond_a_memory_traps_naming_it(dev, which, name, capacity):
    dev.expect_trap(
        "allocator_overflow",
        1,
        (which, capacity + 32),
        f"LocalMemAllocator::Alloc: {name} capacity exceeded: {capacity + 32} B requested at offset 0, "
        f"{name} is {capacity} B",
        (which, capacity),
    )


# ---------------------------------------------------------------- Fill


@pytest.mark.parametrize("blocks", [1, 3])
def test_fill_then_atomic_add_gives_value_plus_sum(dev, blocks):
    """04_advanced_api/08_transpose/fill: z = Fill(value) per block, then x + y added atomically."""
    rng = rng_for("fill_add", blocks)
    n = 256 * int(rng.integers(1, 5))
    x, y = (rng.uniform(-10, 10, blocks * n).astype(F32) for _ in range(2))
    value = F32(rng.uniform(-5, 5))
    px, py, pz = dev.put(x), dev.put(y), dev.put(np.full(blocks * n, np.nan, F32))
    assert dev.launch("fill_add_f32", blocks, px, py, pz, n, bits(value, F32)) == 0
    np.testing.assert_array_equal(dev.get(pz, np.zeros(blocks * n, F32)), value + (x + y))


@pytest.mark.parametrize("kernel,dtype", [("fill_f16", F16), ("fill_i32", np.int32), ("fill_u16", np.uint16)])
def test_fill_sets_exactly_n_elements_of_each_type(dev, kernel, dtype):
    rng = rng_for(kernel)
    n = int(rng.integers(1, 3000))
    if dtype == F16:
        value = F16(rng.uniform(-100, 100))
    else:
        info = np.iinfo(dtype)
        value = dtype(rng.integers(info.min, info.max, dtype=dtype))
    guard = np.full(n + 64, 7, dtype)
    pz = dev.put(guard)
    assert dev.launch(kernel, 1, pz, n, bits(value, dtype)) == 0
    got = dev.get(pz, guard)
    np.testing.assert_array_equal(got[:n], np.full(n, value, dtype))
    np.testing.assert_array_equal(got[n:], guard[n:])


def test_fill_beyond_its_allocation_traps_and_writes_nothing(dev):
    z = np.zeros(1024, F32)  # the device rounds allocations up (pages): overrun it by far
    pz = dev.put(z)
    dev.expect_trap("init_global_memory_f32", 1, (pz, 1000, 1 << 22), "InitGlobalMemory: GM access", (pz, 0, 0))
    np.testing.assert_array_equal(dev.get(pz, z), 0)
    assert dev.launch("init_global_memory_f32", 1, pz, 1000, 24) == 0
    got = dev.get(pz, z)
    np.testing.assert_array_equal(got[:1000], 0)
    np.testing.assert_array_equal(got[1000:], 2.5)


# ---------------------------------------------------------------- AscendC::Std


def test_std_traits_in_a_kernel(dev):
    """04_advanced_api/11_utils/type_traits: AscendC::Std did not exist. The .asc's static_asserts
    check CANN's own definitions at compile time; this checks a kernel's table of answers."""
    out = dev.put(np.zeros(32, np.int32))
    assert dev.launch("std_traits", 1, out) == 0
    want = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1]
    assert dev.get(out, np.zeros(32, np.int32))[: len(want)].tolist() == want
