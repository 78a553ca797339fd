"""The quantisation APIs of the Ascend C twin against numpy (kernels: programs/api_adv_quant_sort.asc,
built by bisheng, run through libascendcl), with the NPU's A2/A3 precision steps: AscendQuant
casts to half and scales/offsets in half (each step rounded to half), then rounds to int8 ties
to even; AscendDequant multiplies in fp32 and casts to the output type once; AscendAntiQuant
adds and multiplies in half (half output) or in fp32 (bfloat16 output). Every step is modelled
in numpy, so the tolerance is zero: results must match bit for bit. TopK against a stable numpy
sort. Also the basic Sort as CANN's Sort sample calls it (Concat into a default-constructed
tensor), ShapeInfo, PopStackBuffer and AscendCUtils::SetOverflow, and the traps (one line naming
the API and the cause).

Random inputs; the seed is printed (ASC_TWIN_SEED=<n> repeats a run).
Env: ASCENDCL_LIB, API_ADV_QUANT_SORT (device binary).
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import device_fixtures, rng_for  # noqa: E402

F16, F32 = np.float16, np.float32
UB_BYTES = 196608  # Ascend910B1's UB (twin/platform/Ascend910B1.ini)

dev, free_buffers = device_fixtures(
    lambda: {
        "API_ADV_QUANT_SORT": [
            "quant_f32",
            "quant_f16",
            "dequant_f32_f32",
            "dequant_f32_bf16",
            "dequant_bf16_f32",
            "dequant_bf16_bf16",
            "dequant_f16_u64",
            "antiquant_i8_f16",
            "antiquant_i8_bf16",
            "antiquant_i4_f16",
            "sort_sample_f32",
            "pop_stack",
            "topk_f32",
            "topk_f16",
        ],
    }
)


def fbits(v: float) -> int:
    return struct.unpack("<I", struct.pack("<f", v))[0]


def to_bf16(x) -> np.ndarray:
    """float32 -> bfloat16 bits, ties to even."""
    b = np.asarray(x, F32).view(np.uint32).astype(np.uint64)
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(b) -> np.ndarray:
    return (np.asarray(b).astype(np.uint32) << 16).view(F32)


def h(x) -> np.ndarray:
    """One half-precision step: the exact fp32 result rounded to half."""
    return np.asarray(x, F32).astype(F16)


# ---------------------------------------------------------------- AscendQuant


def quant_ref(x, scale, offset) -> np.ndarray:
    y = h(h(x).astype(F32) * h(scale).astype(F32))
    y = h(y.astype(F32) + h(offset).astype(F32))
    return np.clip(np.rint(y.astype(F32)), -128, 127).astype(np.int8)


@pytest.mark.parametrize("dt", [F32, F16])
@pytest.mark.parametrize("mode", [0, 1, 2])
@pytest.mark.parametrize("with_tmp", [False, True])
def test_ascend_quant_matches_the_half_precision_sequence(dev, dt, mode, with_tmp):
    rng = rng_for("quant", dt.__name__, mode, with_tmp)
    n, sc = 1024, 64
    x = rng.uniform(-40, 40, n).astype(dt)
    x[:4] = [300.0, -300.0, 2.5, -3.5]  # saturation; ties to even after scale 1 + offset 0 below
    scale = rng.uniform(-3, 3, sc).astype(dt)
    offset = rng.uniform(-2, 2, sc).astype(dt)
    s_scalar, o_scalar = 2.0, 0.9
    xo, so, oo = dev.put(x), dev.put(scale), dev.put(offset)
    yo = dev.put(np.zeros(n, np.int8))
    tmp = 256 if with_tmp else 0  # GetAscendQuantMaxMinTmpSize's minimum for 1024 elements
    dev.ok(
        dev.launch(
            f"quant_{'f32' if dt == F32 else 'f16'}",
            1,
            xo,
            so,
            oo,
            yo,
            n,
            sc,
            mode,
            tmp,
            fbits(s_scalar),
            fbits(o_scalar),
        )
    )
    got = dev.get(yo, np.zeros(n, np.int8))
    reps = n // sc
    if mode == 0:
        want = quant_ref(x, s_scalar, o_scalar)
    elif mode == 1:
        want = quant_ref(x, np.tile(scale, reps), np.full(n, o_scalar, dt))
    else:
        want = quant_ref(x, np.tile(scale, reps), np.tile(offset, reps))
    np.testing.assert_array_equal(got, want)


def test_ascend_quant_rounds_ties_to_even_and_saturates(dev):
    x = np.zeros(64, F16)
    x[:8] = [0.5, 1.5, 2.5, -0.5, -2.5, 200.0, -200.0, 127.4]
    xo, yo = dev.put(x), dev.put(np.zeros(64, np.int8))
    dev.ok(dev.launch("quant_f16", 1, xo, dev.put(x), dev.put(x), yo, 64, 32, 0, 0, fbits(1.0), fbits(0.0)))
    got = dev.get(yo, np.zeros(64, np.int8))
    assert list(got[:8]) == [0, 2, 2, 0, -2, 127, -128, 127]


def test_ascend_quant_traps(dev):
    x = np.ones(1024, F32)
    xo, so, yo = dev.put(x), dev.put(x[:64]), dev.put(np.zeros(1024, np.int8))
    ok = (xo, so, so, yo, 1024, 64, 0, 256, fbits(1.0), fbits(0.0))
    dev.expect_trap(
        "quant_f32",
        1,
        (xo, so, so, yo, 1024, 64, 0, 224, fbits(1.0), fbits(0.0)),
        "AscendQuant: sharedTmpBuffer holds 224 bytes, less than the 256 bytes the call needs "
        "(the minimum of GetAscendQuantMaxMinTmpSize)",
        ok,
    )
    dev.expect_trap(
        "quant_f32",
        1,
        (xo, so, so, yo, 1000, 48, 1, 0, fbits(1.0), fbits(0.0)),
        "AscendQuant: calCount 1000 is not a multiple of scaleCount 48",
        ok,
    )


# ---------------------------------------------------------------- AscendDequant


def dequant_ref(src, scale_f32, m, n, cal, out) -> np.ndarray:
    v = src.reshape(m, n).astype(F32)
    v[:, :cal] = v[:, :cal] * scale_f32[:cal]
    return v.astype(out) if out is not None else v


@pytest.mark.parametrize(
    "kernel,dst,scl",
    [
        ("dequant_f32_f32", "f32", "f32"),
        ("dequant_f32_bf16", "f32", "bf16"),
        ("dequant_bf16_f32", "bf16", "f32"),
        ("dequant_bf16_bf16", "bf16", "bf16"),
        ("dequant_f16_u64", "f16", "u64"),
    ],
)
@pytest.mark.parametrize("form,part", [(0, False), (0, True), (1, False), (2, False)])
@pytest.mark.parametrize("with_tmp", [False, True])
def test_ascend_dequant_matches_fp32_multiply_then_one_cast(dev, kernel, dst, scl, form, part, with_tmp):
    if form == 2 and scl == "u64":
        pytest.skip("the scalar deqScale takes float or bfloat16_t (CANN's dtype table)")
    rng = rng_for("dequant", kernel, form, part, with_tmp)
    m, n = 16, 8 if dst != "f32" else 32  # half/bf16 rows of 8 int32 pad to 16 slots
    cal = n * 3 // 4 if part else n  # part: the last quarter of each row stays unscaled
    src = rng.integers(-2000, 2000, m * n).astype(np.int32)
    scale_f32 = rng.uniform(-4, 4, n).astype(F32)
    if scl == "bf16":
        scale_dev = to_bf16(scale_f32)
        scale_f32 = from_bf16(scale_dev)
    elif scl == "u64":
        scale_dev = scale_f32.view(np.uint32).astype(np.uint64) | np.uint64(0xABCD_0000_0000)  # high bits ignored
    else:
        scale_dev = scale_f32
    scalar = float(scale_f32[0])
    inner = n if dst == "f32" else (n + 15) // 16 * 16
    esize = 4 if dst == "f32" else 2
    yo = dev.put(np.zeros(m * inner * esize, np.uint8))
    tmp = (2 * ((n * 4 + 31) // 32 * 32)) if with_tmp else 0  # the minimum: deqScale row + one source row
    dev.ok(dev.launch(kernel, 1, dev.put(src), dev.put(scale_dev), yo, m, n, cal, form, tmp, fbits(scalar), inner))
    raw = dev.get(yo, np.zeros(m * inner * esize, np.uint8))
    if form == 2:
        scale_f32 = np.full(n, scalar, F32)
    if form == 1:
        cal = n
    want = dequant_ref(src, scale_f32, m, n, cal, None)
    if dst == "f32":
        got = raw.view(F32).reshape(m, inner)[:, :n]
        np.testing.assert_array_equal(got, want)
    elif dst == "bf16":
        got = raw.view(np.uint16).reshape(m, inner)[:, :n]
        np.testing.assert_array_equal(got, to_bf16(want))
    else:
        got = raw.view(F16).reshape(m, inner)[:, :n]
        np.testing.assert_array_equal(got, want.astype(F16))


def test_ascend_dequant_single_row_params_split_into_rows(dev):
    # {1, m * n, n} with DEQUANT_WITH_SINGLE_ROW is read as {m, n, n}: every row is scaled
    rng = rng_for("dequant-single-row")
    m, n = 4, 32
    src = rng.integers(-50, 50, m * n).astype(np.int32)
    scale = rng.uniform(-2, 2, m * n).astype(F32)  # the kernel loads m * n; only the first n are deqScale
    yo = dev.put(np.zeros(m * n, F32))
    dev.ok(dev.launch("dequant_f32_f32", 1, dev.put(src), dev.put(scale), yo, 1, m * n, n, 0, 0, 0, m * n))
    got = dev.get(yo, np.zeros(m * n, F32))
    np.testing.assert_array_equal(got.reshape(m, n), src.reshape(m, n).astype(F32) * scale[:n])


def test_ascend_dequant_traps(dev):
    src, scale = np.ones(256, np.int32), np.ones(32, F32)
    so, co, yo = dev.put(src), dev.put(scale), dev.put(np.zeros(256, F32))
    ok = (so, co, yo, 8, 32, 32, 0, 0, 0, 32)
    dev.expect_trap(
        "dequant_f32_f32",
        1,
        (so, co, yo, 8, 32, 40, 0, 0, 0, 32),
        "AscendDequant: params.calCount 40 is outside (0, params.n 32]",
        ok,
    )
    dev.expect_trap(
        "dequant_f32_f32",
        1,
        (so, co, yo, 8, 32, 32, 0, 64, 0, 32),
        "AscendDequant: sharedTmpBuffer holds 64 bytes, less than the 256 bytes",
        ok,
    )
    dev.expect_trap(
        "dequant_f32_f32",
        1,
        (so, co, yo, 8, 12, 12, 0, 0, 0, 12),
        "AscendDequant: params.n 12 must be a positive multiple of 8",
        ok,
    )


# ---------------------------------------------------------------- AscendAntiQuant


def antiquant_ref(q, off, sc, k, transpose, h_, w_, bf16) -> np.ndarray:
    n = q.size // k
    rows, cols = (n, k) if transpose else (k, n)
    q2 = q.reshape(rows, cols)
    if transpose:
        g = k // w_
        o = np.repeat(off.reshape(h_, w_), g, axis=1)
        s = np.repeat(sc.reshape(h_, w_), g, axis=1)
    else:
        g = k // h_
        o = np.repeat(off.reshape(h_, w_), g, axis=0)
        s = np.repeat(sc.reshape(h_, w_), g, axis=0)
    if bf16:
        return to_bf16((q2.astype(F32) + from_bf16(o)) * from_bf16(s)).ravel()
    return h(h(q2.astype(F32) + o.astype(F32)).astype(F32) * s.astype(F32)).ravel()


def pack_int4(q: np.ndarray) -> np.ndarray:
    u = (q.astype(np.int16) & 0xF).astype(np.uint8)
    return (u[0::2] | (u[1::2] << 4)).astype(np.uint8)


CASES = [  # (transpose, k, n, groups, shapeMode)
    (False, 8, 128, 1, 1),  # the sample: offset/scale [1, 128] from the tensors' ShapeInfo
    (False, 8, 128, 2, 0),  # [2, 128]: groups of 4 rows, from AntiQuantShapeInfo
    (True, 64, 16, 4, 0),  # [16, 4]: groups of 16 columns
    (False, 16, 64, 1, 2),  # no shape given: [1, size]
    (True, 64, 32, 1, 2),  # no shape given, transposed: [size, 1]
]


@pytest.mark.parametrize("kernel", ["antiquant_i8_f16", "antiquant_i8_bf16", "antiquant_i4_f16"])
@pytest.mark.parametrize("transpose,k,n,groups,shape_mode", CASES)
@pytest.mark.parametrize("with_tmp", [False, True])
def test_ascend_antiquant_per_channel(dev, kernel, transpose, k, n, groups, shape_mode, with_tmp):
    rng = rng_for("antiquant", kernel, transpose, k, n, groups, shape_mode, with_tmp)
    int4, bf16 = "i4" in kernel, "bf16" in kernel
    if int4 and transpose and k % 64:
        pytest.skip("int4b_t with isTranspose needs k a multiple of 64")
    count = k * n
    h_, w_ = (n, groups) if transpose else (groups, n)
    q = rng.integers(-8 if int4 else -128, 8 if int4 else 128, count).astype(np.int8)
    off = rng.uniform(-10, 10, h_ * w_).astype(F32)
    sc = rng.uniform(-10, 10, h_ * w_).astype(F32)
    off_dev, sc_dev = (to_bf16(off), to_bf16(sc)) if bf16 else (off.astype(F16), sc.astype(F16))
    xo = dev.put(pack_int4(q) if int4 else q)
    yo = dev.put(np.zeros(count, np.uint16))
    tmp = 0
    if with_tmp:
        tmp = min((count * 4 + 31) // 32 * 32, 256) + 2 * ((h_ * w_ * 4 + 31) // 32 * 32)
    dev.ok(
        dev.launch(
            kernel,
            1,
            xo,
            dev.put(off_dev),
            dev.put(sc_dev),
            yo,
            count,
            k,
            int(transpose),
            0,
            h_,
            w_,
            shape_mode,
            tmp,
            0,
        )
    )
    got = dev.get(yo, np.zeros(count, np.uint16))
    want = antiquant_ref(q, off_dev, sc_dev, k, transpose, h_, w_, bf16)
    np.testing.assert_array_equal(got, want.view(np.uint16))


@pytest.mark.parametrize("form", [1, 2, 3])
def test_ascend_antiquant_scalar_and_scale_only_forms(dev, form):
    rng = rng_for("antiquant-forms", form)
    k, n = 8, 64
    q = rng.integers(-128, 128, k * n).astype(np.int8)
    sc = rng.uniform(-4, 4, n).astype(F16)
    o_s, s_s = F16(1.5), F16(-0.75)
    scalars = int(o_s.view(np.uint16)) | (int(s_s.view(np.uint16)) << 16)
    yo = dev.put(np.zeros(k * n, F16))
    tmp = 256 + 2 * ((n * 4 + 31) // 32 * 32)
    dev.ok(
        dev.launch(
            "antiquant_i8_f16", 1, dev.put(q), dev.put(sc), dev.put(sc), yo, k * n, k, 0, form, 1, n, 0, tmp, scalars
        )
    )
    got = dev.get(yo, np.zeros(k * n, F16))
    x = q.astype(F32)
    if form == 1:
        want = h(h(x).astype(F32) * np.tile(sc, k).astype(F32))
    elif form == 2:
        want = h(h(x + F32(o_s)).astype(F32) * F32(s_s))
    else:
        want = h(h(x).astype(F32) * F32(s_s))
    np.testing.assert_array_equal(got, want)


def test_ascend_antiquant_traps(dev):
    q = np.ones(1024, np.int8)
    p = np.ones(3 * 128, F16)
    xo, po, yo = dev.put(q), dev.put(p), dev.put(np.zeros(1024, F16))
    ok = (xo, po, po, yo, 1024, 8, 0, 0, 1, 128, 0, 0, 0)
    dev.expect_trap(
        "antiquant_i8_f16",
        1,
        (xo, po, po, yo, 1024, 24, 0, 0, 1, 128, 0, 0, 0),
        "AscendAntiQuant: k 24 does not divide the source's 1024 elements",
        ok,
    )
    dev.expect_trap(
        "antiquant_i8_f16",
        1,
        (xo, po, po, yo, 1024, 8, 0, 0, 3, 128, 0, 0, 0),
        "AscendAntiQuant: offset/scale shape [3, 128] does not fit the source [8, 128]",
        ok,
    )
    dev.expect_trap(
        "antiquant_i8_f16",
        1,
        (xo, po, po, yo, 1024, 8, 0, 0, 1, 128, 0, 64, 0),
        "AscendAntiQuant: sharedTmpBuffer holds 64 bytes",
        ok,
    )


# ---------------------------------------------------------------- Sort (CANN's sample), PopStackBuffer


def test_sort_sample_concat_into_a_default_tensor_sorts_descending(dev):
    # CANN's 05_sort/sort sample hands Concat a default-constructed concatLocal; on A2/A3 Concat
    # makes it a view of the source, so Sort then reads the scores (it used to read nothing).
    rng = rng_for("sort-sample")
    n = 128
    x = rng.uniform(-60000, 60000, n).astype(F32)
    idx = rng.permutation(n).astype(np.uint32)
    vo, io = dev.put(np.zeros(n, F32)), dev.put(np.zeros(n, np.uint32))
    dev.ok(dev.launch("sort_sample_f32", 1, dev.put(x), dev.put(idx), vo, io, n))
    order = np.argsort(-x, kind="stable")
    np.testing.assert_array_equal(dev.get(vo, x), x[order])
    np.testing.assert_array_equal(dev.get(io, idx), idx[order])


def test_pop_stack_buffer_is_the_ub_the_pipe_left_and_set_overflow_is_kept(dev):
    used = 1024
    out = dev.put(np.zeros(8, np.uint32))
    dev.ok(dev.launch("pop_stack", 1, out, used))
    got = dev.get(out, np.zeros(8, np.uint32))
    taken = 2 * used + 32
    assert list(got[:3]) == [UB_BYTES - taken, taken, 1]


# ---------------------------------------------------------------- TopK


def topk_tiling(inner: int, outter: int) -> np.ndarray:
    """The TopkTiling words the twin's TopK checks (TopKTilingFunc fills them; tested in
    twin/tiling/tests:topk_tiling_test): allDataSize, innerDataSize."""
    t = np.zeros(28, np.int32)
    t[1], t[2] = inner * outter, inner
    return t


def run_topk(dev, dt, x, k, n, flags, xi=None, fin=None, tmp=0):
    outter, inner = x.shape
    kv = (k * x.itemsize + 31) // 32 * 32 // x.itemsize
    ki = (k + 7) // 8 * 8
    xi = np.zeros((outter, inner), np.int32) if xi is None else xi
    fin = np.zeros(max(outter, 32), np.bool_) if fin is None else fin
    vals = np.full((outter, kv), -7, dt)  # the padding must keep these
    idxs = np.full((outter, ki), -7, np.int32)
    vo, io = dev.put(vals), dev.put(idxs)
    rc = dev.launch(
        f"topk_{'f32' if dt == F32 else 'f16'}",
        1,
        dev.put(x),
        dev.put(xi),
        dev.put(fin),
        dev.put(topk_tiling(inner, outter)),
        vo,
        io,
        outter,
        inner,
        n,
        k,
        flags,
        tmp,
    )
    dev.ok(rc)
    return dev.get(vo, vals), dev.get(io, idxs)


@pytest.mark.parametrize("dt", [F32, F16])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k,n", [(1, 64), (8, 64), (13, 50)])
def test_topk_normal_mode_matches_a_stable_sort(dev, dt, largest, k, n):
    rng = rng_for("topk", dt.__name__, largest, k, n)
    outter, inner = 3, 64
    x = rng.integers(-20, 20, (outter, inner)).astype(dt)  # many ties: equal values keep column order
    vals, idxs = run_topk(dev, dt, x, k, n, int(largest))
    key = -x[:, :n].astype(np.float64) if largest else x[:, :n].astype(np.float64)
    order = np.argsort(key, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(idxs[:, :k], order)
    np.testing.assert_array_equal(vals[:, :k], np.take_along_axis(x, order, axis=1))
    assert (idxs[:, k:] == -7).all() and (vals[:, k:] == -7).all()  # the padding is not written


def test_topk_given_indices_finish_flags_and_tmp(dev):
    # CANN's topk sample with isInitIndex and isHasfinish: a finished row's indices are all n
    rng = rng_for("topk-init-finish")
    outter, inner, k = 4, 32, 5
    x = rng.uniform(-60000, 60000, (outter, inner)).astype(F32)
    xi = np.tile(rng.permutation(1000)[:inner].astype(np.int32), (outter, 1))
    fin = np.zeros(32, np.bool_)
    fin[[1, 3]] = True
    tmp = 2 * inner * 8 + inner * 4  # isLargest, isInitIndex: the pairs twice
    vals, idxs = run_topk(dev, F32, x, k, inner, 1 | 4 | 8, xi=xi, fin=fin, tmp=tmp)
    order = np.argsort(-x, axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(vals[:, :k], np.take_along_axis(x, order, axis=1))
    want = np.take_along_axis(xi, order, axis=1)
    want[[1, 3]] = inner
    np.testing.assert_array_equal(idxs[:, :k], want)


def test_topk_small_mode_takes_per_row_indices(dev):
    rng = rng_for("topk-small")
    outter, inner, k = 6, 32, 4
    x = rng.uniform(-1, 1, (outter, inner)).astype(F16)
    xi = rng.integers(0, 10000, (outter, inner)).astype(np.int32)
    vals, idxs = run_topk(dev, F16, x, k, inner, 2 | 4, xi=xi)
    order = np.argsort(x.astype(np.float64), axis=1, kind="stable")[:, :k]
    np.testing.assert_array_equal(vals[:, :k], np.take_along_axis(x, order, axis=1))
    np.testing.assert_array_equal(idxs[:, :k], np.take_along_axis(xi, order, axis=1))


def test_topk_traps(dev):
    x = np.zeros((2, 64), F32)
    xo, zo = dev.put(x), dev.put(np.zeros((2, 64), np.int32))
    fo, vo, io = dev.put(np.zeros(32, np.bool_)), dev.put(np.zeros(160, F32)), dev.put(np.zeros(160, np.int32))
    good = dev.put(topk_tiling(64, 2))
    ok = (xo, zo, fo, good, vo, io, 2, 64, 64, 4, 1, 0)
    dev.expect_trap(
        "topk_f32", 1, (xo, zo, fo, good, vo, io, 2, 64, 64, 70, 1, 0), "TopK: k 70 is outside [1, n 64]", ok
    )
    dev.expect_trap(
        "topk_f32",
        1,
        (xo, zo, fo, dev.put(topk_tiling(32, 2)), vo, io, 2, 64, 64, 4, 1, 0),
        "TopK: the TopkTiling was made for inner 32 x outter 2, topKInfo says inner 64 x outter 2",
        ok,
    )
    dev.expect_trap(
        "topk_f32",
        1,
        (xo, zo, fo, good, vo, io, 2, 64, 64, 4, 1, 64),
        "TopK: tmpLocal holds 64 bytes, less than the 1280 bytes",
        ok,
    )
