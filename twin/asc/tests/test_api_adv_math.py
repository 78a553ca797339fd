"""The element-wise high-level APIs of the Ascend C twin (math library, activations) against
numpy (kernels: programs/api_adv_math.asc, built by bisheng, run through libascendcl), at fp32,
fp16 and bf16. Inputs are random in each function's domain (seed printed; ASC_TWIN_SEED=<n>
repeats a run). The reference is computed in float64 from the inputs as the kernel sees them
(already rounded to the dtype) and rounded once to the dtype, as the twin does (fp32 inside).

Tolerances (|got - want| <= atol + rtol * |want|, next to each dtype in TOL): fp32 rtol 4e-6
(the C library's single-precision functions are within 1-2 ulp; a few, named in FP32_LOOSE, are
checked at 2e-5), fp16 one half ulp of the result plus rounding of fp32 (rtol 1e-3), bf16 rtol 8e-3.

Env: ASCENDCL_LIB, API_ADV_MATH (device binary).
"""

from __future__ import annotations

import math
import os
import struct
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import ACL_ERROR_RT_AICORE_EXCEPTION, device_fixtures, rng_for  # noqa: E402

N = 1024
DTYPES = ["f32", "f16", "bf16"]
TOL = {"f32": (4e-6, 1e-6), "f16": (1e-3, 1e-3), "bf16": (8e-3, 8e-3)}  # (rtol, atol)
FP32_LOOSE = {"Digamma", "Lgamma", "Tan", "Gelu", "FasterGelu", "SwiGLU", "GeGLU", "Power"}

dev, free_buffers = device_fixtures(
    lambda: {
        "API_ADV_MATH": [f"adv_{k}_{d}" for k in ("unary", "multi") for d in DTYPES]
        + [
            "adv_int16",
            "adv_classify_f32",
            "adv_cumsum_f32",
            "adv_reduce_f32",
            "adv_sum_f32",
            "adv_arange",
            "adv_select_f32",
            "adv_dropout_f32",
        ],
    }
)


# ---------------------------------------------------------------- dtype helpers


def to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even (the NPU's rounding)."""
    b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    rounded = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(x, np.float32))
    return np.where(nan, 0x7FC0, rounded).astype(np.uint16)


def from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return (b.astype(np.uint32) << 16).view(np.float32)


def encode(x64: np.ndarray, dt: str):
    """float64 values -> (device array, the float64 values the kernel sees)."""
    if dt == "f32":
        a = x64.astype(np.float32)
        return a, a.astype(np.float64)
    if dt == "f16":
        a = x64.astype(np.float16)
        return a, a.astype(np.float64)
    bits = to_bf16_bits(x64.astype(np.float32))
    return bits, from_bf16_bits(bits).astype(np.float64)


def decode(a: np.ndarray, dt: str) -> np.ndarray:
    return from_bf16_bits(a).astype(np.float64) if dt == "bf16" else a.astype(np.float64)


def round_to(x64: np.ndarray, dt: str) -> np.ndarray:
    """The reference rounded once to the dtype (via fp32 as the kernel)."""
    f = x64.astype(np.float32)
    return decode(encode(f.astype(np.float64), dt)[0], dt)


def fbits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def check(name: str, dt: str, got: np.ndarray, want: np.ndarray, loose=False) -> None:
    rtol, atol = TOL[dt]
    if dt == "f32" and (loose or name in FP32_LOOSE):
        rtol, atol = 2e-5, 1e-5
    want = round_to(want, dt)
    both_nan = np.isnan(got) & np.isnan(want)
    same_inf = np.isinf(want) & (got == want)
    bad = ~(both_nan | same_inf | (np.abs(got - want) <= atol + rtol * np.abs(want)))
    assert not bad.any(), (
        f"{name} {dt}: {bad.sum()} of {got.size} wrong, first at {np.argmax(bad)}: "
        f"got {got[bad][:4]}, want {want[bad][:4]}"
    )


# ---------------------------------------------------------------- references (float64)


def digamma64(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i, v in enumerate(x):
        acc, r = 0.0, 0.0
        if v < 0.5:
            r = -math.pi / math.tan(math.pi * v)
            v = 1.0 - v
        while v < 10.0:
            acc -= 1.0 / v
            v += 1.0
        z = 1.0 / (v * v)
        out[i] = (
            r + acc + math.log(v) - 0.5 / v - z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z / 132))))
        )
    return out


def gelu64(x):
    return x / (1.0 + np.exp(-1.5957691216057308 * (x + 0.044715 * x**3)))


def faster_gelu_v2_64(x):
    s = (x + 1e-12) / np.abs(x + 1e-12)
    c = np.minimum(np.abs(x), 1.769) - 1.769
    return x * (s * (-0.1444 * c * c + 0.5) + 0.5)


def uniform(lo, hi):
    return lambda rng: rng.uniform(lo, hi, N)


def away_from_poles(rng):  # Lgamma/Digamma: positive and negative, never within 0.05 of 0, -1, -2, ...
    x = rng.uniform(-4.0, 8.0, N)
    frac = x - np.floor(x)
    return np.where((x < 0.5) & ((frac < 0.05) | (frac > 0.95)), x + 0.5, x)


def with_halves(rng):  # Round/Rint/Ceil/...: ties and integers included
    x = rng.uniform(-50, 50, N)
    x[: N // 8] = np.round(x[: N // 8]) + 0.5
    x[N // 8 : N // 4] = np.round(x[N // 8 : N // 4])
    return x


# (op id in api_adv_math.asc, name, input generator, float64 reference)
UNARY_OPS = [
    (0, "Acos", uniform(-1, 1), np.arccos),
    (1, "Acosh", uniform(1, 50), np.arccosh),
    (2, "Asin", uniform(-1, 1), np.arcsin),
    (3, "Asinh", uniform(-50, 50), np.arcsinh),
    (4, "Atan", uniform(-50, 50), np.arctan),
    (5, "Atanh", uniform(-0.99, 0.99), np.arctanh),
    (6, "Cos", uniform(-10, 10), np.cos),
    (7, "Cosh", uniform(-8, 8), np.cosh),
    (8, "Sin", uniform(-10, 10), np.sin),
    (9, "Sinh", uniform(-8, 8), np.sinh),
    (10, "Tan", uniform(-1.4, 1.4), np.tan),
    (11, "Tanh", uniform(-6, 6), np.tanh),
    (12, "Erf", uniform(-4, 4), np.vectorize(math.erf)),
    (13, "Erfc", uniform(-3, 3), np.vectorize(math.erfc)),
    (14, "Log", uniform(0.01, 100), np.log),
    (15, "Log2", uniform(0.01, 100), np.log2),
    (16, "Log10", uniform(0.01, 100), np.log10),
    (17, "Digamma", away_from_poles, digamma64),
    (18, "Lgamma", away_from_poles, np.vectorize(math.lgamma)),
    (19, "Sign", uniform(-5, 5), np.sign),
    (20, "Frac", uniform(-50, 50), lambda x: x - np.trunc(x)),
    (21, "Ceil", with_halves, np.ceil),
    (22, "Floor", with_halves, np.floor),
    (23, "Trunc", with_halves, np.trunc),
    (24, "Round", with_halves, np.rint),
    (25, "Sigmoid", uniform(-10, 10), lambda x: 1 / (1 + np.exp(-x))),
    (26, "Gelu", uniform(-6, 6), gelu64),
    (27, "FasterGelu", uniform(-6, 6), lambda x: x / (1 + np.exp(-1.702 * x))),
    (28, "FasterGeluV2", uniform(-6, 6), faster_gelu_v2_64),
    (29, "Rint", with_halves, np.rint),
    (30, "Exp", uniform(-10, 10), np.exp),
]


def run_unary(dev, dt, op, x64, tmp_bytes, scalar=0.0):
    xd, seen = encode(x64, dt)
    px, py = dev.put(xd), dev.put(np.zeros_like(xd))
    rc = dev.launch(f"adv_unary_{dt}", 1, px, py, N, op, tmp_bytes, fbits(scalar))
    return rc, seen, (decode(dev.get(py, xd), dt) if rc == 0 else None)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("op,name,gen,ref", UNARY_OPS, ids=[u[1] for u in UNARY_OPS])
@pytest.mark.parametrize("tmp_bytes", [0, 64 * 1024], ids=["no_tmp", "tmp"])
def test_unary_api_matches_numpy(dev, dt, op, name, gen, ref, tmp_bytes):
    rng = rng_for("unary", name, dt)
    if dt == "f16" and name in ("Cosh", "Sinh"):
        x64 = rng.uniform(-6, 6, N)  # cosh(8) ~ 1490 fits, but keep fp16 results well inside range
    else:
        x64 = gen(rng)
    rc, seen, got = run_unary(dev, dt, op, x64, tmp_bytes)
    assert rc == 0
    check(name, dt, got, ref(seen))


@pytest.mark.parametrize("dt", DTYPES)
def test_silu_swish_clamp(dev, dt):
    rng = rng_for("silu", dt)
    x64 = rng.uniform(-8, 8, N)
    beta = float(np.float32(rng.uniform(0.5, 2.0)))
    _, seen, got = run_unary(dev, dt, 31, x64, 0)
    check("Silu", dt, got, seen / (1 + np.exp(-seen)))
    _, seen, got = run_unary(dev, dt, 32, x64, 0, beta)
    b = decode(encode(np.array([beta]), dt)[0], dt)[0]  # Swish's scalar is a T
    check("Swish", dt, got, seen / (1 + np.exp(-b * seen)), loose=True)
    for op, fn in ((33, np.minimum), (34, np.maximum)):
        for tmp in (0, 4096):
            _, seen, got = run_unary(dev, dt, op, x64, tmp, 1.5)
            check("Clamp", dt, got, fn(seen, 1.5))


def run_multi(dev, dt, op, a64, b64, c64, tmp_bytes, scalar=0.0):
    (ad, sa), (bd, sb), (cd, sc) = encode(a64, dt), encode(b64, dt), encode(c64, dt)
    pa, pb, pc = dev.put(ad), dev.put(bd), dev.put(cd)
    py, py2 = dev.put(np.zeros_like(ad)), dev.put(np.zeros_like(ad))
    rc = dev.launch(f"adv_multi_{dt}", 1, pa, pb, pc, py, py2, N, op, tmp_bytes, fbits(scalar))
    assert rc == 0
    return sa, sb, sc, decode(dev.get(py, ad), dt), decode(dev.get(py2, ad), dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("tmp_bytes", [0, 64 * 1024], ids=["no_tmp", "tmp"])
def test_binary_and_glu_apis_match_numpy(dev, dt, tmp_bytes):
    rng = rng_for("multi", dt, tmp_bytes)
    a, b, c = rng.uniform(-20, 20, N), rng.uniform(-20, 20, N), rng.uniform(-20, 20, N)
    b_nz = np.where(np.abs(b) < 0.5, 0.5, b)
    sa, sb, _, got, _ = run_multi(dev, dt, 0, a, b_nz, c, tmp_bytes)
    check("Fmod", dt, got, np.fmod(sa, sb), loose=True)
    sa, sb, _, got, _ = run_multi(dev, dt, 1, a, b, c, tmp_bytes)
    check("Hypot", dt, got, np.hypot(sa, sb))
    base, expo = rng.uniform(0.1, 4, N), rng.uniform(-3, 3, N)
    sa, sb, _, got, _ = run_multi(dev, dt, 2, base, expo, c, tmp_bytes)
    check("Power", dt, got, np.power(sa, sb))
    sa, _, _, got, _ = run_multi(dev, dt, 3, base, expo, c, tmp_bytes, 2.0)
    check("Power", dt, got, np.power(sa, 2.0))
    _, sb, _, got, _ = run_multi(dev, dt, 4, base, expo, c, tmp_bytes, 1.5)
    check("Power", dt, got, np.power(1.5, sb))
    x0, x1 = rng.uniform(-5, 5, N), rng.uniform(-5, 5, N)
    sa, sb, _, got, _ = run_multi(dev, dt, 5, x0, x1, c, tmp_bytes)
    check("GeGLU", dt, got, sa * gelu64(sb))
    sa, sb, _, got, _ = run_multi(dev, dt, 6, x0, x1, c, tmp_bytes, 1.25)
    check("SwiGLU", dt, got, sa * sb / (1 + np.exp(-1.25 * sb)))
    sa, sb, _, got, _ = run_multi(dev, dt, 7, x0, x1, c, tmp_bytes)
    check("ReGlu", dt, got, sa * np.maximum(sb, 0))
    sa, sb, _, got, _ = run_multi(dev, dt, 8, x0, x1, c, 64 * 1024, 0.75)
    check("Axpy", dt, got, sb + sa * 0.75)
    lo, hi = rng.uniform(-10, 0, N), rng.uniform(0, 10, N)
    sa, sb, sc, got, _ = run_multi(dev, dt, 9, a, lo, hi, tmp_bytes)
    check("Clamp", dt, got, np.minimum(np.maximum(sa, sb), sc))
    sa, sb, _, got, _ = run_multi(dev, dt, 10, a, lo, hi, tmp_bytes, 3.0)
    check("Clamp", dt, got, np.minimum(np.maximum(sa, sb), 3.0))
    sa, sb, sc, got, _ = run_multi(dev, dt, 11, a, b, c, tmp_bytes)
    check("Fma", dt, got, sa * sb + sc)
    sa, _, _, got, got2 = run_multi(dev, dt, 12, a, b, c, tmp_bytes)
    check("SinCos", dt, got, np.sin(sa), loose=True)
    check("SinCos", dt, got2, np.cos(sa), loose=True)
    sa, sb, sc, got, got2 = run_multi(dev, dt, 13, a, b, c, tmp_bytes, 7.0)
    check("Where", dt, got, np.where(sc > 0, sa, sb))
    check("Where", dt, got2, np.where(sc > 0, 7.0, sb))


def test_integer_apis_match_numpy(dev):
    rng = rng_for("int16")
    a = rng.integers(-32768, 32768, N).astype(np.int16)
    b = rng.integers(-32768, 32768, N).astype(np.int16)
    for op, want in ((0, a ^ b), (1, a & b), (2, a | b), (3, a ^ b), (4, ~a)):
        for tmp in (0, 4096):
            py = dev.put(np.zeros(N, np.int16))
            assert dev.launch("adv_int16", 1, dev.put(a), dev.put(b), py, N, op, tmp) == 0
            np.testing.assert_array_equal(dev.get(py, a), want)
    base = rng.integers(-6, 7, N // 2).astype(np.int32)
    expo = rng.integers(-2, 9, N // 2).astype(np.int32)
    py = dev.put(np.zeros(N // 2, np.int32))
    assert dev.launch("adv_int16", 1, dev.put(base), dev.put(expo), py, N, 5, 0) == 0
    want = np.array(
        [
            0 if e < 0 and abs(v) != 1 else (v**e if e >= 0 else (1 if v == 1 else (-1) ** (-e)))
            for v, e in zip(base.tolist(), expo.tolist())
        ],
        np.int64,
    ).astype(np.int32)
    np.testing.assert_array_equal(dev.get(py, base), want)


def test_classification_and_logical_apis(dev):
    rng = rng_for("classify")
    a = rng.uniform(-5, 5, N).astype(np.float32)
    a[rng.choice(N, 64, replace=False)] = np.inf
    a[rng.choice(N, 64, replace=False)] = -np.inf
    a[rng.choice(N, 64, replace=False)] = np.nan
    a[rng.choice(N, 64, replace=False)] = 0.0
    b = np.where(rng.random(N) < 0.5, 0.0, rng.uniform(-5, 5, N)).astype(np.float32)
    wants = {
        0: np.isfinite(a),
        1: np.isinf(a),
        2: np.isnan(a),
        6: (a != 0) & (b != 0),
        7: (a != 0) | (b != 0),
        8: (a != 0) != (b != 0),
        9: a == 0,
        10: a != 0,
        11: a != 0,
    }
    for op in range(12):
        py, pf = dev.put(np.zeros(N, np.uint8)), dev.put(np.zeros(N, np.float32))
        assert dev.launch("adv_classify_f32", 1, dev.put(a), dev.put(b), py, pf, N, op) == 0
        if op in (3, 4, 5):
            np.testing.assert_array_equal(dev.get(pf, a), wants[op - 3].astype(np.float32))
        else:
            np.testing.assert_array_equal(dev.get(py, np.zeros(N, np.uint8)), wants[op].astype(np.uint8))


@pytest.mark.parametrize("last_axis", [1, 0])
def test_cumsum_matches_numpy(dev, last_axis):
    rng = rng_for("cumsum", last_axis)
    outter, inner = 16, 64
    x = rng.uniform(-1, 1, (outter, inner)).astype(np.float32)
    py, pl = dev.put(np.zeros_like(x)), dev.put(np.zeros(inner, np.float32))
    assert dev.launch("adv_cumsum_f32", 1, dev.put(x), py, pl, outter, inner, last_axis, 4096) == 0
    want = np.cumsum(x.astype(np.float64), axis=1 if last_axis else 0)
    np.testing.assert_allclose(dev.get(py, x), want, rtol=1e-5, atol=1e-5)  # fp32 running sum
    np.testing.assert_allclose(dev.get(pl, np.zeros(inner, np.float32)), want[-1], rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------- traps


def test_small_tmp_buffer_and_bad_counts_trap(dev):
    x = np.full(N, 0.5, np.float32)
    px, py = dev.put(x), dev.put(np.zeros_like(x))
    # fp32 Acos: 3 live nodes x 256 bytes = 768 bytes at least (GetAcosMaxMinTmpSize's minimum)
    assert dev.launch("adv_unary_f32", 1, px, py, N, 0, 768, 0) == 0
    dev.expect_trap(
        "adv_unary_f32",
        1,
        (px, py, N, 0, 736, 0),
        "Acos: sharedTmpBuffer holds 736 bytes, less than the 768 bytes 1024 elements need",
        (px, py, N, 0, 768, 0),
    )
    # the whole-tensor form counts the source's elements
    dev.expect_trap(
        "adv_unary_f32", 1, (px, py, N, 35, 512, 0), "Acos: sharedTmpBuffer holds 512 bytes", (px, py, N, 35, 1024, 0)
    )
    # CumSum: inner * 4 bytes not a multiple of 32
    y, last_row = dev.put(np.zeros(N, np.float32)), dev.put(np.zeros(64, np.float32))
    dev.expect_trap(
        "adv_cumsum_f32",
        1,
        (px, y, last_row, 4, 12, 1, 4096),
        "CumSum: cumSumInfo.inner 12 * sizeof(T) is not a multiple of 32 bytes",
        (px, y, last_row, 4, 16, 1, 4096),
    )
    assert ACL_ERROR_RT_AICORE_EXCEPTION == 507015


# ---------------------------------------------------------------- reductions, Arange

REDUCE_REFS = [
    np.sum,
    np.max,
    np.min,
    np.prod,
    np.mean,
    lambda a, axis: np.all(a != 0, axis=axis),
    lambda a, axis: np.any(a != 0, axis=axis),
]


@pytest.mark.parametrize("pattern", [0, 1], ids=["AR", "RA"])
@pytest.mark.parametrize("op", range(7), ids=["Sum", "Max", "Min", "Prod", "Mean", "All", "Any"])
def test_reduce_patterns_match_numpy(dev, pattern, op):
    rng = rng_for("reduce", pattern, op)
    d0, d1 = int(rng.integers(1, 20)), int(rng.integers(1, 40))
    d1p = (d1 + 7) // 8 * 8
    x = rng.uniform(0.5, 1.5, (d0, d1)) if op == 3 else rng.uniform(-10, 10, (d0, d1))
    if op in (5, 6):
        x = np.where(rng.random((d0, d1)) < 0.1, 0.0, x)
    xp = np.zeros((d0, d1p), np.float32)
    xp[:, :d1] = x
    out_len = ((d0 + 7) // 8 * 8) if pattern == 0 else d1p
    py = dev.put(np.zeros(out_len, np.float32))
    for tmp in (0, 4096):
        assert dev.launch("adv_reduce_f32", 1, dev.put(xp), py, d0, d1, op, pattern, tmp) == 0
        got = dev.get(py, np.zeros(out_len, np.float32))[: d0 if pattern == 0 else d1]
        want = REDUCE_REFS[op](xp[:, :d1].astype(np.float64), axis=1 if pattern == 0 else 0)
        np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-5, atol=2e-5)  # fp32 accumulation


def test_reduce_small_tmp_traps(dev):
    x = np.ones((4, 8), np.float32)
    px, py = dev.put(x), dev.put(np.zeros(8, np.float32))
    # AR over [4, 8]: 4 fp32 accumulators = 32 bytes (GetReduceMaxMaxMinTmpSize's value)
    assert dev.launch("adv_reduce_f32", 1, px, py, 4, 8, 1, 0, 32) == 0
    # RA over [4, 8]: 8 results, 32 bytes; a 32-byte buffer is enough, so ask for 16 results
    px2, py2 = dev.put(np.ones((4, 16), np.float32)), dev.put(np.zeros(16, np.float32))
    dev.expect_trap(
        "adv_reduce_f32",
        1,
        (px2, py2, 4, 16, 1, 1, 32),
        "ReduceMax: sharedTmpBuffer holds 32 bytes, less than the 64 bytes its 16 results need",
        (px2, py2, 4, 16, 1, 1, 64),
    )


@pytest.mark.parametrize("mean", [0, 1], ids=["Sum", "Mean"])
def test_sum_and_mean_rows(dev, mean):
    rng = rng_for("sum", mean)
    outter, n = int(rng.integers(1, 16)), int(rng.integers(1, 100))
    inner = (n + 7) // 8 * 8
    x = np.zeros((outter, inner), np.float32)
    x[:, :n] = rng.uniform(-5, 5, (outter, n))
    x[:, n:] = 1e6  # padding must not count
    py = dev.put(np.zeros((outter + 7) // 8 * 8, np.float32))
    for tmp in (0, 4096):
        assert dev.launch("adv_sum_f32", 1, dev.put(x), py, outter, n, mean, tmp) == 0
        got = dev.get(py, np.zeros((outter + 7) // 8 * 8, np.float32))[:outter]
        ref = x[:, :n].astype(np.float64)
        np.testing.assert_allclose(got, ref.mean(axis=1) if mean else ref.sum(axis=1), rtol=2e-5, atol=2e-5)


def test_arange(dev):
    rng = rng_for("arange")
    n = 256
    first, diff = float(np.float32(rng.uniform(-10, 10))), float(np.float32(rng.uniform(-1, 1)))
    fi, di = int(rng.integers(-1000, 1000)), int(rng.integers(-50, 50))
    pf, pi = dev.put(np.zeros(n, np.float32)), dev.put(np.zeros(n, np.int32))
    assert dev.launch("adv_arange", 1, pf, pi, n, fbits(first), fbits(diff), fi & 0xFFFFFFFF, di & 0xFFFFFFFF) == 0
    want = (np.float32(first) + np.arange(n, dtype=np.float32) * np.float32(diff)).astype(np.float32)
    np.testing.assert_allclose(dev.get(pf, np.zeros(n, np.float32)), want, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(dev.get(pi, np.zeros(n, np.int32)), fi + np.arange(n) * di)


@pytest.mark.parametrize("side", [0, 1], ids=["scalar_src1", "scalar_src0"])
def test_select_with_bytes_mask(dev, side):
    rng = rng_for("select", side)
    m, k, km = 6, 24, 64
    x = rng.uniform(-5, 5, (m, k)).astype(np.float32)
    mask = (rng.random((m, km)) < 0.5).astype(np.uint8)
    py = dev.put(np.zeros_like(x))
    tmp = (m * k * 2 + 31) // 32 * 32  # GetSelectMaxMinTmpSize's value (the mask as half)
    assert dev.launch("adv_select_f32", 1, dev.put(x), dev.put(mask), py, m, k, km, side, fbits(2.5), tmp) == 0
    used = mask[:, :k] != 0
    want = np.where(used, 2.5, x) if side == 0 else np.where(used, x, 2.5)
    np.testing.assert_array_equal(dev.get(py, x), want.astype(np.float32))
    px, pm = dev.put(x), dev.put(mask)
    dev.expect_trap(
        "adv_select_f32",
        1,
        (px, pm, py, m, k, km, side, fbits(2.5), tmp - 32),
        "Select: sharedTmpBuffer holds",
        (px, pm, py, m, k, km, side, fbits(2.5), tmp),
    )
    dev.expect_trap(
        "adv_select_f32",
        1,
        (px, pm, py, m, k, 40, side, fbits(2.5), tmp),
        "Select: maskLastAxis 40 must be a multiple of 16 elements and of 32 bytes",
        (px, pm, py, m, k, km, side, fbits(2.5), tmp),
    )


@pytest.mark.parametrize("bits", [False, True], ids=["byte_mask", "bit_mask"])
def test_dropout(dev, bits):
    rng = rng_for("dropout", bits)
    m, k = 4, 256
    km = k // 8 if bits else k
    x = rng.uniform(-100, 100, (m, k)).astype(np.float32)
    mask = rng.integers(0, 256 if bits else 2, (m, km)).astype(np.uint8)
    keep = np.unpackbits(mask, axis=1, bitorder="little")[:, :k] if bits else mask
    prob = float(np.float32(rng.uniform(0.1, 0.9)))
    py = dev.put(np.zeros_like(x))
    for tmp in (0, m * k):  # GetDropOutMaxMinTmpSize: one byte per element
        assert dev.launch("adv_dropout_f32", 1, dev.put(x), dev.put(mask), py, m, k, km, fbits(prob), tmp) == 0
        want = np.where(keep != 0, x * (np.float32(1) / np.float32(prob)), 0).astype(np.float32)
        np.testing.assert_allclose(dev.get(py, x), want, rtol=1e-6, atol=0)  # one fp32 multiply
    px, pm = dev.put(x), dev.put(mask)
    dev.expect_trap(
        "adv_dropout_f32",
        1,
        (px, pm, py, m, k, km, fbits(1.5), 0),
        "DropOut: keepProb should be larger than 0 and smaller than 1",
        (px, pm, py, m, k, km, fbits(prob), 0),
    )
    dev.expect_trap(
        "adv_dropout_f32",
        1,
        (px, pm, py, m, k, km, fbits(prob), m * k - 32),
        "DropOut: sharedTmpBuffer holds",
        (px, pm, py, m, k, km, fbits(prob), m * k),
    )
