"""int4b_t, SetPadValue, MrgSort repeats, the DEQSCALE paths and SetFlag/WaitFlag pairing of the Ascend C twin
against numpy (kernels: programs/api_breadth.asc and the int4b_t pairs of programs/api_cast.asc,
built by bisheng, run through libascendcl). Random inputs; the seed is printed
(ASC_TWIN_SEED=<n> repeats a run).

Env: ASCENDCL_LIB, API_BREADTH, API_CAST (device binaries).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import F16, F32, device_fixtures, rng_for  # noqa: E402

NONE, RINT, FLOOR, CEIL, ROUND, TRUNC = 0, 1, 2, 3, 4, 5


dev, free_buffers = device_fixtures(
    lambda: {
        "API_BREADTH": [
            "int4_access",
            "pad_value_f32",
            "mrgsort_repeat_f32",
            "mrgsort_repeat_f16",
            "event_pipeline",
            "deq_f16",
            "event_ids",
            "breadth_traps",
        ],
        "API_CAST": ["cast_f16_i4", "cast_i4_f16"],
    }
)


# ---------------------------------------------------------------- int4b_t


def pack4(v: np.ndarray) -> np.ndarray:
    """int values in [-8, 7] -> bytes, element 2k in the low nibble of byte k (the NPU's layout)."""
    n = v.astype(np.int64) & 0xF
    return (n[0::2] | (n[1::2] << 4)).astype(np.uint8)


def unpack4(b: np.ndarray) -> np.ndarray:
    lo, hi = (b & 0xF).astype(np.int8), (b >> 4).astype(np.int8)
    out = np.empty(2 * b.size, np.int8)
    out[0::2], out[1::2] = lo, hi
    return np.where(out >= 8, out - 16, out).astype(np.int8)


def test_pack_layout_matches_a_hand_example():
    assert list(pack4(np.array([1, -1, -8, 7]))) == [0xF1, 0x78]
    assert list(unpack4(np.array([0xF1, 0x78], np.uint8))) == [1, -1, -8, 7]


def test_int4_tensor_sizing_access_views_and_datacopy(dev):
    rng = rng_for("int4-access")
    x = rng.integers(-8, 8, 256)
    k = int(rng.integers(0, 64))
    po, pi = dev.put(np.zeros(128, np.uint8)), dev.put(np.zeros(16, np.int32))
    dev.ok(dev.launch("int4_access", 1, dev.put(pack4(x)), po, pi, k))
    info = dev.get(pi, np.zeros(16, np.int32))[:10]
    # GetSize 256, GetLength 128 B, as int8 128 elements, q[64] 192 left, Get<int4b_t>(100) 100,
    # 16 halves (32 B) seen as int4b_t: 64 elements.
    assert list(info) == [256, 128, 128, 192, x[k], x[64 + k], x[k], x[128 + k], 100, 64]
    q = x.copy()
    q[0::2] = -q[0::2]
    q = np.where(q == 8, -8, q)  # -(-8) wraps to -8 in 4 bits
    q[3::8] = 7
    want = np.zeros(256, np.int64)
    want[64:192] = q[128:256]
    want[1], want[254] = -8, 5
    np.testing.assert_array_equal(unpack4(dev.get(po, np.zeros(128, np.uint8))), want)


def round_half(x: np.ndarray, mode: int) -> np.ndarray:
    v = x.astype(np.float64)
    return {
        NONE: np.rint,
        RINT: np.rint,
        FLOOR: np.floor,
        CEIL: np.ceil,
        TRUNC: np.trunc,
        ROUND: lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5),
    }[mode](v)


def int4_of_half(x: np.ndarray, mode: int) -> np.ndarray:
    return np.clip(round_half(x, mode), -8, 7).astype(np.int64)  # saturating, as CANN documents


def cast_params(mode, form, lo, hi, repeat, ns, nd, db=1, sb=1, dr=8, sr=8):
    return np.array([mode, form, lo, hi, repeat, ns, nd, db, sb, dr, sr], np.uint64)


def random_halves(rng, n):
    v = rng.uniform(-10, 10, n)
    v[: n // 4] = np.round(v[: n // 4] * 2) / 2  # exact .5 ties
    return v.astype(F16)


@pytest.mark.parametrize(
    "mode", [NONE, RINT, FLOOR, CEIL, ROUND, TRUNC], ids=["none", "rint", "floor", "ceil", "round", "trunc"]
)
def test_cast_half_to_int4_every_round_mode(dev, mode):
    rng = rng_for("f16-i4", mode)
    n = 512
    x = random_halves(rng, n)
    pz = dev.put(np.zeros(n // 2, np.uint8))
    dev.ok(dev.launch("cast_f16_i4", 1, dev.put(x), pz, dev.put(cast_params(mode, 0, 0, 0, 0, n, n))))
    got = unpack4(dev.get(pz, np.zeros(n // 2, np.uint8)))
    want = int4_of_half(x, mode)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"mode {mode}: x={x[bad[:4]]} got {got[bad[:4]]} want {want[bad[:4]]}"


def test_cast_int4_to_half_is_exact(dev):
    rng = rng_for("i4-f16")
    n = 1024
    x = rng.integers(-8, 8, n)
    pz = dev.put(np.zeros(n, F16))
    dev.ok(dev.launch("cast_i4_f16", 1, dev.put(pack4(x)), pz, dev.put(cast_params(NONE, 0, 0, 0, 0, n, n))))
    np.testing.assert_array_equal(dev.get(pz, np.zeros(n, F16)), x.astype(F16))


def l0_offset(elems_per_block, r, lane, blk, rep):
    return r * rep * elems_per_block + (lane // elems_per_block) * blk * elems_per_block + lane % elems_per_block


@pytest.mark.parametrize("form", [1, 2], ids=["contmask", "bitmask"])
def test_cast_half_to_int4_level0(dev, form):
    # 128 half lanes a repeat; the int4 side packs 64 lanes in a 32-byte block, so dstRepStride
    # 2 keeps repeats contiguous (CANN's example: {1, 1, 2, 8}).
    rng = rng_for("f16-i4-l0", form)
    repeat, sb, db = int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(1, 3))
    sr, dr = 8 * sb + int(rng.integers(0, 3)), 2 * db + int(rng.integers(0, 3))
    if form == 1:
        lo, hi = 2 * int(rng.integers(1, 65)), 0
        active = list(range(lo))
    else:
        pairs = [int(v) for v in rng.integers(0, 2, 64)]
        pairs[0] = 1
        bits = [b for p in pairs for b in (p, p)]
        lo = sum(b << i for i, b in enumerate(bits[:64]))
        hi = sum(b << i for i, b in enumerate(bits[64:]))
        active = [i for i, b in enumerate(bits) if b]
    ns = -(-(l0_offset(16, repeat, 0, sb, sr) + 128 * sb) // 128) * 128
    nd = -(-(l0_offset(64, repeat, 0, db, dr) + 128 * db) // 128) * 128
    x = random_halves(rng, ns)
    z0 = rng.integers(-8, 8, nd)
    pz = dev.put(pack4(z0))
    dev.ok(
        dev.launch(
            "cast_f16_i4", 1, dev.put(x), pz, dev.put(cast_params(FLOOR, form, lo, hi, repeat, ns, nd, db, sb, dr, sr))
        )
    )
    want = z0.copy()
    for r in range(repeat):
        si = [l0_offset(16, r, lane, sb, sr) for lane in active]
        di = [l0_offset(64, r, lane, db, dr) for lane in active]
        want[di] = int4_of_half(x[si], FLOOR)
    np.testing.assert_array_equal(
        unpack4(dev.get(pz, np.zeros(nd // 2, np.uint8))),
        want,
        f"mask=({lo:#x},{hi:#x}) repeat={repeat} strides={db},{sb},{dr},{sr}",
    )


# ---------------------------------------------------------------- SetPadValue / DataCopyPad


@pytest.mark.parametrize("how", [0, 1, 2, 3], ids=["isPad", "SetPadValue", "dummy", "register-kept"])
def test_datacopypad_pad_value(dev, how):
    rng = rng_for("pad", how)
    rows, cols = int(rng.integers(1, 9)), int(rng.integers(1, 13))
    left = int(rng.integers(0, 3)) if how != 2 else 0
    right = int(rng.integers(0, min(9, 16 - cols - left))) if how != 2 else 0  # padding is at most 32 B
    v = F32(rng.uniform(-100, 100))
    x = rng.uniform(-9, 9, 16 * 64).astype(F32)
    out0 = np.full(16 * 64, -1, F32)
    po = dev.put(out0)
    dev.ok(
        dev.launch(
            "pad_value_f32", 1, dev.put(x), po, how, rows, cols, left, right, int(np.array(v, F32).view(np.uint32))
        )
    )
    width = -(-(left + cols + right) // 8) * 8  # a UB row: left pad, data, right pad, rounded up to 32 B
    got = dev.get(po, out0)[: rows * width].reshape(rows, width)
    src = x[: rows * cols].reshape(rows, cols)
    for r in range(rows):
        pad = src[r, 0] if how == 2 else v
        want = np.full(width, pad, F32)  # every element that is not data is padding
        want[left : left + cols] = src[r]
        np.testing.assert_array_equal(got[r], want, f"row {r}: rows={rows} cols={cols} left={left} right={right}")


# ---------------------------------------------------------------- MrgSort repeatTimes > 1


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_mrgsort_repeats_merge_each_group_of_four(dev, dt):
    rng = rng_for("mrgsort-rep", dt.__name__)
    length, repeat = int(rng.integers(1, 17)) * 2, int(rng.integers(2, 6))
    nlists = 4 * repeat
    scores = np.sort(rng.integers(-20, 20, (nlists, length)), axis=1)[:, ::-1].astype(dt)  # ties across lists
    index = (np.arange(nlists * length, dtype=np.uint32) + 1000).reshape(nlists, length)
    pairs = np.zeros((nlists, length, 8), np.uint8)
    pairs[:, :, : np.dtype(dt).itemsize] = scores[..., None].view(np.uint8)
    pairs[:, :, 4:] = index[..., None].view(np.uint8)
    out0 = np.full(pairs.size, 0xAB, np.uint8)
    po, pc = dev.put(out0), dev.put(np.zeros(4, np.uint32))
    dev.ok(
        dev.launch(f"mrgsort_repeat_{'f32' if dt == F32 else 'f16'}", 1, dev.put(pairs.ravel()), po, pc, length, repeat)
    )
    got = dev.get(po, out0).reshape(repeat, 4 * length, 8)
    for r in range(repeat):
        group = pairs[4 * r : 4 * r + 4].reshape(4 * length, 8)
        key = scores[4 * r : 4 * r + 4].ravel().astype(np.float64)
        order = np.argsort(-key, kind="stable")  # equal scores: the lower list first
        np.testing.assert_array_equal(got[r], group[order], f"repeat {r}")
    assert list(dev.get(pc, np.zeros(4, np.uint32))) == [length] * 4


# ---------------------------------------------------------------- DEQSCALE: Cast int32->half, AddDeqRelu


def deq(x: np.ndarray, scale: np.float16) -> np.ndarray:
    """float(x) * float(scale), rounded once to half (the twin's documented choice)."""
    with np.errstate(over="ignore"):
        return (x.astype(F32) * F32(scale)).astype(F16)


@pytest.mark.parametrize("lanes", [0, 24, 64], ids=["count", "mask24", "mask64"])
def test_deq_scale_cast_and_add_deq_relu(dev, lanes):
    rng = rng_for("deq", lanes)
    a = rng.integers(-(1 << 20), 1 << 20, 256).astype(np.int32)
    b = rng.integers(-(1 << 20), 1 << 20, 256).astype(np.int32)
    a[:4] = [2**31 - 1, -(2**31), 1 << 24 | 1, 0]  # float rounding of large ints, a wrapping sum
    b[:4] = [1, -1, 0, 0]
    scale = F16(rng.uniform(-0.01, 0.01))
    d0 = rng.uniform(-5, 5, 256).astype(F16)
    pc, pd = dev.put(np.zeros(256, F16)), dev.put(d0)
    dev.ok(dev.launch("deq_f16", 1, dev.put(a), dev.put(b), pc, pd, int(scale.view(np.uint16)), lanes))
    np.testing.assert_array_equal(dev.get(pc, d0), deq(a, scale), "Cast int32_t->half")
    with np.errstate(over="ignore"):
        total = (a.astype(np.int64) + b).astype(np.uint32).view(np.int32)  # the int32 sum wraps
    h = deq(total, scale)
    relu = np.where(h > 0, h, F16(0)).astype(F16)
    want = relu if lanes == 0 else d0.copy()
    if lanes:
        for r in range(4):
            want[r * 64 : r * 64 + lanes] = relu[r * 64 : r * 64 + lanes]
    np.testing.assert_array_equal(dev.get(pd, d0), want, "AddDeqRelu")


# ---------------------------------------------------------------- SetFlag / WaitFlag


def test_paired_events_run_a_hand_synchronised_pipeline(dev):
    x = rng_for("events").uniform(-50, 50, 512).astype(F32)
    po = dev.put(np.zeros(512, F32))
    dev.ok(dev.launch("event_pipeline", 3, dev.put(x), po))
    np.testing.assert_array_equal(dev.get(po, x), x * F32(2) + F32(1))


def test_tpipe_event_ids_lowest_free_per_hard_event(dev):
    po = dev.put(np.full(8, -1, np.int32))
    dev.ok(dev.launch("event_ids", 2, po))
    # Alloc 0, 1, 2; Fetch names 3 without taking it; id 1 released and taken again; another
    # HardEvent has its own ids; Reset frees them all.
    assert list(dev.get(po, np.zeros(8, np.int32))[:7]) == [0, 1, 2, 3, 1, 0, 0]


BREADTH_TRAPS = {  # which -> the message (the kernel also names the block)
    0: "LocalTensor<int4b_t>::operator[]: offset 3 is odd",
    1: "GlobalTensor<int4b_t>::operator[]: offset 5 is odd",
    2: "Cast: count 63 is odd; with an int4b_t operand it must be even",
    3: "Cast: mask 63 is odd; with an int4b_t operand it must be even",
    4: "Cast: mask[0] = 0x5 selects one lane of a pair",
    5: "Cast: RoundMode CAST_RINT is not supported for int4b_t->half",
    6: "DataCopy(GM->UB): count 32 int4b_t elements = 16 B is not a whole number of 32-byte blocks",
    7: "MrgSort: repeatTimes 2 needs four equal elementLengths, got 4/4/4/2",
    8: "MrgSort: repeatTimes 2 needs the lists back to back, but src3 does not start where src2 ends",
    9: "MrgSort: repeatTimes 2 needs validBit 0xf (four lists), got 0x7",
    10: "MrgSort: repeatTimes 2 needs ifExhaustedSuspension false",
    11: "MrgSort: elementLengths[0] = 4096 exceeds 4095",
    12: "MrgSort: repeatTimes 0 is outside [1, 255]",
    13: "WaitFlag<HardEvent::V_MTE3>: event 2 (pipe V -> MTE3) was never set by a SetFlag: the NPU would wait "
    "here forever",
    14: "SetFlag<HardEvent::MTE2_V>: event 1 (pipe MTE2 -> V) is already set and not yet waited for",
    15: "kernel end: event 5 (pipe MTE2 -> V, HardEvent::MTE2_V) was set by SetFlag and never waited for",
    16: "SetFlag<HardEvent::V_S>: eventID 8 is outside [0, 7]",
    17: "wait_flag: event 4 (pipe MTE2 -> V) was never set by a SetFlag",
    18: "WaitFlag<HardEvent::V_MTE3>: event 1 (pipe V -> MTE3) was never set",
    19: "Cast(int32_t->half): the DEQSCALE register is unset: call SetDeqScale(half scale) first",
    20: "AddDeqRelu: the DEQSCALE register is unset",
    21: "TPipe::AllocEventID<HardEvent::MTE3_V>: all 8 event ids are allocated (ReleaseEventID missing?)",
    22: "TPipe::FetchEventID<HardEvent::V_V>: all 8 event ids are allocated",
    23: "TPipe::ReleaseEventID<HardEvent::V_S>: id 8 is outside [0, 7]",
}


@pytest.mark.parametrize("which,message", sorted(BREADTH_TRAPS.items()))
def test_misuse_traps_name_the_api_and_argument(dev, which, message):
    px = dev.put(np.zeros(256, np.uint8))
    msg = dev.expect_trap("breadth_traps", 2, (px, which), message, ok_args=(px, 99))
    assert "block" in msg, msg  # the runtime names the kernel and block
