"""The Matmul surface CANN's samples build on, against numpy: kernels of api_matmul_ext.asc on
random data (seed printed; ASC_TWIN_SEED=<n> repeats a run). A constant tiling (full: a null
tiling at REGIST_MATMUL_OBJ; partial: its base block wins over the runtime tiling's), the policies
(NBuffer33 computes everything; the triangle policies only the base blocks on and above / below
the diagonal, the rest of C untouched), C left in L0C for the kernel's Fixpipe, A staged in TSCM
(and the host tiling keeping a TSCM A whole on each core), a 4:2 sparse B through the Matmul API
and through the cube's LoadDataWithSparse + MmadWithSparse; then the misuses that must trap.

fp16 inputs accumulate in fp32 (products exact), compared with float64 at sqrt(K) x 1e-5 scaled;
int8 results are exact.

Env: ASCENDCL_LIB, API_MATMUL_EXT (device binary), MATMUL_TILING_TOOL, ASCEND_TWIN_PLATFORM_DIR.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from api_testlib import device_fixtures, rng_for  # noqa: E402
from matmul_testlib import tiling  # noqa: E402

KERNELS = [
    "mm_static_full",
    "mm_static_base",
    "mm_policy_default",
    "mm_policy_nbuffer33",
    "mm_policy_upper",
    "mm_policy_lower",
    "mm_co1",
    "mm_tscm",
    "mm_nz_float_c",
    "mm_sparse",
    "mmad_sparse",
    "mm_ext_traps",
]
dev, free_buffers = device_fixtures(lambda: {"API_MATMUL_EXT": KERNELS})

# TCubeTiling word indices
USED, SM, SN, SK, BM, BN, BK = 0, 5, 6, 7, 8, 9, 10


def half_operands(rng, m, n, k):
    a = rng.uniform(-2, 2, (m, k)).astype(np.float16)
    b = rng.uniform(-2, 2, (k, n)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def assert_fp32_close(got, want, k):
    np.testing.assert_allclose(got, want, rtol=0, atol=np.sqrt(k) * 1e-5 * max(1.0, np.abs(want).max()))


def nz(x: np.ndarray, c0: int) -> np.ndarray:
    """ND (rows x cols, both padded here to 16 / c0) -> NZ fractals: (cols/c0, rows, c0)."""
    r, c = x.shape
    rp, cp = -(-r // 16) * 16, -(-c // c0) * c0
    pad = np.zeros((rp, cp), x.dtype)
    pad[:r, :c] = x
    return np.ascontiguousarray(pad.reshape(rp, cp // c0, c0).transpose(1, 0, 2))


@pytest.mark.parametrize("m,n,k,rows,bias", [(128, 256, 64, 128, False), (190, 333, 100, 64, True)])
def test_full_constant_tiling_with_null_tiling_pointer(dev, m, n, k, rows, bias):
    rng = rng_for("static", m, n, k)
    a, b, want = half_operands(rng, m, n, k)
    bvec = rng.uniform(-4, 4, n).astype(np.float32)
    pc = dev.put(np.zeros((m, n), np.float32))
    blocks = -(-m // rows)
    assert (
        dev.launch("mm_static_full", blocks, dev.put(a), dev.put(b), dev.put(bvec), pc, m, n, k, rows, int(bias)) == 0
    )
    got = dev.get(pc, np.zeros((m, n), np.float32))
    assert_fp32_close(got, want + (bvec if bias else 0), k)


def test_partial_constant_tiling_base_block_wins_over_the_runtime_one(dev):
    m, n, k = 100, 150, 70
    rng = rng_for("static_base")
    a, b, want = half_operands(rng, m, n, k)
    t = tiling(m, n, k, 1, "f16", "f32")
    assert (t[BM], t[BN]) != (32, 48)  # the host chose another base block
    pc, pcount = dev.put(np.zeros((m, n), np.float32)), dev.put(np.zeros(8, np.int32))
    assert dev.launch("mm_static_base", 1, dev.put(a), dev.put(b), pc, dev.put(t), pcount) == 0
    assert_fp32_close(dev.get(pc, np.zeros((m, n), np.float32)), want, k)
    assert dev.get(pcount, np.zeros(8, np.int32))[0] == -(-m // 32) * -(-n // 48)


def wanted_blocks(m, n, bm, bn, policy):
    """Mask of the C elements a policy computes (block row i, block column j of the base grid)."""
    bi = np.arange(m)[:, None] // bm
    bj = np.arange(n)[None, :] // bn
    if policy == "upper":
        return np.broadcast_to(bi <= bj, (m, n))
    if policy == "lower":
        return np.broadcast_to(bi >= bj, (m, n))
    return np.ones((m, n), bool)


@pytest.mark.parametrize("iterate", [0, 1], ids=["iterate_all", "iterate"])
@pytest.mark.parametrize("policy", ["default", "nbuffer33", "upper", "lower"])
def test_policies_compute_their_blocks_and_leave_the_rest(dev, policy, iterate):
    m, n, k = 150, 200, 96
    rng = rng_for("policy", policy, iterate)
    a, b, want = half_operands(rng, m, n, k)
    bvec = rng.uniform(-4, 4, n).astype(np.float32)
    t = tiling(m, n, k, 1, "f16", "f32", bias=True, fix=(32, 48, 32))
    c0 = rng.uniform(-1, 1, (m, n)).astype(np.float32)
    pc = dev.put(c0)
    assert dev.launch(f"mm_policy_{policy}", 1, dev.put(a), dev.put(b), dev.put(bvec), pc, dev.put(t), iterate) == 0
    got = dev.get(pc, c0)
    mask = wanted_blocks(m, n, 32, 48, policy)
    assert_fp32_close(got[mask], (want + bvec)[mask], k)
    np.testing.assert_array_equal(got[~mask], c0[~mask])
    if policy in ("upper", "lower"):
        assert (~mask).any() and mask.any()


def test_c_left_in_l0c_goes_out_through_the_kernels_fixpipe(dev):
    m, n, k = 120, 90, 80
    rng = rng_for("co1")
    a, b, want = half_operands(rng, m, n, k)
    t = tiling(m, n, k, 1, "f16", "f32", fix=(48, 32, 32))
    pc = dev.put(np.zeros((m, n), np.float32))
    assert dev.launch("mm_co1", 1, dev.put(a), dev.put(b), pc, dev.put(t)) == 0
    assert_fp32_close(dev.get(pc, np.zeros((m, n), np.float32)), want, k)


@pytest.mark.parametrize("split,c0", [(0, 16), (1, 8)], ids=["fractal_16x16", "channel_split_16x8"])
def test_float_nz_c_fractals(dev, split, c0):
    m, n, k = 64, 96, 48
    rng = rng_for("nzc", split)
    a, b, want = half_operands(rng, m, n, k)
    t = tiling(m, n, k, 1, "f16", "f32")
    out = np.zeros(m * n, np.float32)
    pc = dev.put(out)
    assert dev.launch("mm_nz_float_c", 1, dev.put(a), dev.put(b), pc, dev.put(t), split) == 0
    got = dev.get(pc, out).reshape(n // c0, m, c0)
    assert_fp32_close(got, nz(want, c0), k)


def test_a_staged_in_tscm(dev):
    m, n, k = 64, 96, 48  # A's NZ needs M and K multiples of 16
    rng = rng_for("tscm")
    a, b, want = half_operands(rng, m, n, k)
    t = tiling(m, n, k, 1, "f16@tscm", "f32")
    pc = dev.put(np.zeros((m, n), np.float32))
    assert dev.launch("mm_tscm", 1, dev.put(nz(a, 16)), dev.put(b), pc, dev.put(t)) == 0
    assert_fp32_close(dev.get(pc, np.zeros((m, n), np.float32)), want, k)


def test_host_tiling_keeps_a_tscm_a_whole_on_each_core():
    gm = tiling(256, 512, 192, 8, "f16", "f32")
    t = tiling(256, 512, 192, 8, "f16@tscm", "f32")
    assert gm[SM] < 256  # the GM A is split along M
    assert t[SM] == 256 and t[SK] == 192 and t[USED] > 1  # the TSCM A is not, N still is


def sparse_b(rng, n, k):
    """A 4:2 sparse B (n x k, its transpose as the samples store it), its dense n x k/2 form and the
    2-bit index (n x k/8 bytes, first index in the low bits): kept value e of group g sits at
    4g + e + index."""
    full = np.zeros((n, k), np.int8)
    dense = np.zeros((n, k // 2), np.int8)
    index = np.zeros((n, k // 2), np.uint8)
    for g in range(k // 4):
        pos = np.sort(np.stack([rng.choice(4, 2, replace=False) for _ in range(n)]), axis=1)
        vals = rng.integers(-100, 101, (n, 2)).astype(np.int8)
        rows = np.arange(n)
        full[rows, 4 * g + pos[:, 0]] = vals[:, 0]
        full[rows, 4 * g + pos[:, 1]] = vals[:, 1]
        dense[:, 2 * g : 2 * g + 2] = vals
        index[:, 2 * g] = pos[:, 0]
        index[:, 2 * g + 1] = pos[:, 1] - 1
    packed = np.zeros((n, k // 8), np.uint8)
    for j in range(4):
        packed |= (index[:, j::4] << (2 * j)).astype(np.uint8)
    return full, dense, packed


@pytest.mark.parametrize("m,n,k,dim", [(64, 96, 64, 1), (100, 300, 128, 6)])
def test_sparse_matmul_matches_numpy(dev, m, n, k, dim):
    rng = rng_for("sparse", m, n, k)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    full, dense, packed = sparse_b(rng, n, k)
    t = tiling(m, n, k, dim, "i8", "i32", trans_b=True)
    pc = dev.put(np.zeros((m, n), np.int32))
    index_nz = nz(packed, 8)  # NZ fractals of 16 rows x 8 bytes over N
    assert dev.launch("mm_sparse", int(t[USED]), dev.put(a), dev.put(dense), dev.put(index_nz), pc, dev.put(t), 1) == 0
    got = dev.get(pc, np.zeros((m, n), np.int32))
    np.testing.assert_array_equal(got, a.astype(np.int64) @ full.T.astype(np.int64))


def zn_dense(dense: np.ndarray) -> np.ndarray:
    """The dense B (n x k/2) as L0B's Zn fractals: (k/2/32, n/16, 16 rows of n, 32 of k)."""
    n, kd = dense.shape
    return np.ascontiguousarray(dense.reshape(n // 16, 16, kd // 32, 32).transpose(2, 0, 1, 3))


@pytest.mark.parametrize("m,n,k", [(128, 128, 64), (32, 64, 128)])
def test_mmad_with_sparse_matches_numpy(dev, m, n, k):
    rng = rng_for("mmad_sparse", m, n, k)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    full, dense, packed = sparse_b(rng, n, k)
    pc = dev.put(np.zeros((m, n), np.int32))
    assert (
        dev.launch(
            "mmad_sparse", 1, dev.put(nz(a, 32)), dev.put(zn_dense(dense)), dev.put(nz(packed, 8)), pc, m, n, k, 0
        )
        == 0
    )
    got = dev.get(pc, np.zeros((m, n), np.int32))
    np.testing.assert_array_equal(got, a.astype(np.int64) @ full.T.astype(np.int64))


def test_misuses_trap_with_one_line(dev):
    dev.expect_trap("mm_ext_traps", 1, (0, 0, 0, 0), "Matmul::Init: the tiling pointer is null", (0, 0, 0, 1))

    m, n, k = 64, 64, 64
    rng = rng_for("sparse_traps")
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    _, dense, packed = sparse_b(rng, n, k)
    t = tiling(m, n, k, 1, "i8", "i32", trans_b=True)
    args = [dev.put(a), dev.put(dense), dev.put(nz(packed, 8)), dev.put(np.zeros((m, n), np.int32)), dev.put(t)]
    dev.expect_trap(
        "mm_sparse", 1, (*args, 0), "Matmul::IterateAll: a sparse B needs SetSparseIndex before IterateAll", (*args, 1)
    )

    margs = [dev.put(nz(a, 32)), dev.put(zn_dense(dense)), dev.put(nz(packed, 8)), dev.put(np.zeros((m, n), np.int32))]
    dev.expect_trap(
        "mmad_sparse", 1, (*margs, m, n, k, 1), "was not loaded by LoadDataWithSparse", (*margs, m, n, k, 0)
    )
