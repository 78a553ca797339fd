"""The cube unit of the Ascend C twin against numpy: GM -ND2NZ-> L1 -LoadData-> L0A/L0B -Mmad->
L0C -Fixpipe-> GM for every A2/A3 dtype combination and both operand layouts, the single data
movers (Nd2Nz, LoadData 2D, LoadDataWithTranspose, Load3Dv2 as a convolution), DumpTensor of
cube positions, and each cube trap.

Kernels: programs/api_cube.asc, built by bisheng, run through libascendcl. Inputs are random (the
seed is printed; ASC_TWIN_SEED=<n> repeats a run). Tolerances, next to each check: integer
results are exact; float results are compared with a float64 reference of the same (rounded)
inputs within the bound of sequential fp32 accumulation, k * 2^-24 * (|A| @ |B|) (products of
half/bfloat16_t inputs are exact in fp32), plus half an ULP of the output type when it is
narrower than fp32.

Env: ASCENDCL_LIB, API_CUBE (device binary).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import F16, F32, device_fixtures, rng_for  # noqa: E402

MM = [
    "mm_f16_f32",
    "mm_f16_f16",
    "mm_bf16_f32",
    "mm_bf16_bf16",
    "mm_f32_f32",
    "mm_f32_i8",
    "mm_i8_i32",
    "mm_i8_f16",
    "mm_i8_i8",
    "mm_i4_i32",
]
PROBES = [
    "nd2nz_probe",
    "load_probe_b8",
    "load_probe_b16",
    "load_probe_b32",
    "conv_img2col",
    "conv_img2col_pro",
    "cube_dump",
    "cube_traps",
]
dev, free_buffers = device_fixtures(lambda: {"API_CUBE": MM + PROBES})

A_TRANS, B_TRANS, BIAS, TWICE, HF32, RELU, BIAS_BY_SOURCE, VEC_QUANT, NZ_OUT, HF32_TIES_TO_ZERO, VIA_L1, CO12 = (
    1,
    2,
    4,
    8,
    16,
    32,
    64,
    128,
    256,
    512,
    1024,
    2048,
)
NO_QUANT, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8, VREQ8 = range(9)


# ---------------------------------------------------------------- number formats


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bfloat16 bits, round to nearest even."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def hf32(x: np.ndarray, ties_to_zero: bool) -> np.ndarray:
    """fp32 -> HF32 (11 mantissa bits kept): the twin's documented rounding."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    lsb = (u >> 12) & 1
    u = (u + 0x7FF + (0 if ties_to_zero else lsb)) & ~np.uint64(0xFFF)
    return u.astype(np.uint32).view(np.float32)


def quant_param(alpha: float, offset: int = 0, signed: bool = True, shift: int | None = None) -> int:
    """CANN's packed quantisation parameter: alpha's fp32 bits [31:13], shift [35:32] + enable 36,
    offset [45:37] (9-bit two's complement), sign 46."""
    bits = int(np.float32(alpha).view(np.uint32)) & 0xFFFFE000
    if shift is not None:
        bits |= (shift & 0xF) << 32 | 1 << 36
    return bits | (offset & 0x1FF) << 37 | int(signed) << 46


def alpha_of(param: int) -> np.float32:
    return np.array([param & 0xFFFFE000], np.uint32).view(np.float32)[0]


# ---------------------------------------------------------------- inputs and launching

IN_OF = {"f16": F16, "bf16": "bf16", "f32": F32, "i8": np.int8, "i4": "i4"}


def make_matrix(rng, kind: str, shape, small_ints: bool = False):
    """(device array, exact float64 values) of a random matrix of `kind`."""
    if kind == "i8":
        v = rng.integers(-128, 128, shape).astype(np.int8)
        return v, v.astype(np.float64)
    if kind == "i4":
        v = rng.integers(-8, 8, shape).astype(np.int8)
        flat = (v.reshape(-1) & 0xF).astype(np.uint8)
        packed = flat[0::2] | (flat[1::2] << 4)
        return packed, v.astype(np.float64)
    x = rng.integers(-4, 5, shape).astype(np.float32) if small_ints else rng.uniform(-2, 2, shape).astype(np.float32)
    if kind == "f16":
        v = x.astype(F16)
        return v, v.astype(np.float64)
    if kind == "bf16":
        bits = bf16_bits(x)
        return bits, bf16_value(bits).astype(np.float64)
    return x, x.astype(np.float64)


def padded(arr: np.ndarray, nbytes: int) -> np.ndarray:
    """arr's bytes followed by zeros up to nbytes (GM the kernel may read in whole blocks)."""
    raw = np.frombuffer(np.ascontiguousarray(arr).tobytes(), np.uint8)
    return np.concatenate([raw, np.zeros(max(0, nbytes - raw.size), np.uint8)])


def run_mm(
    dev,
    kernel: str,
    a_dev,
    b_dev,
    m,
    n,
    k,
    flags=0,
    quant_mode=NO_QUANT,
    deq=0,
    bias=None,
    table=None,
    out_dtype=np.float32,
    out_elems=None,
):
    bias_dev = dev.put(bias if bias is not None else np.zeros(64, np.float32))
    table_dev = dev.put(table if table is not None else np.zeros(64, np.uint64))
    count = out_elems if out_elems is not None else m * n
    c_dev = dev.put(np.zeros(count, out_dtype))
    rc = dev.launch(
        kernel,
        1,
        dev.put(padded(a_dev, 1 << 16)),
        dev.put(padded(b_dev, 1 << 16)),
        bias_dev,
        c_dev,
        table_dev,
        m,
        n,
        k,
        flags | quant_mode << 16,
        deq,
    )
    assert rc == 0, dev.lib.aclGetRecentErrMsg().decode()
    return dev.get(c_dev, np.zeros(count, out_dtype))


def fp32_bound(a: np.ndarray, b: np.ndarray, k: int, times: int = 1) -> np.ndarray:
    """Error bound of sequential fp32 accumulation of k products (x times for C += A x B again)."""
    return times * (k + 2) * 2.0**-24 * (np.abs(a) @ np.abs(b)) + 1e-30


def as_float(out: np.ndarray, kind: str) -> np.ndarray:
    return bf16_value(out.view(np.uint16)).astype(np.float64) if kind == "bf16" else out.astype(np.float64)


# ---------------------------------------------------------------- Mmad: every dtype, every layout

SHAPES = [(30, 40, 70), (16, 16, 16), (64, 96, 128), (17, 33, 50), (1, 48, 256)]
FLOAT_KERNELS = [
    ("mm_f16_f32", "f16", np.float32, NO_QUANT),
    ("mm_bf16_f32", "bf16", np.float32, NO_QUANT),
    ("mm_f32_f32", "f32", np.float32, NO_QUANT),
    ("mm_f16_f16", "f16", F16, F322F16),
    ("mm_bf16_bf16", "bf16", np.uint16, F322BF16),
]


def layouts_for(kind: str, m: int):
    if m == 1:
        return [B_TRANS, 0]  # GEMV reads A as ND: A is never transposed
    return [0, A_TRANS, B_TRANS, A_TRANS | B_TRANS]


@pytest.mark.parametrize("kernel,kind,out_dtype,quant", FLOAT_KERNELS)
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_float_mmad_matches_an_fp32_accumulated_reference_in_every_layout(dev, kernel, kind, out_dtype, quant, m, n, k):
    rng = rng_for(kernel, m, n, k)
    a, av = make_matrix(rng, kind, (m, k))
    b, bv = make_matrix(rng, kind, (k, n))
    ref, bound = av @ bv, fp32_bound(av, bv, k)
    if out_dtype != np.float32:  # rounded once more to half / bfloat16: half an ULP of the result
        bound = bound + np.abs(ref) * (2.0**-11 if out_dtype == F16 else 2.0**-8) + 1e-6
    for layout in layouts_for(kind, m):
        ga = a.T.copy() if layout & A_TRANS else a
        gb = b.T.copy() if layout & B_TRANS else b
        out = run_mm(dev, kernel, ga, gb, m, n, k, layout, quant, out_dtype=out_dtype).reshape(m, n)
        err = np.abs(as_float(out, "bf16" if out_dtype == np.uint16 else "") - ref)
        assert np.all(err <= bound), f"layout {layout}: max error {err.max()} over bound {bound.max()}"


def pack_int4(v: np.ndarray) -> np.ndarray:
    flat = (v.reshape(-1).astype(np.int8) & 0xF).astype(np.uint8)
    return flat[0::2] | (flat[1::2] << 4)


@pytest.mark.parametrize("kernel,kind", [("mm_i8_i32", "i8"), ("mm_i4_i32", "i4")])
@pytest.mark.parametrize("m,n,k", [(30, 40, 70), (16, 64, 128), (33, 17, 256), (1, 32, 128)])
def test_integer_mmad_is_exact(dev, kernel, kind, m, n, k):
    if kind == "i4":
        k = (k + 63) // 64 * 64  # whole bytes in every row of both operands
    rng = rng_for(kernel, m, n, k)
    a, av = make_matrix(rng, kind, (m, k))
    b, bv = make_matrix(rng, kind, (k, n))
    ref = (av @ bv).astype(np.int64)
    # int4b_t: A as m x k, B given transposed (n x k), the layouts CANN's int4 sample uses.
    layouts = [B_TRANS] if kind == "i4" else layouts_for(kind, m)
    for layout in layouts:
        if kind == "i4":
            ga, gb = a, pack_int4(bv.T)
        else:
            ga = a.T.copy() if layout & A_TRANS else a
            gb = b.T.copy() if layout & B_TRANS else b
        out = run_mm(dev, kernel, ga, gb, m, n, k, layout, out_dtype=np.int32).reshape(m, n)
        np.testing.assert_array_equal(out, ref, err_msg=f"layout {layout}")  # exact


def test_bias_table_both_ways_and_accumulation_into_l0c(dev):
    m, n, k = 30, 40, 70
    rng = rng_for("bias")
    a, av = make_matrix(rng, "f16", (m, k))
    b, bv = make_matrix(rng, "f16", (k, n))
    bias = rng.uniform(-3, 3, n).astype(np.float32)
    bound = fp32_bound(av, bv, k, times=2) + 1e-6 * np.abs(bias)
    for flags in (BIAS, BIAS | BIAS_BY_SOURCE):  # Mmad(dst, fm, filter, bias, p) and cmatrixSource
        out = run_mm(dev, "mm_f16_f32", a, b, m, n, k, flags, bias=bias).reshape(m, n)
        assert np.all(np.abs(out - (av @ bv + bias)) <= bound), flags
    out = run_mm(dev, "mm_f16_f32", a, b, m, n, k, BIAS | TWICE, bias=bias).reshape(m, n)  # C = bias + 2 AB
    assert np.all(np.abs(out - (2 * (av @ bv) + bias)) <= bound)
    ai, aiv = make_matrix(rng, "i8", (m, k))
    bi, biv = make_matrix(rng, "i8", (k, n))
    ibias = rng.integers(-1000, 1000, n).astype(np.int32)
    out = run_mm(
        dev, "mm_i8_i32", ai, bi.T.copy(), m, n, k, BIAS | B_TRANS | TWICE, bias=ibias, out_dtype=np.int32
    ).reshape(m, n)
    np.testing.assert_array_equal(out, 2 * (aiv @ biv).astype(np.int64) + ibias)  # exact


@pytest.mark.parametrize("ties_to_zero", [False, True])
def test_hf32_rounds_fp32_inputs_before_the_product(dev, ties_to_zero):
    m, n, k = 32, 48, 64
    rng = rng_for("hf32", ties_to_zero)
    a, _ = make_matrix(rng, "f32", (m, k))
    b, _ = make_matrix(rng, "f32", (k, n))
    ah, bh = hf32(a, ties_to_zero).astype(np.float64), hf32(b, ties_to_zero).astype(np.float64)
    flags = HF32 | (HF32_TIES_TO_ZERO if ties_to_zero else 0)
    out = run_mm(dev, "mm_f32_f32", a, b, m, n, k, flags).reshape(m, n)
    assert np.all(np.abs(out - ah @ bh) <= fp32_bound(ah, bh, k))
    full = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(out - full).max() > np.abs(out - ah @ bh).max()  # the rounding is really applied


def test_relu_nz_output_and_the_l0c_to_l1_path(dev):
    m, n, k = 30, 40, 64
    rng = rng_for("relu-nz")
    a, av = make_matrix(rng, "f16", (m, k))
    b, bv = make_matrix(rng, "f16", (k, n))
    ref, bound = av @ bv, fp32_bound(av, bv, k)
    out = run_mm(dev, "mm_f16_f32", a, b, m, n, k, RELU).reshape(m, n)
    assert np.all(np.abs(out - np.maximum(ref, 0)) <= bound) and (out >= 0).all() and (ref < 0).any()
    m16, n16 = 32, 48

    def from_nz(flat, dt):  # NZ with C0 = 16: (n1, m16, 16) -> (m, n)
        return flat.reshape(n16 // 16, m16, 16).transpose(1, 0, 2).reshape(m16, n16)[:m, :n].astype(dt)

    out = run_mm(dev, "mm_f16_f32", a, b, m, n, k, NZ_OUT, out_elems=m16 * n16)
    assert np.all(np.abs(from_nz(out, np.float64) - ref) <= bound)
    out = run_mm(dev, "mm_f16_f16", a, b, m, n, k, NZ_OUT | VIA_L1, F322F16, out_dtype=F16, out_elems=m16 * n16)
    assert np.all(np.abs(from_nz(out, np.float64) - ref) <= bound + np.abs(ref) * 2.0**-11 + 1e-6)


def test_quantised_fixpipe_modes_match_cann_golden_arithmetic(dev):
    m, n, k = 32, 40, 64
    rng = rng_for("quant")
    a, av = make_matrix(rng, "i8", (m, k))
    b, bv = make_matrix(rng, "i8", (k, n))
    acc = (av @ bv).astype(np.int64)
    # DEQF16, scalar: half(float32(C) * alpha), exact.
    p = quant_param(2.0**-9)
    out = run_mm(dev, "mm_i8_f16", a, b, m, n, k, 0, DEQF16, p, out_dtype=F16).reshape(m, n)
    np.testing.assert_array_equal(out, (acc.astype(np.float32) * alpha_of(p)).astype(F16))
    # VDEQF16: one parameter per column.
    alphas = (2.0 ** -rng.integers(6, 12, n)).astype(np.float32) * rng.uniform(1, 2, n).astype(np.float32)
    table = np.array(
        [quant_param(x) for x in alphas] + [0] * (64 - n), np.uint64
    )  # the kernel reads n rounded up to 32
    out = run_mm(dev, "mm_i8_f16", a, b, m, n, k, VEC_QUANT, VDEQF16, table=table, out_dtype=F16).reshape(m, n)
    want = (acc.astype(np.float32) * np.array([alpha_of(int(t)) for t in table[:n]], np.float32)).astype(F16)
    np.testing.assert_array_equal(out, want)
    # REQ8 with an offset, signed and unsigned results, and ReLU.
    for signed, off, relu in ((True, -3, False), (False, 7, False), (True, 5, True)):
        p = quant_param(1.0 / 512, off, signed)
        out = run_mm(dev, "mm_i8_i8", a, b, m, n, k, RELU if relu else 0, REQ8, p, out_dtype=np.int8).reshape(m, n)
        y = acc.astype(np.float32) * alpha_of(p)
        if relu:
            y = np.maximum(y, 0)
        q = np.clip(np.rint(np.clip(y, -256, 255)) + off, -128 if signed else 0, 127 if signed else 255)
        np.testing.assert_array_equal(out.view(np.int8 if signed else np.uint8), q.astype(np.int64))
    # QF322B8_PRE: float -> int8 (inputs small integers, so C is exact in fp32).
    fa, fav = make_matrix(rng, "f32", (m, k), small_ints=True)
    fb, fbv = make_matrix(rng, "f32", (k, n), small_ints=True)
    p = quant_param(0.25, 0, True)
    out = run_mm(dev, "mm_f32_i8", fa, fb, m, n, k, 0, QF322B8_PRE, p, out_dtype=np.int8).reshape(m, n)
    q = np.clip(np.rint(np.clip((fav @ fbv).astype(np.float32) * np.float32(0.25), -256, 255)), -128, 127)
    np.testing.assert_array_equal(out, q.astype(np.int8))


def from_nz_out(flat: np.ndarray, m: int, n: int, c0: int) -> np.ndarray:
    """An NZ result (n / c0 blocks of m rounded up to 16 rows of c0) as the (m, n) matrix."""
    m16 = (m + 15) // 16 * 16
    return flat.reshape(n // c0, m16, c0).transpose(1, 0, 2).reshape(m16, n)[:m]


def int8_quant(y: np.ndarray, param: int, relu: bool) -> np.ndarray:
    """CANN's golden arithmetic of the 8-bit modes: scale, ReLU, clip to [-256, 255], round half
    to even, add the offset, saturate to int8 / uint8."""
    off = (param >> 37) & 0x1FF
    off = off - 512 if off >= 256 else off
    signed = (param >> 46) & 1
    y = np.maximum(y, 0) if relu else y
    return np.clip(np.rint(np.clip(y, -256, 255)) + off, -128 if signed else 0, 127 if signed else 255).astype(np.int64)


# asc-devkit's data_copy_l0c2gm scenarios 1-6: (kernel, quant, flags, output dtype).
CO12_SCENARIOS = [
    ("mm_i8_f16", DEQF16, RELU, F16),  # 1: ND, scalar, ReLU
    ("mm_i8_f16", VDEQF16, NZ_OUT | VEC_QUANT, F16),  # 2: NZ, per channel
    ("mm_f32_i8", QF322B8_PRE, NZ_OUT, np.int8),  # 3: NZ, scalar, float -> int8
    ("mm_f32_i8", VQF322B8_PRE, RELU | VEC_QUANT, np.int8),  # 4: ND, per channel, ReLU
    ("mm_i8_i8", REQ8, 0, np.int8),  # 5: ND, scalar
    ("mm_i8_i8", VREQ8, NZ_OUT | VEC_QUANT | RELU, np.int8),  # 6: NZ, per channel, ReLU
]


@pytest.mark.parametrize("scenario", range(1, 7))
def test_data_copy_from_l0c_through_the_fixpipe_registers(dev, scenario):
    """DataCopy(GM, L0C, DataCopyCO12DstParams) with SetFixpipePreQuantFlag, SetFixpipeNz2ndFlag
    and SetFixPipeConfig (the table moved L1 -> Fixpipe buffer), against numpy."""
    kernel, quant, flags, out_dtype = CO12_SCENARIOS[scenario - 1]
    m, n, k = 32, 64, 64
    rng = rng_for("co12", scenario)
    kind = "f32" if kernel == "mm_f32_i8" else "i8"
    a, av = make_matrix(rng, kind, (m, k), small_ints=True)
    b, bv = make_matrix(rng, kind, (k, n), small_ints=True)
    acc = (av @ bv).astype(np.float32)  # exact: integer products and sums far below 2^24
    # scales that spread C (std ~44000 for int8 inputs, ~50 for the small float ones) over the
    # output's range without saturating most of it
    lo, hi = {"mm_i8_f16": (6, 9), "mm_i8_i8": (8, 10), "mm_f32_i8": (1, 3)}[kernel]
    if flags & VEC_QUANT:
        alphas = (2.0 ** -rng.integers(lo, hi + 1, n)).astype(np.float32) * rng.uniform(1, 2, n).astype(np.float32)
        offsets = rng.integers(-8, 8, n) if out_dtype == np.int8 else np.zeros(n, np.int64)
        params = [quant_param(float(x), int(o)) for x, o in zip(alphas, offsets)]
        table, deq = np.array(params, np.uint64), 0
    else:
        params = [quant_param(2.0**-lo * 1.375, 3 if out_dtype == np.int8 else 0)] * n
        table, deq = None, params[0]
    relu = bool(flags & RELU)
    out = run_mm(dev, kernel, a, b, m, n, k, flags | CO12, quant, deq, table=table, out_dtype=out_dtype)
    if flags & NZ_OUT:
        out = from_nz_out(out, m, n, 32 if out_dtype == np.int8 else 16)
    out = out.reshape(m, n)
    col_alpha = np.array([alpha_of(p) for p in params], np.float32)
    y = acc * col_alpha
    if out_dtype == F16:
        want = (np.maximum(y, 0) if relu else y).astype(F16)
        np.testing.assert_array_equal(out, want)
    else:
        want = np.stack([int8_quant(y[:, j], params[j], relu) for j in range(n)], axis=1)
        np.testing.assert_array_equal(out.astype(np.int64), want)
    assert len(np.unique(out)) > 8  # a real spread of values, not a constant


# ---------------------------------------------------------------- single data movers


def nz_model(src, nd_num, n_value, d_value, src_nd_stride, src_d, c0_stride, n_stride, nz_stride, size, c0=16):
    """Nd2Nz as CANN documents it: zero padding to the row's 32-byte block; the rest untouched (-1)."""
    out = np.full(size, -1, np.int16)
    for i in range(nd_num):
        for r in range(n_value):
            for blk in range((d_value + c0 - 1) // c0):
                at = i * nz_stride + (blk * c0_stride + r * n_stride) * c0
                for j in range(c0):
                    d = blk * c0 + j
                    out[at + j] = src[i * src_nd_stride + r * src_d + d] if d < d_value else 0
    return out


@pytest.mark.parametrize(
    "params",
    [
        (1, 30, 40, 0, 40, 32, 1, 0),  # one matrix, padded rows and a 40-wide d (8 zeros of padding)
        (2, 16, 23, 16 * 25, 25, 16, 1, 16 * 48),  # two matrices, srcDValue > dValue, CANN's dValue = 23
        (3, 8, 16, 100, 12, 10, 2, 512),  # dstNzNStride 2, overlapping source rows
    ],
)
def test_nd2nz_places_rows_blocks_and_zero_padding_as_documented(dev, params):
    rng = rng_for("nd2nz", params)
    src = rng.integers(-30000, 30000, 4096).astype(np.int16)
    size = 4096
    out_dev = dev.put(np.zeros(size, np.int16))
    p0 = params[0] | params[1] << 16 | params[2] << 32 | params[3] << 48
    p1 = params[4] | params[5] << 16 | params[6] << 32 | params[7] << 48
    assert dev.launch("nd2nz_probe", 1, dev.put(src), out_dev, p0, p1, size) == 0
    np.testing.assert_array_equal(dev.get(out_dev, np.zeros(size, np.int16)), nz_model(src, *params, size))


def load2d_model(src, dst, start, repeat, src_stride, dst_gap, transpose, decreasing, frac):
    for i in range(repeat):
        s = (start - i * src_stride if decreasing else start + i * src_stride) * frac
        d = i * (dst_gap + 1) * frac
        block = src[s : s + frac]
        dst[d : d + frac] = block.reshape(16, 16).T.reshape(-1) if transpose else block
    return dst


def transpose_model(src, dst, width, start, repeat, src_stride, dst_gap, frac_gap):
    """LoadDataWithTranspose in the twin's words: squares of side s (b8 32, b16 16, b32 16 made of
    two 16 x 8 fractals side by side) transposed and cut into 16-row (b32: 8-column) fractals."""
    side = {1: 32, 2: 16, 4: 16}[width]
    frac = 512 // width
    nfrac = {1: 2, 2: 1, 4: 2}[width]
    for i in range(repeat):
        sq = src[(start + i * src_stride) * side * side :][: side * side]
        if width == 4:
            square = np.concatenate([sq[:128].reshape(16, 8), sq[128:].reshape(16, 8)], axis=1)
            t = square.T
            pieces = [t[:, :8].reshape(-1), t[:, 8:].reshape(-1)]
        else:
            t = sq.reshape(side, side).T
            pieces = [t[16 * j : 16 * (j + 1)].reshape(-1) for j in range(nfrac)]
        base = i * (dst_gap + 1) * frac
        for j, piece in enumerate(pieces):
            at = base + j * (frac_gap + 1) * frac
            dst[at : at + frac] = piece
    return dst


@pytest.mark.parametrize(
    "start,repeat,stride,gap,transpose,decreasing",
    [(0, 4, 1, 0, False, False), (1, 3, 2, 1, False, False), (5, 3, 2, 0, False, True), (0, 4, 2, 0, True, False)],
)
def test_load_data_2d_gathers_fractals_with_strides_gaps_and_transpose(
    dev, start, repeat, stride, gap, transpose, decreasing
):
    n = 8 * 256
    src = rng_for("load2d", start, repeat).integers(-30000, 30000, n).astype(np.int16)
    out_dev = dev.put(np.zeros(n, np.int16))
    p0 = start | repeat << 16 | stride << 32 | gap << 48
    p1 = int(transpose) | int(decreasing) << 16
    assert dev.launch("load_probe_b16", 1, dev.put(src), out_dev, n, 0, p0, p1) == 0
    want = load2d_model(src, np.full(n, -1, np.int16), start, repeat, stride, gap, transpose, decreasing, 256)
    np.testing.assert_array_equal(dev.get(out_dev, np.zeros(n, np.int16)), want)


@pytest.mark.parametrize(
    "width,kernel,dt", [(1, "load_probe_b8", np.int8), (2, "load_probe_b16", np.int16), (4, "load_probe_b32", np.int32)]
)
@pytest.mark.parametrize("start,repeat,stride,gap,frac_gap", [(0, 2, 1, 1, 0), (1, 2, 1, 3, 1), (0, 3, 2, 2, 0)])
def test_load_data_with_transpose_matches_cann_pseudo_code(
    dev, width, kernel, dt, start, repeat, stride, gap, frac_gap
):
    n = 8192 // width
    src = rng_for("transpose", width, start).integers(-100, 100, n).astype(dt)
    out_dev = dev.put(np.zeros(n, dt))
    p0 = start | repeat << 16 | stride << 32 | gap << 48
    p1 = frac_gap | 1 << 63  # into L0B
    assert dev.launch(kernel, 1, dev.put(src), out_dev, n, 1, p0, p1) == 0
    want = transpose_model(src, np.full(n, -1, dt), width, start, repeat, stride, gap, frac_gap)
    np.testing.assert_array_equal(dev.get(out_dev, np.zeros(n, dt)), want)


def conv_reference(x: np.ndarray, wt: np.ndarray):
    """A padded 3x3 convolution of x (C, H, W) by wt (O, C, 3, 3) and its |x| @ |w| bound base."""
    _, h, w = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1)))
    ref = np.zeros((h, w, wt.shape[0]))
    absref = np.zeros_like(ref)
    for kh in range(3):
        for kw in range(3):
            patch = xp[:, kh : kh + h, kw : kw + w]
            ref += np.einsum("chw,oc->hwo", patch, wt[:, :, kh, kw].astype(np.float64))
            absref += np.einsum("chw,oc->hwo", np.abs(patch), np.abs(wt[:, :, kh, kw].astype(np.float64)))
    return ref, absref


@pytest.mark.parametrize(
    "kernel,boundary", [("conv_img2col", None), ("conv_img2col_pro", 0), ("conv_img2col_pro", 1024)]
)
def test_load3d_img2col_computes_a_padded_3x3_convolution(dev, kernel, boundary):
    """LoadData3DParamsV2, and the V2 Pro form with its packed fields; with SetLoadDataBoundary
    (asc-devkit's set_loaddata_boundary) reads at or past the boundary wrap to L1's start."""
    h, w, cin, cout = 6, 8, 16, 24
    rng = rng_for("conv", kernel, boundary)
    x = rng.uniform(-1, 1, (cin, h, w)).astype(F16)
    wt = rng.uniform(-1, 1, (cout, cin, 3, 3)).astype(F16)
    fm = x.reshape(1, 16, h, w).transpose(0, 2, 3, 1).copy()  # C1 H W C0
    # k = ((c1 * 3 + kh) * 3 + kw) * 16 + c0: the weight as N x K.
    wk = wt.reshape(cout, 1, 16, 3, 3).transpose(0, 1, 3, 4, 2).reshape(cout, -1).copy()
    out_dev = dev.put(np.zeros(h * w * cout, np.float32))
    args = (dev.put(fm), dev.put(wk), out_dev, h, w, cin, cout) + (() if boundary is None else (boundary,))
    assert dev.launch(kernel, 1, *args) == 0, dev.lib.aclGetRecentErrMsg().decode()
    out = dev.get(out_dev, np.zeros(h * w * cout, np.float32)).reshape(h, w, cout)
    seen = fm.reshape(-1)
    if boundary:  # the feature map starts at L1 address 0: element i reads element i % (boundary / 2)
        seen = seen[np.arange(seen.size) % (boundary // 2)]
        assert not np.array_equal(seen, fm.reshape(-1))
    xs = seen.reshape(1, h, w, 16).transpose(0, 3, 1, 2).reshape(cin, h, w)
    ref, absref = conv_reference(xs, wt)
    assert np.all(np.abs(out - ref) <= (16 * 9 + 2) * 2.0**-24 * absref + 1e-30)


def test_dump_tensor_names_l1_and_l0c(dev, capfd):
    out = dev.put(np.zeros(8, np.float32))
    assert dev.launch("cube_dump", 1, out) == 0
    text = capfd.readouterr().out
    assert "DumpTensor: desc=7, addr=64, data_type=float16, position=L1, dump_size=8" in text, text
    assert "[0.000000, 1.000000, 2.000000, 3.000000, 4.000000, 5.000000, 6.000000, 7.000000]" in text
    assert "DumpTensor: desc=9, addr=1024, data_type=float32, position=L0C, dump_size=8" in text
    assert "DumpAccChkPoint: index=3, countOff=4" in text
    assert "[2.000000, 2.500000, 3.000000, 3.500000]" in text


# ---------------------------------------------------------------- traps

TRAPS = {
    1: "Mmad: fm needs 512 elements (m=16 k=32: 1 x 2 fractals of 16 x 16 half) from L0A address 65024, past the end "
    "of L0A (65536 B)",
    2: "Mmad: fm address 32 (A2) is not 512-byte aligned",
    3: "Mmad: fm position B2 is not A2 (L0A)",
    4: "Mmad: m 4096, n 16, k 16: each must be in [0, 4095]",
    5: "LoadData: src address 16 (A1) is not 32-byte aligned",
    6: "LoadData: src needs 1280 elements (fractals up to startIndex + (repeatTimes - 1) x srcStride) from L1 address "
    "523264, past the end of L1 (524288 B)",
    7: "LoadData: ifTranspose needs a 16-bit type (half, bfloat16_t, int16_t, uint16_t), not float",
    8: "DataCopy(GM->L1, Nd2NzParams): dstNzC0Stride 0 is outside [1, 16384]",
    9: "DataCopy(GM->L1, Nd2NzParams): the NZ result reaches 4096 B (ndNum 1, nValue 64, dValue 32, dstNzC0Stride 64, "
    "dstNzNStride 1, dstNzMatrixStride 0) from L1 address 522240, past the end of L1 (524288 B)",
    10: "Fixpipe(L0C->GM): nSize 20 must be in [0, 4095] and a multiple of 16 for an NZ result",
    11: "Fixpipe(L0C->GM): quantPre F322F16 does not convert float to float (use NoQuant)",
    12: "Fixpipe(L0C->L1): dst position VECCALC is not in L1 (A1, B1, C1): L0C -> UB needs NpuArch 3510",
    13: "Fixpipe(L0C->GM): src needs 256 elements (mSize 16 x nSize 16, srcStride 16) from L0C address 130560, "
    "past the end of L0C (131072 B)",
    14: "LocalTensor: [0, 131104) exceeds the L0C capacity of 131072 bytes",
    15: "Mmad: unitFlag 1 is not 0, 2 or 3",
    16: "LoadDataWithTranspose: int4b_t can be loaded into L0B (B2) only, not L0A (A2)",
    17: "Fixpipe(L0C->GM): dstStride is 0 (valid range [1, 4294967295])",
    18: "DataCopy(L0C->GM): quantPre VDEQF16 needs SetFixPipeConfig(tensor) with the per-channel table first",
    19: "DataCopy(L0C->GM): quantPre VDEQF16 needs the per-channel table in the Fixpipe buffer (C2PIPE2GM); "
    "SetFixPipeConfig got a tensor in C1",
    20: "DataCopy(L0C->GM): reluPre 2 is not 0 (off) or 1 (normal ReLU)",
}


@pytest.mark.parametrize("kind", sorted(TRAPS))
def test_each_cube_misuse_traps_with_one_line_naming_api_and_cause(dev, kind):
    gm = dev.put(np.zeros(8192, np.float32))
    dev.expect_trap("cube_traps", 1, (gm, kind), TRAPS[kind], (gm, 0))
