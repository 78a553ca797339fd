"""The Matmul high-level API against numpy: kernels of api_matmul.asc (bisheng, run through
libascendcl) on random data with tilings from the host library (matmul_tiling_tool), for fp16,
bf16, fp32 and int8 inputs, transposed operands, bias, shapes with tails that are not multiples of
the base blocks, several cores, every output path; then the misuses that must trap. The seed is
printed (ASC_TWIN_SEED=<n> repeats a run).

Tolerances: the cube multiplies exactly (fp16/bf16 products fit fp32) and accumulates in fp32, so
fp32 results are compared with a float64 reference at rtol 1e-5 scaled by sqrt(K) (the sum's
rounding); a half result must be the float64 reference rounded once to half, within 1 ulp plus that
fp32 accumulation error (which may tip the rounding); int8 -> int32 is exact.

Env: ASCENDCL_LIB, API_MATMUL (device binary), MATMUL_TILING_TOOL, ASCEND_TWIN_PLATFORM_DIR.
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
    "mm_f16_f32",
    "mm_f16_f16",
    "mm_bf16_f32",
    "mm_f32_f32",
    "mm_i8_i32",
    "mm_i8_f16",
    "mm_i4_i32",
    "mm_batch_f16",
    "mm_batch_bsngd_f16",
    "mm_batch_counts_f16",
    "mm_traps",
]
dev, free_buffers = device_fixtures(lambda: {"API_MATMUL": KERNELS})


def bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits (round to nearest even) and the float32 values they stand for."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r, (r.astype(np.uint32) << 16).view(np.float32)


INPUTS = {  # name: (kernel, tool A type, tool C type, numpy input, numpy output)
    "f16_f32": ("mm_f16_f32", "f16", "f32"),
    "f16_f16": ("mm_f16_f16", "f16", "f16"),
    "bf16_f32": ("mm_bf16_f32", "bf16", "f32"),
    "f32_f32": ("mm_f32_f32", "f32", "f32"),
    "i8_i32": ("mm_i8_i32", "i8", "i32"),
}


def make_operands(kind, rng, m, n, k, trans_a, trans_b):
    """Device arrays (as stored) and the float64 / int64 logical A (m x k), B (k x n)."""
    if kind.startswith("i8"):
        a = rng.integers(-128, 128, (m, k), dtype=np.int8)
        b = rng.integers(-128, 128, (k, n), dtype=np.int8)
        la, lb = a.astype(np.int64), b.astype(np.int64)
    elif kind.startswith("bf16"):
        a_bits, la = bf16(rng.uniform(-2, 2, (m, k)).astype(np.float32))
        b_bits, lb = bf16(rng.uniform(-2, 2, (k, n)).astype(np.float32))
        a, b, la, lb = a_bits, b_bits, la.astype(np.float64), lb.astype(np.float64)
    elif kind.startswith("f32"):
        a = rng.uniform(-2, 2, (m, k)).astype(np.float32)
        b = rng.uniform(-2, 2, (k, n)).astype(np.float32)
        la, lb = a.astype(np.float64), b.astype(np.float64)
    else:
        a = rng.uniform(-2, 2, (m, k)).astype(np.float16)
        b = rng.uniform(-2, 2, (k, n)).astype(np.float16)
        la, lb = a.astype(np.float64), b.astype(np.float64)
    stored_a = np.ascontiguousarray(a.T) if trans_a else a
    stored_b = np.ascontiguousarray(b.T) if trans_b else b
    return stored_a, stored_b, la, lb


def run(
    dev, kind, m, n, k, dim, trans_a=False, trans_b=False, use_bias=False, mode=0, fix=None, c_init=None, blocks=None
):
    kernel, atype, ctype = INPUTS[kind]
    rng = rng_for(kind, m, n, k, dim, trans_a, trans_b, use_bias, mode)
    sa, sb, la, lb = make_operands(kind, rng, m, n, k, trans_a, trans_b)
    integer = kind.startswith("i8")
    bias = rng.integers(-1000, 1000, n, dtype=np.int32) if integer else rng.uniform(-4, 4, n).astype(np.float32)
    t = tiling(m, n, k, dim, atype, ctype, trans_a, trans_b, use_bias, fix)
    out_dtype = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[ctype]
    c0 = np.zeros((m, n), out_dtype) if c_init is None else c_init.astype(out_dtype)
    pa, pb, pbias, pc, pt = dev.put(sa), dev.put(sb), dev.put(bias), dev.put(c0), dev.put(t)
    flags = int(trans_a) | int(trans_b) << 1 | int(use_bias) << 2 | mode << 4
    blocks = int(t[0]) if blocks is None else blocks(int(t[0]))
    assert dev.launch(kernel, blocks, pa, pb, pbias, pc, pt, flags, 0) == 0
    got = dev.get(pc, c0)
    want = la @ lb + (bias.astype(np.float64 if not integer else np.int64) if use_bias else 0)
    if c_init is not None:
        want = want + c_init
    return got, want, t


def check(kind, got, want, k):
    if kind.startswith("i8"):
        np.testing.assert_array_equal(got, want.astype(np.int32))
    elif kind.endswith("f16"):
        ref = want.astype(np.float16).astype(np.float64)
        ulp = np.spacing(np.abs(ref).astype(np.float16)).astype(np.float64)
        acc_err = np.sqrt(k) * 1e-5 * np.maximum(1.0, np.abs(want).max())  # the fp32 accumulation's
        bad = np.abs(got.astype(np.float64) - ref) > ulp + acc_err
        assert not bad.any(), f"{bad.sum()} half results off by more than 1 ulp: got {got[bad][:4]} want {ref[bad][:4]}"
    else:
        scale = np.sqrt(k) * 1e-5 * np.maximum(1.0, np.abs(want).max())
        np.testing.assert_allclose(got, want, rtol=0, atol=scale)


SHAPES = [  # (m, n, k, dim): aligned, tails in every axis, thin, one core and many
    (128, 256, 64, 1),
    (77, 131, 45, 1),
    (300, 190, 333, 8),
    (1, 700, 96, 4),
    (530, 17, 1000, 24),
]


@pytest.mark.parametrize("kind", sorted(INPUTS))
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_matches_numpy(dev, kind, shape):
    m, n, k, dim = shape
    got, want, t = run(dev, kind, m, n, k, dim)
    check(kind, got, want, k)


def pack_int4(x: np.ndarray) -> np.ndarray:
    """int4 values (int8 in [-8, 8), even last axis) packed two to a byte, the even element in the
    low nibble, as CANN stores DT_INT4 (asc-devkit's matmul_int4 sample packs them so)."""
    return ((x[..., 1::2].astype(np.uint8) << 4) | (x[..., 0::2].astype(np.uint8) & 0x0F)).astype(np.uint8)


@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True)])
@pytest.mark.parametrize("shape", [(128, 320, 128, 2), (256, 192, 256, 4)], ids=lambda s: "x".join(map(str, s)))
def test_int4_operands_are_read_two_to_a_byte(dev, trans_a, trans_b, shape):
    m, n, k, dim = shape
    rng = rng_for("i4", m, n, k, dim, trans_a, trans_b)
    a = rng.integers(-8, 8, (m, k), dtype=np.int8)
    b = rng.integers(-8, 8, (k, n), dtype=np.int8)
    bias = rng.integers(-1000, 1000, n, dtype=np.int32)
    sa = pack_int4(np.ascontiguousarray(a.T) if trans_a else a)
    sb = pack_int4(np.ascontiguousarray(b.T) if trans_b else b)
    t = tiling(m, n, k, dim, "i4", "i32", trans_a, trans_b, True, None)
    c0 = np.zeros((m, n), np.int32)
    pc = dev.put(c0)
    flags = int(trans_a) | int(trans_b) << 1 | 1 << 2
    assert dev.launch("mm_i4_i32", int(t[0]), dev.put(sa), dev.put(sb), dev.put(bias), pc, dev.put(t), flags, 0) == 0
    want = a.astype(np.int64) @ b.astype(np.int64) + bias
    np.testing.assert_array_equal(dev.get(pc, c0), want.astype(np.int32))


@pytest.mark.parametrize("kind", ["f16_f32", "i8_i32", "bf16_f32"])
@pytest.mark.parametrize("trans_a,trans_b", [(True, False), (False, True), (True, True)])
def test_transposed_operands_with_bias(dev, kind, trans_a, trans_b):
    got, want, _ = run(dev, kind, 190, 145, 260, 6, trans_a, trans_b, use_bias=True)
    check(kind, got, want, 260)


@pytest.mark.parametrize(
    "mode", [1, 2, 3, 5], ids=["iterate_gm", "iterate_vecin", "iterate_all_async", "iterate_async"]
)
@pytest.mark.parametrize("kind", ["f16_f32", "i8_i32"])
def test_every_output_path_gives_the_same_result(dev, kind, mode):
    # base blocks fixed small so that each core iterates over several blocks, with tails
    got, want, t = run(dev, kind, 200, 150, 130, 4, use_bias=True, mode=mode, fix=(48, 32, 32))
    assert t[8] == 48 and t[9] == 32 and t[10] == 32
    check(kind, got, want, 130)


@pytest.mark.parametrize("mode", [0, 2], ids=["iterate_all", "iterate_vecin"])
def test_untyped_matmul_kernel_runs_as_mix_1_2_over_both_aiv_sub_blocks(dev, mode):
    # As CANN's async/k-reorder samples do: the tiling is cut for the AIV count (SetDim(aiv)), the
    # kernel declares no type, and the host launches usedCoreNum / 2 core groups; each group's two
    # AIVs (GetBlockIdx() 2g and 2g + 1) compute their own part, so every element of C is written.
    got, want, t = run(
        dev, "f16_f32", 333, 270, 90, 7, use_bias=True, mode=mode, fix=(64, 48, 32), blocks=lambda used: (used + 1) // 2
    )
    assert t[0] > 2  # several AIV parts, an odd count: the last group's second AIV has none
    check("f16_f32", got, want, 90)


def test_get_tensor_c_with_atomic_add_accumulates_onto_c(dev):
    init = rng_for("atomic").uniform(-1, 1, (96, 80)).astype(np.float32)
    got, want, _ = run(dev, "f16_f32", 96, 80, 64, 2, mode=4, c_init=init)
    check("f16_f32", got, want, 64)


def test_int8_to_half_through_the_quant_scalar(dev):
    rng = rng_for("quant")
    m, n, k = 64, 48, 96
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    t = tiling(m, n, k, 1, "i8", "f16")
    scale = np.float32(0.001)
    quant = int(np.array([scale], np.float32).view(np.uint32)[0])
    pc = dev.put(np.zeros((m, n), np.float16))
    assert (
        dev.launch("mm_i8_f16", 1, dev.put(a), dev.put(b), dev.put(np.zeros(n, np.int32)), pc, dev.put(t), 0, quant)
        == 0
    )
    got = dev.get(pc, np.zeros((m, n), np.float16))
    # the cube's deq scale keeps 10 mantissa bits of the float (bits 31:13), as Fixpipe's DEQF16
    alpha = np.array([quant & 0xFFFFE000], np.uint32).view(np.float32)[0]
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.float32) * alpha
    np.testing.assert_array_equal(got, want.astype(np.float16))


def test_iterate_batch_over_normal_layout(dev):
    rng = rng_for("batch")
    batch, m, n, k = 3, 40, 56, 72
    a = rng.uniform(-1, 1, (batch, m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (batch, k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, (batch, n)).astype(np.float32)
    t = tiling(m, n, k, 1, "f16", "f32", bias=True)
    pc = dev.put(np.zeros((batch, m, n), np.float32))
    assert dev.launch("mm_batch_f16", 1, dev.put(a), dev.put(b), dev.put(bias), pc, dev.put(t), batch) == 0
    got = dev.get(pc, np.zeros((batch, m, n), np.float32))
    want = np.matmul(a.astype(np.float64), b.astype(np.float64)) + bias[:, None, :]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)


def test_iterate_batch_over_bsngd_layout(dev):
    rng = rng_for("bsngd")
    heads, m, n, k = 3, 32, 48, 64
    a = rng.uniform(-1, 1, (m, heads, k)).astype(np.float16)  # [S=M][G][D=K]
    b_t = rng.uniform(-1, 1, (n, heads, k)).astype(np.float16)  # B transposed: [S=N][G][D=K]
    t = tiling(m, n, k, 1, "f16", "f32", trans_b=True)
    pc = dev.put(np.zeros((m, heads, n), np.float32))
    assert dev.launch("mm_batch_bsngd_f16", 1, dev.put(a), dev.put(b_t), pc, dev.put(t), heads) == 0
    got = dev.get(pc, np.zeros((m, heads, n), np.float32))
    want = np.einsum("mgk,ngk->mgn", a.astype(np.float64), b_t.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)


@pytest.mark.parametrize("batch_a,batch_b", [(3, 3), (4, 2), (1, 3)])
def test_iterate_batch_with_counts_in_the_call_and_a_shared_bias(dev, batch_a, batch_b):
    # CANN's AIV-side IterateBatch(gm, batchA, batchB, enSequentialWrite): the counts are batches,
    # not enPartialSum / enAtomic; the smaller side repeats, the bias is one row for every batch.
    rng = rng_for("batch_counts", batch_a, batch_b)
    m, n, k = 45, 70, 50
    batches = max(batch_a, batch_b)
    a = rng.uniform(-1, 1, (batch_a, m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (batch_b, k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    t = tiling(m, n, k, 1, "f16", "f32", bias=True)
    pc = dev.put(np.zeros((batches, m, n), np.float32))
    assert (
        dev.launch("mm_batch_counts_f16", 1, dev.put(a), dev.put(b), dev.put(bias), pc, dev.put(t), batch_a, batch_b)
        == 0
    )
    got = dev.get(pc, np.zeros((batches, m, n), np.float32))
    idx = np.arange(batches)
    want = np.matmul(a[idx % batch_a].astype(np.float64), b[idx % batch_b].astype(np.float64)) + bias
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)


@pytest.mark.parametrize(
    "which,message",
    [
        (0, "Matmul::IterateAll: SetTensorA was not called before IterateAll"),
        (1, "is larger than the org shape M=64"),
        (2, "C needs 4096 elements from its GlobalTensor, which holds 16"),
        (3, "Matmul::GetTensorC: no block was computed"),
    ],
)
def test_misuse_traps_with_one_line_and_the_device_lives_on(dev, which, message):
    m = n = k = 64
    t = tiling(m, n, k, 1, "f16", "f32")
    a = dev.put(np.ones((m, k), np.float16))
    b = dev.put(np.ones((k, n), np.float16))
    c = dev.put(np.zeros((m, n), np.float32))
    dev.expect_trap("mm_traps", 1, (a, b, c, dev.put(t), which), message, (a, b, c, dev.put(t), 4))
    got = dev.get(c, np.zeros((m, n), np.float32))
    np.testing.assert_array_equal(got, np.full((m, n), 64.0, np.float32))
