"""The data-layout high-level APIs of the Ascend C twin (Pad, UnPad, Broadcast, Transpose's
ConfusionTranspose scenarios 1-7, TransData's four format changes) against numpy, and
DataCopyPad's brace-initialised call forms (the ones CANN's cumsum / fmod samples write), with
kernels from programs/api_adv_layout.asc
built by bisheng and run through libascendcl. Inputs are random (seed printed;
ASC_TWIN_SEED=<n> repeats a run) at every dtype each API takes here. These APIs only move data,
so the tolerance is zero: every output element must equal numpy's bit for bit.

The tiling structs are laid out as kernel_tiling/data_layout_tiling.h declares them (the host
functions that fill them are tested in //twin/tiling/tests:data_layout_tiling_test).

Env: ASCENDCL_LIB, API_ADV_LAYOUT (device binary).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import device_fixtures, rng_for  # noqa: E402

DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i16": np.int16}
PAD_FIELDS, UNPAD_FIELDS, TRANSPOSE_FIELDS = 26, 8, 18

dev, free_buffers = device_fixtures(
    lambda: {
        "API_ADV_LAYOUT": [f"layout_{api}_{t}" for api in ("pad", "unpad", "broadcast", "transpose") for t in DTYPES]
        + ["layout_broadcast_i8", "layout_datacopypad_forms", "layout_transdata_f16", "layout_transdata_i16"],
    }
)


def random_of(rng, dt, n):
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    return rng.uniform(-1000, 1000, n).astype(dt)


def padded(a: np.ndarray, elems: int) -> np.ndarray:
    """a flattened and zero-extended to elems (kernel buffers are whole 32-byte blocks)."""
    out = np.zeros(elems, a.dtype)
    out[: a.size] = a.ravel()
    return out


def blocks(n: int, dt) -> int:
    per = 32 // np.dtype(dt).itemsize
    return (n + per - 1) // per * per


def tiling(fields: int, **values) -> np.ndarray:
    t = np.zeros(fields, np.uint32)
    for i, v in values.items():
        t[int(i[1:])] = v
    return t


def run_pad(d, dt, x, h, w, ori, left, right, value, tmp):
    aligned = blocks(w, dt)
    out_elems = h * aligned
    px, py = d.put(x), d.put(np.zeros(out_elems, dt))
    pt = d.put(tiling(PAD_FIELDS, f0=h, f1=w, f2=ori))
    rc = d.launch(f"layout_pad_{dt_tag(dt)}", 1, px, py, pt, x.size, out_elems, left, right, value & 0xFFFFFFFF, tmp)
    return rc, d.get(py, np.zeros(out_elems, dt))


def dt_tag(dt) -> str:
    return {np.float32: "f32", np.float16: "f16", np.int32: "i32", np.int16: "i16", np.int8: "i8"}[dt]


@pytest.mark.parametrize("tag", DTYPES)
@pytest.mark.parametrize("with_tmp", [False, True])
def test_pad_unaligned_width_matches_numpy(dev, tag, with_tmp):
    dt = DTYPES[tag]
    rng = rng_for("pad1", tag, with_tmp)
    per = 32 // np.dtype(dt).itemsize
    for _ in range(6):
        w = int(rng.integers(1, 5 * per))
        if w % per == 0:
            w += 1
        h = int(rng.integers(1, 6)) * per  # h * w elements are whole 32-byte blocks
        aligned = blocks(w, dt)
        left = int(rng.integers(0, aligned - w + 1))
        right = int(rng.integers(0, aligned - w - left + 1))
        value = int(rng.integers(-300, 300))
        x = random_of(rng, dt, h * w)
        tmp = aligned * np.dtype(dt).itemsize if with_tmp else 0
        rc, got = run_pad(dev, dt, x, h, w, w, left, right, value, tmp)
        assert rc == 0
        want = np.zeros((h, aligned), dt)
        want[:, :left] = dt(value)
        want[:, left : left + w] = x.reshape(h, w)
        want[:, left + w : left + w + right] = dt(value)
        got = got.reshape(h, aligned)
        written = left + w + right  # the columns past it are not written
        np.testing.assert_array_equal(got[:, :written], want[:, :written], err_msg=f"h={h} w={w} l={left} r={right}")


@pytest.mark.parametrize("tag", DTYPES)
def test_pad_aligned_width_fills_the_invalid_tail(dev, tag):
    dt = DTYPES[tag]
    rng = rng_for("pad2", tag)
    per = 32 // np.dtype(dt).itemsize
    for _ in range(4):
        w = per * int(rng.integers(1, 5))
        h = int(rng.integers(1, 9))
        ori = int(rng.integers(1, w))
        right = int(rng.integers(1, w - ori + 1))
        x = random_of(rng, dt, h * w)
        rc, got = run_pad(dev, dt, x, h, w, ori, 0, right, 77, 0)
        assert rc == 0
        want = x.reshape(h, w).copy()
        want[:, ori : ori + right] = dt(77)
        np.testing.assert_array_equal(got.reshape(h, w), want)


@pytest.mark.parametrize("tag", DTYPES)
@pytest.mark.parametrize("with_tmp", [False, True])
def test_unpad_matches_numpy(dev, tag, with_tmp):
    dt = DTYPES[tag]
    rng = rng_for("unpad", tag, with_tmp)
    per = 32 // np.dtype(dt).itemsize
    for _ in range(6):
        w = per * int(rng.integers(1, 5))
        h = int(rng.integers(1, 9)) * per
        left = int(rng.integers(0, w // 2))
        right = int(rng.integers(0, w - left))
        x = random_of(rng, dt, h * w)
        out = w - left - right
        out_elems = blocks(h * out, dt)
        px, py = dev.put(x), dev.put(np.zeros(out_elems, dt))
        pt = dev.put(tiling(UNPAD_FIELDS, f0=h, f1=w))
        tmp = w * np.dtype(dt).itemsize if with_tmp else 0
        assert dev.launch(f"layout_unpad_{tag}", 1, px, py, pt, x.size, out_elems, left, right, tmp) == 0
        got = dev.get(py, np.zeros(out_elems, dt))[: h * out]
        np.testing.assert_array_equal(got.reshape(h, out), x.reshape(h, w)[:, left : w - right])


@pytest.mark.parametrize("tag", [*DTYPES, "i8"])
@pytest.mark.parametrize("mode", [0, 1, 2])
def test_broadcast_matches_numpy(dev, tag, mode):
    dt = DTYPES.get(tag, np.int8)
    rng = rng_for("broadcast", tag, mode)
    for with_tmp in (False, True):
        rows = 1 if mode == 0 else int(rng.integers(1, 20))
        cols = int(rng.integers(1, 70))
        src_shape = (1,) if mode == 0 else ((1, cols) if mode == 1 else (rows, 1))
        x = random_of(rng, dt, int(np.prod(src_shape)))
        in_elems, out_elems = blocks(x.size, dt), blocks(rows * cols, dt)
        px, py = dev.put(padded(x, in_elems)), dev.put(np.zeros(out_elems, dt))
        rc = dev.launch(
            f"layout_broadcast_{tag}", 1, px, py, mode, rows, cols, in_elems, out_elems, 256 if with_tmp else 0
        )
        assert rc == 0
        got = dev.get(py, np.zeros(out_elems, dt))[: rows * cols]
        want = np.broadcast_to(x.reshape(src_shape), (cols,) if mode == 0 else (rows, cols))
        np.testing.assert_array_equal(got, want.ravel(), err_msg=f"{src_shape} -> {rows}x{cols}")


# ---------------------------------------------------------------- ConfusionTranspose


def to_nz(m: np.ndarray) -> np.ndarray:
    """[..., R, C] (R, C multiples of 16) -> its NZ fractals [..., C/16, R, 16], flattened per matrix."""
    *lead, r, c = m.shape
    return m.reshape(*lead, r, c // 16, 16).swapaxes(-3, -2).reshape(*lead, r * c)


def pad_cols(m: np.ndarray, c: int) -> np.ndarray:
    out = np.zeros((*m.shape[:-1], c), m.dtype)
    out[..., : m.shape[-1]] = m
    return out


def up16(v: int) -> int:
    return (v + 15) // 16 * 16


def transpose_case(scenario, x, b, n, s, hn):
    """(source buffer, expected destination) of a scenario for logical data x [B, N, S, hn]."""
    h = n * hn
    bsh = x.transpose(0, 2, 1, 3).reshape(b, s, h)  # [B, S, H]
    if scenario in (1, 2):
        src = to_nz(x)
        want = x.transpose(0, 2, 1, 3)  # [B, S, N, hn]
        return src, (want if scenario == 1 else to_nz(want))
    if scenario in (3, 4):
        src = to_nz(bsh)
        want = pad_cols(x, up16(hn))  # [B, N, S, hnP]
        return src, (to_nz(want) if scenario == 3 else want)
    src = to_nz(pad_cols(x, up16(hn)))
    want = pad_cols(bsh, up16(h))  # [B, S, HP]
    return src, (want if scenario == 5 else to_nz(want))


SHAPES = {
    1: (2, 3, 32, 32),
    2: (1, 16, 32, 16),
    3: (2, 2, 48, 24),
    4: (1, 4, 32, 20),
    5: (2, 2, 32, 24),
    6: (1, 3, 16, 16),
}


@pytest.mark.parametrize("tag", ["f16", "f32", "i16", "i32"])
@pytest.mark.parametrize("scenario", [1, 2, 3, 4, 5, 6, 7])
def test_confusion_transpose_matches_numpy(dev, tag, scenario):
    dt = DTYPES[tag]
    rng = rng_for("transpose", tag, scenario)
    if scenario == 7:
        hh, ww = 16 * int(rng.integers(1, 4)), 16 * int(rng.integers(1, 4))
        x = random_of(rng, dt, hh * ww).reshape(hh, ww)
        src, want, fields = x, x.T, dict(f0=7, f1=hh, f2=ww)
    else:
        b, n, s, hn = SHAPES[scenario]
        x = random_of(rng, dt, b * n * s * hn).reshape(b, n, s, hn)
        src, want = transpose_case(scenario, x, b, n, s, hn)
        fields = dict(f0=scenario, f1=b, f2=n, f3=s, f4=hn)
    fields["f6"] = np.dtype(dt).itemsize
    src, want = np.ascontiguousarray(src).ravel(), np.ascontiguousarray(want).ravel()
    in_elems, out_elems = blocks(src.size, dt), blocks(want.size, dt)
    for tmp in (0, 2 * 256 * np.dtype(dt).itemsize):
        px, py = dev.put(padded(src, in_elems)), dev.put(np.zeros(out_elems, dt))
        pt = dev.put(tiling(TRANSPOSE_FIELDS, **fields))
        assert dev.launch(f"layout_transpose_{tag}", 1, px, py, pt, scenario, in_elems, out_elems, tmp) == 0
        got = dev.get(py, np.zeros(out_elems, dt))[: want.size]
        np.testing.assert_array_equal(got, want, err_msg=f"scenario {scenario}")


def test_the_transpose_sample_layout(dev):
    """CANN's 08_transpose/transpose sample: fp16 [1, 2, 64, 32] NZ -> ND [1, 64, 2, 32]."""
    rng = rng_for("sample")
    b, n, s, hn = 1, 2, 64, 32
    origin = rng.uniform(-1000, 1000, (b, n, s, hn)).astype(np.float16)
    src = origin.reshape(b, n, s // 16, 16, hn // 16, 16).transpose(0, 1, 4, 2, 3, 5).ravel()  # as its gen_data.py
    px, py = dev.put(src), dev.put(np.zeros(src.size, np.float16))
    pt = dev.put(tiling(TRANSPOSE_FIELDS, f0=1, f1=b, f2=n, f3=s, f4=hn, f6=2))
    assert dev.launch("layout_transpose_f16", 1, px, py, pt, 1, src.size, src.size, 0) == 0
    np.testing.assert_array_equal(dev.get(py, src).reshape(b, s, n, hn), origin.transpose(0, 2, 1, 3))


# ---------------------------------------------------------------- TransData


def ncdhw_ub(x: np.ndarray) -> np.ndarray:
    """[N, C, D, H, W] as TransData reads / writes it in UB: each H*W plane padded to 16 (zeros)."""
    n, c, d, h, w = x.shape
    return pad_cols(x.reshape(n, c, d, h * w), up16(h * w))


def ndc1hwc0(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    xc = np.zeros((n, up16(c), d, h * w), x.dtype)
    xc[:, :c] = x.reshape(n, c, d, h * w)
    return xc.reshape(n, up16(c) // 16, 16, d, h * w).transpose(0, 3, 1, 4, 2)  # [N, D, C1, HW, C0]


def fractal_z_3d(x: np.ndarray) -> np.ndarray:
    n, c, d, h, w = x.shape
    xp = np.zeros((up16(n), up16(c), d, h * w), x.dtype)
    xp[:n, :c] = x.reshape(n, c, d, h * w)
    # [N1, N0, C1, C0, D, HW] -> [D, C1, HW, N1, N0, C0]
    return xp.reshape(up16(n) // 16, 16, up16(c) // 16, 16, d, h * w).transpose(4, 2, 5, 0, 1, 3)


@pytest.mark.parametrize("tag", ["f16", "i16"])
@pytest.mark.parametrize("mode", [1, 2, 3, 4])
def test_transdata_matches_numpy(dev, tag, mode):
    dt = DTYPES[tag]
    rng = rng_for("transdata", tag, mode)
    shapes = [
        (16, 16, 1, 3, 5),
        (
            int(rng.integers(1, 20)),
            int(rng.integers(1, 40)),
            int(rng.integers(1, 3)),
            int(rng.integers(1, 5)),
            int(rng.integers(1, 7)),
        ),
    ]
    for shape in shapes:
        x = random_of(rng, dt, int(np.prod(shape))).reshape(shape)
        other = fractal_z_3d(x) if mode in (1, 2) else ndc1hwc0(x)
        src, want = (ncdhw_ub(x), other) if mode in (1, 3) else (other, ncdhw_ub(x))
        src, want = np.ascontiguousarray(src).ravel(), np.ascontiguousarray(want).ravel()
        n, c, d, h, w = shape
        min_tmp = d * up16(c) * up16(h * w) * 2
        for tmp in (0, min_tmp):
            in_elems, out_elems = blocks(src.size, dt), blocks(want.size, dt)
            px, py = dev.put(padded(src, in_elems)), dev.put(np.full(out_elems, 7, dt))
            assert dev.launch(f"layout_transdata_{tag}", 1, px, py, mode, n, c, d, h, w, in_elems, out_elems, tmp) == 0
            got = dev.get(py, np.zeros(out_elems, dt))[: want.size]
            np.testing.assert_array_equal(got, want, err_msg=f"mode {mode} shape {shape}")


def test_transdata_small_tmp_traps(dev):
    x = np.zeros(16 * 16 * 16, np.float16)
    px, py = dev.put(x), dev.put(np.zeros(16 * 16 * 16, np.float16))
    args = lambda tmp: (px, py, 3, 16, 16, 1, 3, 5, x.size, x.size, tmp)  # noqa: E731
    dev.expect_trap(
        "layout_transdata_f16", 1, args(256), "TransData: sharedTmpBuffer holds 256 bytes, less than the 512", args(512)
    )


# ---------------------------------------------------------------- DataCopyPad call forms (issue 22)


def test_datacopypad_brace_forms_of_the_cumsum_and_fmod_samples(dev):
    """Four-field brace lists are a DataCopyParams (blockLen in bytes), five-field ones a
    DataCopyExtParams; the kernel compiling at all is half of this test (it was ambiguous)."""
    rng = rng_for("dcp")
    rows, cols = 5, 13
    x = rng.standard_normal(rows * cols).astype(np.float32)
    px, py, pz = dev.put(x), dev.put(np.zeros_like(x)), dev.put(np.zeros_like(x))
    assert dev.launch("layout_datacopypad_forms", 1, px, py, pz, rows, cols) == 0
    np.testing.assert_array_equal(dev.get(py, x), x)
    np.testing.assert_array_equal(dev.get(pz, x), x)


# ---------------------------------------------------------------- bad input traps


def test_bad_input_traps_with_one_line(dev):
    dt = np.float32
    x = np.arange(16 * 31, dtype=dt)
    px, py = dev.put(x), dev.put(np.zeros(16 * 32, dt))
    good = dev.put(tiling(PAD_FIELDS, f0=16, f1=31, f2=31))
    args = lambda tmp, right=1: (px, py, good, x.size, 16 * 32, 0, right, 5, tmp)  # noqa: E731
    dev.expect_trap(
        "layout_pad_f32", 1, args(64), "Pad: sharedTmpBuffer holds 64 bytes, less than the 128 bytes", args(128)
    )
    dev.expect_trap("layout_pad_f32", 1, args(0, right=2), "leftPad 0 + width 31 + rightPad 2 exceeds", args(0))
    empty = dev.put(tiling(PAD_FIELDS))
    dev.expect_trap(
        "layout_pad_f32", 1, (px, py, empty, x.size, 16 * 32, 0, 1, 5, 0), "was PadTilingFunc called?", args(0)
    )
    wrong = dev.put(tiling(TRANSPOSE_FIELDS, f0=2, f1=1, f2=16, f3=16, f4=16, f6=4))
    right_t = dev.put(tiling(TRANSPOSE_FIELDS, f0=1, f1=1, f2=16, f3=16, f4=16, f6=4))
    py2 = dev.put(np.zeros(16 * 16 * 16, dt))
    px2 = dev.put(np.zeros(16 * 16 * 16, dt))
    dev.expect_trap(
        "layout_transpose_f32",
        1,
        (px2, py2, wrong, 1, 4096, 4096, 0),
        "the tiling was made for scenario 2, the call asks for 1",
        (px2, py2, right_t, 1, 4096, 4096, 0),
    )
    pu = dev.put(tiling(UNPAD_FIELDS, f0=8, f1=8))
    dev.expect_trap(
        "layout_unpad_f32",
        1,
        (px, py, pu, 64, 64, 4, 4, 0),
        "leaves nothing of the width 8",
        (px, py, pu, 64, 64, 0, 1, 0),
    )
