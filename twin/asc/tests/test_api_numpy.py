"""Level-0, reduce and compare/select APIs of the Ascend C twin against numpy.

The kernels (programs/api_*.asc) are built by bisheng (the ascendc_kernel rule) and run
through libascendcl (ctypes: aclrtBinaryLoadFromData, aclrtLaunchKernel), as a CANN user runs
them. Inputs are random (the seed is printed; ASC_TWIN_SEED=<n> repeats a run). The numpy
references model the NPU's documented semantics: mask lanes, repeats and 32-byte strides,
the binary-tree summation order, LSB-first compare bits. Results are compared bit-for-bit
except the transcendental ops (Exp, Ln, Rsqrt: ULP bound).

Env: ASCENDCL_LIB, API_LEVEL0, API_REDUCE, API_CMPSEL, API_TRAPS, API_CAST, API_MISC, API_SAMPLES (device binaries).
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_testlib import ACL_ERROR_RT_AICORE_EXCEPTION, F16, F32, I16, device_fixtures, rng_for  # noqa: E402

dev, free_buffers = device_fixtures(
    lambda: {
        "API_LEVEL0": ["level0_f32", "level0_f16", "level0_i16"],
        "API_REDUCE": ["reduce_f32", "reduce_f16"],
        "API_CMPSEL": ["cmpsel_f32", "cmpsel_f16"],
        "API_TRAPS": ["api_traps"],
        "API_CAST": [f"cast_{p}" for p in CASTS],
        "API_MISC": [
            "misc_f32",
            "relu_cast",
            "sort_f32",
            "mrgsort_f32",
            "determine_order",
            "reduce_by_type",
            "group_barrier_probe",
            "slice_copy",
            "list_sum",
        ],
        "API_SAMPLES": ["softmax_rows", "where_greater", "leaky_relu_cast"],
    }
)


# ---------------------------------------------------------------- the NPU's lane model


def lanes_of(dt) -> int:
    return 256 // np.dtype(dt).itemsize


def offset(dt, r: int, lane: int, blk: int, rep: int) -> int:
    be = 32 // np.dtype(dt).itemsize
    return r * rep * be + (lane // be) * blk * be + lane % be


def plan(dt, mode: int, lo: int, hi: int, repeat: int):
    """[(repeat, [active lanes])] for a mask mode (0 continuous lo, 1 bits, 2 Counter count lo, 3 register)."""
    n = lanes_of(dt)
    if mode == 2:
        reps = (lo + n - 1) // n
        return [(r, [lane for lane in range(n) if r * n + lane < lo]) for r in range(reps)]
    if mode == 0:
        active = list(range(lo))
    else:
        active = [lane for lane in range(n) if ((lo >> lane) & 1 if lane < 64 else (hi >> (lane - 64)) & 1)]
    return [(r, active) for r in range(repeat)]


def random_mask(rng, dt, mode):
    n = lanes_of(dt)
    if mode == 0:
        return int(rng.integers(1, n + 1)), 0
    if mode == 2:
        return int(rng.integers(1, n * 6)), 0
    lo = int(rng.integers(1, 1 << 63)) | int(rng.integers(0, 2)) << 63
    hi = int(rng.integers(0, 1 << 63)) if n > 64 else 0
    return lo, hi


def ftz(x: np.ndarray) -> np.ndarray:
    tiny = np.finfo(x.dtype).tiny
    return np.where(np.abs(x) < tiny, np.copysign(np.zeros_like(x), x), x).astype(x.dtype)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    it = np.int16 if a.dtype == F16 else np.int32
    ai, bi = a.view(it).astype(np.int64), b.view(it).astype(np.int64)
    mn = np.iinfo(it).min
    ai = np.where(ai < 0, mn - ai, ai)
    bi = np.where(bi < 0, mn - bi, bi)
    return np.abs(ai - bi)


# ---------------------------------------------------------------- level-0 element-wise ops

OPS = [
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Max",
    "Min",
    "AddRelu",
    "SubRelu",
    "FusedMulAdd",
    "MulAddDst",
    "Exp",
    "Ln",
    "Abs",
    "Relu",
    "Sqrt",
    "Rsqrt",
    "Reciprocal",
    "Adds",
    "Muls",
    "Maxs",
    "Mins",
    "LeakyRelu",
    "Duplicate",
    "And",
    "Or",
    "Not",
    "ShiftLeft",
    "ShiftRight",
]
BINARY = {"Add", "Sub", "Mul", "Div", "Max", "Min", "AddRelu", "SubRelu", "FusedMulAdd", "MulAddDst", "And", "Or"}
ULP_OPS = {"Exp": 1, "Ln": 1, "Rsqrt": 1}


def lane_ref(op: str, dt, x, y, z, s):
    """The op on lane values (numpy arrays of dt), computed as the twin documents."""
    if dt == I16:
        f = {
            "Add": lambda: (x.astype(np.int32) + y).astype(I16),
            "Max": lambda: np.maximum(x, y),
            "And": lambda: x & y,
            "Or": lambda: x | y,
            "Not": lambda: ~x,
            "Adds": lambda: (x.astype(np.int32) + s).astype(I16),
            "ShiftLeft": lambda: (x.astype(np.int32) << s).astype(I16),
            "ShiftRight": lambda: x >> s,
            "Duplicate": lambda: np.full_like(x, s),
        }
        return f[op]()
    w = x.astype(F32), y.astype(F32), z.astype(F32)
    xf, yf, zf = w
    sf = F32(dt(s))
    with np.errstate(all="ignore"):
        r = {
            "Add": lambda: xf + yf,
            "Sub": lambda: xf - yf,
            "Mul": lambda: xf * yf,
            "Div": lambda: xf / yf,
            "Max": lambda: np.maximum(xf, yf),
            "Min": lambda: np.minimum(xf, yf),
            "AddRelu": lambda: np.maximum(xf + yf, 0),
            "SubRelu": lambda: np.maximum(xf - yf, 0),
            "FusedMulAdd": lambda: xf * zf + yf,
            "MulAddDst": lambda: xf * yf + zf,
            "Abs": lambda: np.abs(xf),
            "Relu": lambda: np.maximum(xf, 0),
            "Adds": lambda: xf + sf,
            "Muls": lambda: xf * sf,
            "Maxs": lambda: np.maximum(xf, sf),
            "Mins": lambda: np.minimum(xf, sf),
            "LeakyRelu": lambda: np.where(xf >= 0, xf, xf * sf),
            "Duplicate": lambda: np.full_like(xf, sf),
        }.get(op)
        if r is not None:
            return r().astype(dt)
        # math ops: subnormal inputs and results flushed, computed in float64, rounded to dt
        xd = ftz(x).astype(np.float64)
        m = {
            "Exp": np.exp,
            "Ln": np.log,
            "Sqrt": np.sqrt,
            "Rsqrt": lambda v: 1 / np.sqrt(v),
            "Reciprocal": lambda v: 1 / v,
        }[op](xd)
        return ftz(m.astype(dt))


def level0_case(rng, dt, op, mode):
    be = 32 // np.dtype(dt).itemsize
    repeat = int(rng.integers(1, 6))
    lo, hi = random_mask(rng, dt, mode)
    blk = [int(rng.integers(1, 3)) for _ in range(3)]
    rep = [int(rng.integers(0, 17)) for _ in range(3)]
    if op in ("FusedMulAdd", "MulAddDst"):
        blk[0], rep[0] = 1, 8  # dst is read: keep its repeats apart
    pl = plan(dt, mode, lo, hi, repeat)
    eff = [lanes_of(dt) // be * blk[k] if mode == 2 else rep[k] for k in range(3)]  # Counter: no repeat stride
    reach = max(offset(dt, r, max(a), blk[k], eff[k]) for r, a in pl if a for k in range(3)) + 1
    n = max(be * 8, -(-reach // (be * 8)) * be * 8)
    return repeat, lo, hi, blk, rep, pl, n


def random_input(rng, dt, op, n):
    if dt == I16:
        return rng.integers(-30000, 30000, n).astype(I16)
    if op in ("Ln", "Sqrt", "Rsqrt"):
        v = np.exp(rng.uniform(-8, 8, n))
    elif op == "Exp":
        v = rng.uniform(-10, 10, n)
    else:
        v = rng.uniform(-100, 100, n)
        v[rng.random(n) < 0.05] = 0
    return v.astype(dt)


@pytest.mark.parametrize("dt", [F32, F16, I16], ids=["f32", "f16", "i16"])
@pytest.mark.parametrize("mode", [0, 1, 2, 3], ids=["contmask", "bitmask", "counter", "register"])
def test_level0_elementwise(dev, dt, mode):
    kernel = {F32: "level0_f32", F16: "level0_f16", I16: "level0_i16"}[dt]
    ops = (
        ["Add", "Max", "And", "Or", "Not", "Adds", "ShiftLeft", "ShiftRight", "Duplicate"]
        if dt == I16
        else [o for o in OPS if o not in ("And", "Or", "Not", "ShiftLeft", "ShiftRight")]
    )
    for op in ops:
        rng = rng_for("level0", dt.__name__, mode, op)
        repeat, lo, hi, blk, rep, pl, n = level0_case(rng, dt, op, mode)
        blocks = int(rng.integers(1, 4))
        x = random_input(rng, dt, op, n * blocks)
        y = random_input(rng, dt, op, n * blocks)
        if op == "Div":
            y[y == 0] = dt(1)
        z = random_input(rng, dt, "Add", n * blocks)
        s = int(rng.integers(0, 15)) if dt == I16 else float(rng.uniform(-4, 4))
        sbits = (s & 0xFFFFFFFF) if dt == I16 else int(np.array(s, F32).view(np.uint32))
        params = np.array(
            [OPS.index(op), mode, lo, hi, repeat, blk[0], blk[1], blk[2], rep[0], rep[1], rep[2], sbits, n],
            dtype=np.uint64,
        )
        px, py, pz, pp = dev.put(x), dev.put(y), dev.put(z), dev.put(params)
        dev.ok(dev.launch(kernel, blocks, px, py, pz, pp))
        got = dev.get(pz, z)
        want = z.copy()
        # Counter mode: the elements run on block after block (the repeat stride is unused).
        eff_rep = [lanes_of(dt) // (32 // np.dtype(dt).itemsize) * blk[k] if mode == 2 else rep[k] for k in range(3)]
        for b in range(blocks):
            xb, yb, wb = x[b * n : (b + 1) * n], y[b * n : (b + 1) * n], want[b * n : (b + 1) * n]
            for r, act in pl:
                if not act:
                    continue
                idx = [np.array([offset(dt, r, lane, blk[k], eff_rep[k]) for lane in act]) for k in range(3)]
                wb[idx[0]] = lane_ref(op, dt, xb[idx[1]], yb[idx[2]], wb[idx[0]], s)
        what = f"{op} {np.dtype(dt).name} mode={mode} mask=({lo:#x},{hi:#x}) repeat={repeat} blk={blk} rep={rep}"
        if op in ULP_OPS and dt != I16:
            bad = ulps(got, want) > ULP_OPS[op]
            assert not bad.any(), f"{what}: {got[bad][:4]} vs {want[bad][:4]}"
        else:
            eq = (got.view(np.uint8) == want.view(np.uint8)).reshape(len(got), -1).all(axis=1)
            if dt != I16:
                eq |= np.isnan(got) & np.isnan(want)
            assert eq.all(), f"{what}: first difference at {np.argmin(eq)}: {got[~eq][:4]} vs {want[~eq][:4]}"


# ---------------------------------------------------------------- reductions

RED_OPS = [
    "WholeSum",
    "WholeMax",
    "WholeMin",
    "RepeatSum",
    "BlockSum",
    "BlockMax",
    "BlockMin",
    "PairSum",
    "ReduceSumCount",
    "ReduceMaxCount",
    "ReduceMinCount",
    "ReduceSumL0",
    "ReduceMaxL0",
    "ReduceMinL0",
]


def add_sat(dt, a, b):
    """One rounded vector addition (half saturates a finite overflow at 65504)."""
    with np.errstate(over="ignore"):
        r = (a.astype(F32) + b.astype(F32)).astype(dt)
    if dt == F16:
        over = np.isinf(r) & np.isfinite(a) & np.isfinite(b)
        r = np.where(over, np.copysign(F16(65504), r), r).astype(F16)
    return r


def tree(dt, v: np.ndarray) -> np.ndarray:
    """Adjacent-pair binary tree over the last axis (a power of two)."""
    while v.shape[-1] > 1:
        v = add_sat(dt, v[..., 0::2], v[..., 1::2])
    return v[..., 0]


def index_bits(dt, i) -> np.ndarray:
    return np.array(i, dtype=np.uint16 if dt == F16 else np.uint32).view(dt)


def lanes_matrix(dt, x, pl, blk, rep):
    """(repeats, lanes) values with inactive lanes 0, and the active mask."""
    n = lanes_of(dt)
    vals = np.zeros((len(pl), n), dt)
    act = np.zeros((len(pl), n), bool)
    for r, a in pl:
        for lane in a:
            vals[r, lane] = x[offset(dt, r, lane, blk, rep)]
            act[r, lane] = True
    return vals, act


def extreme(dt, vals, act, is_max):
    v = np.where(act, vals, -np.inf if is_max else np.inf).astype(np.float64)
    i = np.argmax(v, axis=-1) if is_max else np.argmin(v, axis=-1)  # first among equals
    return np.take_along_axis(vals, i[..., None], -1)[..., 0], i


def reduce_ref(dt, op, x, z, pl, prm):
    lanes = lanes_of(dt)
    dst_rep, blk, rep, order, cal_index, count = prm
    out = z.copy()
    spr = {}
    if op.endswith("Count"):
        pl = [(r, [lane for lane in range(lanes) if r * lanes + lane < count]) for r in range(-(-count // lanes))]
        blk, rep = 1, 8
    vals, act = lanes_matrix(dt, x, pl, blk, rep)
    if op in ("WholeSum", "RepeatSum"):
        sums = tree(dt, vals)
        out[np.arange(len(pl)) * dst_rep] = sums
        spr["acc"] = sums[-1]
    elif op in ("WholeMax", "WholeMin"):
        v, i = extreme(dt, vals, act, op == "WholeMax")
        unit = 2 if order in (0, 1) else 1
        base = np.arange(len(pl)) * dst_rep * unit
        if order == 0:
            out[base], out[base + 1] = v, index_bits(dt, i)
        elif order == 1:
            out[base], out[base + 1] = index_bits(dt, i), v
        elif order == 2:
            out[base] = v
        else:
            out[base] = index_bits(dt, i)
        spr["value"], spr["index"] = v[-1], i[-1]
    elif op.startswith("Block") or op == "PairSum":
        g = 2 if op == "PairSum" else 32 // np.dtype(dt).itemsize
        outs = lanes // g
        gv, ga = vals.reshape(len(pl), outs, g), act.reshape(len(pl), outs, g)
        if op in ("BlockSum", "PairSum"):
            res = tree(dt, gv)
        else:
            res, _ = extreme(dt, gv, ga, op == "BlockMax")
            res = np.where(ga.any(-1), res, dt(0))
        for r in range(len(pl)):
            out[r * dst_rep * outs : r * dst_rep * outs + outs] = res[r]
    else:
        if "Sum" in op:
            rs = tree(dt, vals)
            if op.endswith("Count"):
                acc = rs[0]
                for v in rs[1:]:
                    acc = add_sat(dt, np.array(acc), np.array(v))[()]
            else:
                while len(rs) > 1:
                    pad = np.zeros(-(-len(rs) // lanes) * lanes, dt)
                    pad[: len(rs)] = rs
                    rs = tree(dt, pad.reshape(-1, lanes))
                acc = rs[0]
            out[0] = acc
            spr["acc"] = acc
        else:
            v, i = extreme(dt, vals, act, "Max" in op)
            vv = np.where(act.any(-1), v, np.nan)
            r = int(np.nanargmax(vv.astype(np.float64)) if "Max" in op else np.nanargmin(vv.astype(np.float64)))
            out[0] = v[r]
            if cal_index:
                out[1] = index_bits(dt, r * lanes + i[r])
            spr["value"], spr["index"] = v[r], r * lanes + i[r]
    return out, spr


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("op", RED_OPS)
def test_reduce(dev, dt, op):
    lanes = lanes_of(dt)
    be = 32 // np.dtype(dt).itemsize
    for trial in range(4):
        rng = rng_for("reduce", np.dtype(dt).name, op, trial)
        mode = int(rng.integers(0, 3)) if op.startswith(("Whole", "Block", "Pair")) else int(rng.integers(0, 2))
        if op == "RepeatSum":
            mode = 0
        repeat = int(rng.integers(1, 9))
        lo, hi = random_mask(rng, dt, mode)
        if op.endswith("Count"):
            mode, lo, hi = 0, lanes, 0
        blk = 1 if op.startswith("Reduce") else int(rng.integers(1, 3))
        rep = int(rng.integers(blk * 8, 17)) if trial % 2 else 8
        dst_rep = int(rng.integers(1, 4))
        order = int(rng.integers(0, 4))
        cal_index = int(rng.integers(0, 2))
        count = int(rng.integers(1, lanes * 9))
        pl = plan(dt, mode, lo, hi, repeat)
        reach = max(offset(dt, r, max(a), blk, rep) for r, a in pl if a) + 1
        if op.endswith("Count"):
            reach = count
        n = -(-max(reach, 1) // (be * 8)) * be * 8
        m = 8192 // np.dtype(dt).itemsize
        x = rng.uniform(-100, 100, n).astype(dt)
        if trial == 3 and dt == F16 and "Sum" in op:
            x = rng.uniform(30000, 60000, n).astype(dt)  # half saturation at 65504
        if "Max" in op or "Min" in op:
            x[rng.integers(0, n, 4)] = x[0]  # ties: the lowest index wins
        z = rng.uniform(-1, 1, m).astype(dt)
        params = np.array(
            [RED_OPS.index(op), mode, lo, hi, repeat, dst_rep, blk, rep, order, cal_index, count, n, m], dtype=np.uint64
        )
        spr = np.zeros(3, np.uint64)
        px, pz, ps, pp = dev.put(x), dev.put(z), dev.put(spr), dev.put(params)
        dev.ok(dev.launch("reduce_f32" if dt == F32 else "reduce_f16", 1, px, pz, ps, pp))
        got, got_spr = dev.get(pz, z), dev.get(ps, spr)
        want, want_spr = reduce_ref(dt, op, x, z, pl, (dst_rep, blk, rep, order, cal_index, count))
        what = (
            f"{op} {np.dtype(dt).name} mode={mode} mask=({lo:#x},{hi:#x}) repeat={repeat} blk={blk} rep={rep} "
            f"dstRep={dst_rep} order={order} calIndex={cal_index} count={count}"
        )
        diff = got.view(np.uint8).reshape(m, -1) != want.view(np.uint8).reshape(m, -1)
        bad = np.flatnonzero(diff.any(axis=1))
        assert bad.size == 0, f"{what}: differs at {bad[:6]}: got {got[bad[:6]]} want {want[bad[:6]]}"
        ib = np.uint16 if dt == F16 else np.uint32
        if "acc" in want_spr:
            assert int(got_spr[2]) == int(np.array(want_spr["acc"], dt).view(ib)), what
        if "value" in want_spr:
            assert int(got_spr[0]) == int(np.array(want_spr["value"], dt).view(ib)), what
            assert int(got_spr[1]) == int(want_spr["index"]), what


# ---------------------------------------------------------------- compare and select

CS_OPS = [
    "Compare",
    "CompareL0",
    "CompareSpr",
    "Compares",
    "ComparesL0",
    "SelectTT",
    "SelectTS",
    "SelectSpr",
    "GatherMask",
    "SelectL0",
    "SelectSprStale",
    "SelectL0Scalar",
    "ComparesFlex",
]
CMP = [np.less, np.greater, np.equal, np.less_equal, np.greater_equal, np.not_equal]


def cmpsel_params(
    op,
    mode=0,
    lo=0,
    hi=0,
    repeat=1,
    cmp=0,
    sel=0,
    sbits=0,
    count=0,
    n=0,
    nb=0,
    pattern=0,
    reduce_mode=0,
    gm_mask=0,
    blk=1,
    rep=8,
    prep=0,
):
    return np.array(
        [
            CS_OPS.index(op),
            mode,
            lo,
            hi,
            repeat,
            cmp,
            sel,
            sbits,
            count,
            n,
            nb,
            pattern,
            reduce_mode,
            gm_mask,
            blk,
            rep,
            prep,
        ],
        dtype=np.uint64,
    )


def run_cmpsel(dev, dt, x, y, m, params):
    zt = np.zeros_like(x)
    zb = np.full(len(m), 0xA5, np.uint8)
    cnt = np.zeros(1, np.uint64)
    p = [dev.put(a) for a in (x, y, m, zt, zb, cnt, params)]
    dev.ok(dev.launch("cmpsel_f32" if dt == F32 else "cmpsel_f16", 1, *p))
    return dev.get(p[3], zt), dev.get(p[4], zb), int(dev.get(p[5], cnt)[0])


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_compare_all_modes(dev, dt):
    lanes = lanes_of(dt)
    for cmp in range(6):
        rng = rng_for("compare", np.dtype(dt).name, cmp)
        n = lanes * int(rng.integers(1, 5))
        x = rng.integers(-4, 4, n).astype(dt)  # many ties, so EQ/LE/GE matter
        y = rng.integers(-4, 4, n).astype(dt)
        nb = max(32, -(-n // 8 // 32) * 32)
        s = float(rng.integers(-3, 3))
        sbits = int(np.array(s, F32).view(np.uint32))
        _, zb, _ = run_cmpsel(
            dev, dt, x, y, np.zeros(nb, np.uint8), cmpsel_params("Compare", cmp=cmp, count=n, n=n, nb=nb)
        )
        np.testing.assert_array_equal(zb[: n // 8], np.packbits(CMP[cmp](x, y), bitorder="little"), f"Compare {cmp}")
        _, zb, _ = run_cmpsel(
            dev, dt, x, y, np.zeros(nb, np.uint8), cmpsel_params("Compares", cmp=cmp, count=n, n=n, nb=nb, sbits=sbits)
        )
        np.testing.assert_array_equal(
            zb[: n // 8], np.packbits(CMP[cmp](x, dt(s)), bitorder="little"), f"Compares {cmp}"
        )
        for mode in (0, 1):
            lo, hi = random_mask(rng, dt, mode)
            repeat = n // lanes
            pl = plan(dt, mode, lo, hi, repeat)
            for op, rhs in (("CompareL0", y), ("ComparesL0", np.full(n, dt(s)))):
                _, zb, _ = run_cmpsel(
                    dev,
                    dt,
                    x,
                    y,
                    np.zeros(nb, np.uint8),
                    cmpsel_params(op, mode, lo, hi, repeat, cmp, count=n, n=n, nb=nb, sbits=sbits),
                )
                want = np.zeros(repeat * lanes, bool)
                for r, act in pl:
                    idx = np.array(act, int) + r * lanes
                    want[idx] = CMP[cmp](x[idx], rhs[idx])
                np.testing.assert_array_equal(
                    zb[: n // 8],
                    np.packbits(want, bitorder="little"),
                    f"{op} cmp={cmp} mode={mode} mask=({lo:#x},{hi:#x})",
                )
            _, zb, _ = run_cmpsel(
                dev, dt, x, y, np.zeros(nb, np.uint8), cmpsel_params("CompareSpr", mode, lo, hi, 1, cmp, n=n, nb=nb)
            )
            want = np.zeros(128, bool)
            act = np.array(pl[0][1], int)
            want[act] = CMP[cmp](x[act], y[act])
            np.testing.assert_array_equal(zb[:16], np.packbits(want, bitorder="little"), f"Compare->CMPMASK {cmp}")


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_select_all_modes(dev, dt):
    lanes = lanes_of(dt)
    rng = rng_for("select", np.dtype(dt).name)
    n = lanes * 3
    x = rng.uniform(-10, 10, n).astype(dt)
    y = rng.uniform(-10, 10, n).astype(dt)
    nb = 64
    m = rng.integers(0, 256, nb).astype(np.uint8)
    bits = np.unpackbits(m, bitorder="little").astype(bool)
    s = 2.5
    sbits = int(np.array(s, F32).view(np.uint32))
    zt, _, _ = run_cmpsel(dev, dt, x, y, m, cmpsel_params("SelectTT", sel=2, count=n, n=n, nb=nb))
    np.testing.assert_array_equal(zt, np.where(bits[:n], x, y), "Select VSEL_TENSOR_TENSOR_MODE")
    zt, _, _ = run_cmpsel(dev, dt, x, y, m, cmpsel_params("SelectTS", sel=1, count=n, n=n, nb=nb, sbits=sbits))
    np.testing.assert_array_equal(zt, np.where(bits[:n], x, dt(s)), "Select VSEL_TENSOR_SCALAR_MODE")
    zt, _, _ = run_cmpsel(dev, dt, x, y, m, cmpsel_params("SelectSpr", sel=0, count=n, n=n, nb=nb))
    spr_bits = bits[:128][np.arange(n) % lanes]
    np.testing.assert_array_equal(zt, np.where(spr_bits, x, y), "Select VSEL_CMPMASK_SPR")
    for sel in (0, 1, 2):
        for mode in (0, 1):
            lo, hi = random_mask(rng, dt, mode)
            zt, _, _ = run_cmpsel(dev, dt, x, y, m, cmpsel_params("SelectL0", mode, lo, hi, 3, sel=sel, n=n, nb=nb))
            want = np.zeros_like(x)
            for r, act in plan(dt, mode, lo, hi, 3):
                for lane in act:
                    i = r * lanes + lane
                    bit = bits[lane] if sel == 0 else bits[i]
                    want[i] = x[i] if bit else (y[0] if sel == 1 else y[i])
            np.testing.assert_array_equal(zt, want, f"Select level-0 selMode={sel} mode={mode} mask=({lo:#x},{hi:#x})")


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
@pytest.mark.parametrize("form", ["count", "level0"])
def test_select_mode0_reads_sel_mask_not_a_stale_cmpmask(dev, dt, form):
    """The user's case: Select(..., VSEL_CMPMASK_SPR, n) with CMPMASK holding other bits. CANN
    loads CMPMASK from selMask first, so the result follows selMask's first lanes bits in every
    repeat, and CMPMASK holds selMask's first 16 bytes afterwards; the twin used to read the stale
    register."""
    lanes = lanes_of(dt)
    rng = rng_for("select-stale", np.dtype(dt).name, form)
    n = lanes * 3
    x = rng.uniform(-10, 10, n).astype(dt)
    y = rng.uniform(-10, 10, n).astype(dt)  # its bytes are the stale CMPMASK
    m = rng.integers(0, 256, 64).astype(np.uint8)
    bits = np.unpackbits(m, bitorder="little").astype(bool)
    count = n if form == "count" else 0
    zt, zb, _ = run_cmpsel(
        dev, dt, x, y, m, cmpsel_params("SelectSprStale", lo=lanes, repeat=3, count=count, n=n, nb=64)
    )
    np.testing.assert_array_equal(zt, np.where(bits[np.arange(n) % lanes], x, y))
    np.testing.assert_array_equal(zb[:16], m[:16], "CMPMASK after Select mode 0")


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_select_level0_scalar_src1(dev, dt):
    lanes = lanes_of(dt)
    rng = rng_for("select-l0-scalar", np.dtype(dt).name)
    n = lanes * 3
    x = rng.uniform(-10, 10, n).astype(dt)
    m = rng.integers(0, 256, 64).astype(np.uint8)
    bits = np.unpackbits(m, bitorder="little").astype(bool)
    s = float(rng.uniform(-5, 5))
    sbits = int(np.array(s, F32).view(np.uint32))
    for mode in (0, 1):
        lo, hi = random_mask(rng, dt, mode)
        zt, _, _ = run_cmpsel(
            dev, dt, x, x, m, cmpsel_params("SelectL0Scalar", mode, lo, hi, 3, sbits=sbits, n=n, nb=64)
        )
        want = np.zeros_like(x)
        for r, act in plan(dt, mode, lo, hi, 3):
            for lane in act:
                i = r * lanes + lane
                want[i] = x[i] if bits[i] else dt(np.float32(s))
        np.testing.assert_array_equal(zt, want, f"Select level-0 scalar mode={mode} mask=({lo:#x},{hi:#x})")


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_compares_flexible_scalar_position(dev, dt):
    lanes = lanes_of(dt)
    for cmp in range(6):
        rng = rng_for("compares-flex", np.dtype(dt).name, cmp)
        n = lanes * 2
        x = rng.integers(-4, 4, n).astype(dt)
        y = rng.integers(-4, 4, n).astype(dt)
        s = float(rng.integers(-3, 3))
        sbits = int(np.array(s, F32).view(np.uint32))
        cases = {0: CMP[cmp](x, y[0]), 1: CMP[cmp](dt(s), x), 2: CMP[cmp](y[0], x)}
        for form, want in cases.items():
            _, zb, _ = run_cmpsel(
                dev,
                dt,
                x,
                y,
                np.zeros(32, np.uint8),
                cmpsel_params("ComparesFlex", cmp=cmp, count=n, n=n, nb=32, sbits=sbits, pattern=form),
            )
            np.testing.assert_array_equal(zb[: n // 8], np.packbits(want, bitorder="little"), f"cmp={cmp} form={form}")
        _, zb, _ = run_cmpsel(
            dev,
            dt,
            x,
            y,
            np.zeros(32, np.uint8),
            cmpsel_params("ComparesFlex", lo=lanes, repeat=2, cmp=cmp, n=n, nb=32, pattern=3),
        )
        np.testing.assert_array_equal(zb[: n // 8], np.packbits(CMP[cmp](x, y[0]), bitorder="little"), f"L0 cmp={cmp}")


BUILTIN = {
    1: lambda lane: lane % 2 == 0,
    2: lambda lane: lane % 2 == 1,
    3: lambda lane: lane % 4 == 0,
    4: lambda lane: lane % 4 == 1,
    5: lambda lane: lane % 4 == 2,
    6: lambda lane: lane % 4 == 3,
    7: lambda lane: lane >= 0,
}


@pytest.mark.parametrize("dt", [F32, F16], ids=["f32", "f16"])
def test_gather_mask(dev, dt):
    """Normal mode: repeatTimes repeats of all lanes. Counter mode (reduceMode) on A2/A3: each of
    the repeatTimes repeats takes `mask` elements (they may run past 256 bytes), its pattern from
    src1RepeatStride x r blocks on, read continuously."""
    lanes = lanes_of(dt)
    for pattern in range(8):
        for reduce_mode in (0, 1):
            rng = rng_for("gathermask", np.dtype(dt).name, pattern, reduce_mode)
            repeat = int(rng.integers(1, 4))
            blk = int(rng.integers(1, 3))
            rep = blk * 8 + int(rng.integers(0, 4))
            prep = int(rng.integers(0, 3))
            gm_mask = int(rng.integers(1, lanes * 2 + 1))
            per_repeat = gm_mask if reduce_mode else lanes
            reach = max(
                offset(dt, repeat - 1, per_repeat - 1, blk, rep) + 1, repeat * per_repeat
            )  # dst shares x's size
            n = -(-reach // lanes) * lanes
            x = rng.uniform(-10, 10, n).astype(dt)
            nb = -(-(((repeat - 1) * prep * 256 + per_repeat) // 8 + 1) // 32) * 32
            m = rng.integers(0, 256, nb).astype(np.uint8)
            bits = np.unpackbits(m, bitorder="little").astype(bool)
            zt, _, cnt = run_cmpsel(
                dev,
                dt,
                x,
                x,
                m,
                cmpsel_params(
                    "GatherMask",
                    repeat=repeat,
                    n=n,
                    nb=nb,
                    pattern=pattern,
                    reduce_mode=reduce_mode,
                    gm_mask=gm_mask,
                    blk=blk,
                    rep=rep,
                    prep=prep,
                ),
            )
            want = []
            for r in range(repeat):
                for k in range(per_repeat):
                    on = BUILTIN[pattern](k) if pattern else bits[r * prep * 256 + k]
                    if on:
                        want.append(x[offset(dt, r, k, blk, rep)])
            what = f"GatherMask pattern={pattern} reduceMode={reduce_mode} repeat={repeat} mask={gm_mask} prep={prep}"
            assert cnt == len(want), what
            np.testing.assert_array_equal(zt[:cnt], np.array(want, dt), what)


def test_copy_counter_mode_runs_on_across_repeats(dev):
    """The user's case (CANN's Copy sample, scenario 3): Counter mode, count 144 int32, block
    stride 8 picks the first 8 elements of each of 18 rows of 64; the repeat stride (8) is unused.
    The twin used to restart every 64 elements at repeat x repeat stride."""
    rng = rng_for("copy-counter")
    x = rng.uniform(-1000, 1000, 18 * 64).astype(F32)
    z = rng.uniform(-1000, 1000, 18 * 64).astype(F32)
    rc, got = run_misc(dev, 11, x, np.zeros(18 * 64, np.uint32), z, 18 * 64, a=144, b=1, c=8, d=8, e=8)
    dev.ok(rc)
    np.testing.assert_array_equal(got[:144], x.reshape(18, 64)[:, :8].ravel())
    np.testing.assert_array_equal(got[144:], z[144:])


def test_gather_mask_counter_mode_is_per_repeat(dev):
    """The user's case (CANN's Gather sample, scenario 2): mask = 70 with repeatTimes = 2,
    src0RepeatStride = 4 blocks, src1RepeatStride = 0 selects from 70 elements in each of the two
    repeats with the same pattern; the twin used to take 70 elements in all and ignore the repeat."""
    rng = rng_for("gathermask-user")
    x = rng.uniform(-1e4, 1e4, 256).astype(F32)
    m = np.full(32, 0, np.uint8)
    m[:32] = np.frombuffer(np.full(8, 0x7E7C00A5, np.uint32).tobytes(), np.uint8)
    bits = np.unpackbits(m, bitorder="little").astype(bool)
    zt, _, cnt = run_cmpsel(
        dev,
        F32,
        x,
        x,
        m,
        cmpsel_params("GatherMask", repeat=2, n=256, nb=32, reduce_mode=1, gm_mask=70, blk=1, rep=4, prep=0),
    )
    want = np.concatenate([x[0:70][bits[:70]], x[32:102][bits[:70]]])
    assert cnt == len(want)
    np.testing.assert_array_equal(zt[:cnt], want)


# ---------------------------------------------------------------- misuse traps

TRAPS = [
    (0, "Add: mask 65 is outside [1, 64] for a 32-bit type"),
    (1, "Mul: mask[1] = 0x1 must be 0 for a 32-bit type"),
    (2, "WholeReduceSum: repeatTimes 256 is outside [0, 255]"),
    (3, "Add: dst repeat 4 reaches element 319, beyond its LocalTensor of 256 elements"),
    (4, "Exp: src UB address"),
    (5, "Compare: count 40 (160 bytes) is not a multiple of 256 bytes"),
    (6, "Select: SELMODE VSEL_TENSOR_SCALAR_MODE needs a scalar src1"),
    (7, "GatherMask: built-in src1Pattern 9 is outside [1, 7]"),
    (8, "SetVectorMask: len 200 is outside [0, 128]"),
    (9, "BlockReduceSum: dst needs 24 elements, beyond its LocalTensor of 16 elements"),
    (10, "Compare: cmpMode 9 is not a CMPMODE"),
    (11, "Add: mask {0, 0} selects no lane"),
    (12, "ReduceMax: repeatTimes -1 is outside [0, 255]"),
    (13, "Adds: src repeat 7 reaches element 2303, beyond its LocalTensor of 256 elements"),
]


@pytest.mark.parametrize("which,message", TRAPS)
def test_misuse_traps(dev, which, message):
    px = dev.put(np.zeros(64, F32))
    dev.expect_trap("api_traps", 1, (px, which), message, ok_args=(px, 99))


# ---------------------------------------------------------------- Cast

NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD = 0, 1, 2, 3, 4, 5, 6
INTEGRAL = [RINT, FLOOR, CEIL, ROUND, TRUNC]
CASTS = {  # kernel suffix: (src, dst, modes)
    "f16_i8": (F16, np.int8, [NONE] + INTEGRAL),
    "f16_u8": (F16, np.uint8, [NONE] + INTEGRAL),
    "f16_i16": (F16, np.int16, INTEGRAL),
    "f16_i32": (F16, np.int32, INTEGRAL),
    "f16_f32": (F16, F32, [NONE]),
    "i8_f16": (np.int8, F16, [NONE]),
    "u8_f16": (np.uint8, F16, [NONE]),
    "i16_f16": (np.int16, F16, [NONE]),
    "i16_f32": (np.int16, F32, [NONE]),
    "f32_i16": (F32, np.int16, INTEGRAL),
    "f32_i32": (F32, np.int32, INTEGRAL),
    "f32_i64": (F32, np.int64, INTEGRAL),
    "f32_f16": (F32, F16, [NONE, RINT]),
    "f32_f32": (F32, F32, INTEGRAL),
    "i32_f32": (np.int32, F32, [NONE, RINT]),
    "i64_f32": (np.int64, F32, [NONE, RINT]),
    "i32_i16": (np.int32, np.int16, [NONE]),
    "i32_i64": (np.int32, np.int64, [NONE]),
    "i64_i32": (np.int64, np.int32, [NONE]),
}


def round_by(x: np.ndarray, mode: int) -> np.ndarray:
    return {
        NONE: np.rint,
        RINT: np.rint,
        FLOOR: np.floor,
        CEIL: np.ceil,
        TRUNC: np.trunc,
        ROUND: lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5),
    }[mode](x)


def cast_ref(x: np.ndarray, src, dst, mode: int) -> np.ndarray:
    if np.issubdtype(dst, np.integer):
        info = np.iinfo(dst)
        v = x.astype(np.float64) if np.issubdtype(src, np.floating) else x.astype(np.int64)
        if np.issubdtype(src, np.floating):
            v = round_by(v, mode)
            v = np.where(np.isnan(v), 0, v)
            return np.clip(v, info.min, info.max).astype(dst)
        return np.clip(v, info.min, info.max).astype(dst)
    if np.issubdtype(src, np.floating) and dst == src:
        return round_by(x.astype(np.float64), mode).astype(dst)
    with np.errstate(over="ignore"):
        return x.astype(dst)  # RNE (numpy's conversions round to nearest even)


def random_src(rng, src, n):
    if np.issubdtype(src, np.integer):
        info = np.iinfo(src)
        return rng.integers(max(info.min, -(1 << 40)), min(info.max, 1 << 40), n, endpoint=True).astype(src)
    v = rng.uniform(-300, 300, n)
    v[: n // 4] = np.round(v[: n // 4] * 2) / 2  # exact .5 ties
    v[n // 4 : n // 3] = rng.uniform(-1e6, 1e6, n // 3 - n // 4)  # saturation
    with np.errstate(over="ignore"):
        return v.astype(src)


@pytest.mark.parametrize("pair", sorted(CASTS))
def test_cast_count(dev, pair):
    src, dst, modes = CASTS[pair]
    for mode in modes:
        rng = rng_for("cast", pair, mode)
        n = 512
        x = random_src(rng, src, n)
        params = np.array([mode, 0, 0, 0, 0, n, n, 1, 1, 8, 8], np.uint64)
        pz = dev.put(np.zeros(n, dst))
        dev.ok(dev.launch(f"cast_{pair}", 1, dev.put(x), pz, dev.put(params)))
        got = dev.get(pz, np.zeros(n, dst))
        want = cast_ref(x, src, dst, mode)
        bad = np.flatnonzero((got != want) & ~(np.isnan(got.astype(np.float64)) & np.isnan(want.astype(np.float64))))
        assert bad.size == 0, f"Cast {pair} mode {mode}: x={x[bad[:4]]} got {got[bad[:4]]} want {want[bad[:4]]}"


@pytest.mark.parametrize("pair", ["f32_f16", "f16_f32", "f32_i32", "f16_i8", "i16_f32"])
@pytest.mark.parametrize("form", [1, 2], ids=["contmask", "bitmask"])
def test_cast_level0(dev, pair, form):
    src, dst, modes = CASTS[pair]
    lanes = 256 // max(np.dtype(src).itemsize, np.dtype(dst).itemsize)
    rng = rng_for("cast-l0", pair, form)
    mode = modes[-1]
    repeat = int(rng.integers(1, 5))
    lo, hi = random_mask(rng, F32 if lanes == 64 else F16, 0 if form == 1 else 1)
    pl = plan(F32 if lanes == 64 else F16, 0 if form == 1 else 1, lo, hi, repeat)
    sb, db = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    se, de = 32 // np.dtype(src).itemsize, 32 // np.dtype(dst).itemsize
    srep = int(rng.integers(lanes // se * sb, lanes // se * sb + 4))
    drep = int(rng.integers(lanes // de * db, lanes // de * db + 4))

    def off(dt, r, lane, blk, rep):
        e = 32 // np.dtype(dt).itemsize
        return r * rep * e + (lane // e) * blk * e + lane % e

    ns = -(-(off(src, repeat, 0, sb, srep) + lanes * sb) // 256) * 256
    nd = -(-(off(dst, repeat, 0, db, drep) + lanes * db) // 256) * 256
    x = random_src(rng, src, ns)
    z0 = np.zeros(nd, dst) + dst(7)
    params = np.array([mode, form, lo, hi, repeat, ns, nd, db, sb, drep, srep], np.uint64)
    pz = dev.put(z0)
    dev.ok(dev.launch(f"cast_{pair}", 1, dev.put(x), pz, dev.put(params)))
    got = dev.get(pz, z0)
    want = z0.copy()
    for r, act in pl:
        si = np.array([off(src, r, lane, sb, srep) for lane in act])
        di = np.array([off(dst, r, lane, db, drep) for lane in act])
        want[di] = cast_ref(x[si], src, dst, mode)
    np.testing.assert_array_equal(got, want, f"Cast {pair} level-0 form={form} mask=({lo:#x},{hi:#x}) repeat={repeat}")


# ---------------------------------------------------------------- Brcb, CreateVecIndex, Gather, Scatter, Copy, Axpy


def run_misc(dev, op, x, idx, z, n, repeat=0, a=0, b=0, c=0, d=0, e=0, s=0.0, blocks=1):
    params = np.array([op, n, repeat, a, b, c, d, int(np.array(s, F32).view(np.uint32)), e], np.uint64)
    pz = dev.put(z)
    rc = dev.launch("misc_f32", blocks, dev.put(x), dev.put(idx), pz, dev.put(params))
    return rc, dev.get(pz, z)


def test_brcb_create_vec_index_gather_scatter(dev):
    rng = rng_for("misc")
    n = 1024
    x = rng.uniform(-9, 9, n).astype(F32)
    z = rng.uniform(-9, 9, n).astype(F32)
    idx = np.zeros(n, np.uint32)
    repeat, blk, rep = 3, 2, 17
    rc, got = run_misc(dev, 0, x, idx, z, n, repeat, blk, rep)
    dev.ok(rc)
    want = z.copy()
    for r in range(repeat):
        for j in range(8):
            base = r * rep * 8 + j * blk * 8
            want[base : base + 8] = x[r * 8 + j]
    np.testing.assert_array_equal(got, want, "Brcb")
    rc, got = run_misc(dev, 1, x, idx, z, n, s=-3.5)
    dev.ok(rc)
    np.testing.assert_array_equal(got, (F32(-3.5) + np.arange(n, dtype=F32)).astype(F32), "CreateVecIndex")
    perm = rng.permutation(n).astype(np.uint32)
    base = 64
    idx = ((perm % (n - 16)) * 4).astype(np.uint32)
    rc, got = run_misc(dev, 2, x, idx, z, n, a=base)
    dev.ok(rc)
    np.testing.assert_array_equal(got, x[(idx + base) // 4], "Gather")
    idx = (perm * 4).astype(np.uint32)
    rc, got = run_misc(dev, 3, x, idx, z, n, a=0)
    dev.ok(rc)
    want = z.copy()
    want[perm] = x
    np.testing.assert_array_equal(got, want, "Scatter")


def test_copy_and_axpy_level0(dev):
    rng = rng_for("copy-axpy")
    n = 2048
    x = rng.uniform(-9, 9, n).astype(F32)
    z = rng.uniform(-9, 9, n).astype(F32)
    idx = np.zeros(n, np.uint32)
    mask, repeat, dblk, sblk, drep, srep = 37, 4, 2, 1, 20, 9
    rc, got = run_misc(dev, 4, x, idx, z, n, repeat, mask, dblk, sblk, drep, srep)
    dev.ok(rc)
    want = z.copy()
    for r in range(repeat):
        for lane in range(mask):
            want[offset(F32, r, lane, dblk, drep)] = x[offset(F32, r, lane, sblk, srep)]
    np.testing.assert_array_equal(got, want, "Copy level-0")
    rc, got = run_misc(dev, 5, x, idx, z, n, repeat, 50, s=1.75)
    dev.ok(rc)
    want = z.copy()
    for r in range(repeat):
        i = r * 64 + np.arange(50)
        want[i] = x[i] * F32(1.75) + z[i]
    np.testing.assert_array_equal(got, want, "Axpy level-0")


def test_transpose_16x16(dev):
    rng = rng_for("transpose")
    x = rng.uniform(-9, 9, 512).astype(F16)
    z = np.zeros(256, F32)
    rc, got = run_misc(dev, 9, x.view(F32), np.zeros(256, np.uint32), z, 256)
    dev.ok(rc)
    np.testing.assert_array_equal(got.view(F16)[:256], x[:256].reshape(16, 16).T.ravel())


def test_trap_api(dev):
    x = np.zeros(64, F32)
    rc, _ = run_misc(dev, 6, x, np.zeros(64, np.uint32), x, 64)
    assert rc == ACL_ERROR_RT_AICORE_EXCEPTION
    assert "Trap: the kernel executed Trap()" in dev.lib.aclGetRecentErrMsg().decode()


# ---------------------------------------------------------------- sample-style operators


def test_softmax_rows(dev):
    rng = rng_for("softmax")
    blocks, rows, cols = 4, 16, 320
    x = rng.uniform(-20, 20, (rows, cols)).astype(F32)
    py = dev.put(np.zeros_like(x))
    dev.ok(dev.launch("softmax_rows", blocks, dev.put(x), py, rows, cols))
    got = dev.get(py, x)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=2e-6, atol=1e-12)


def test_where_greater_and_relu_by_mask(dev):
    rng = rng_for("where")
    blocks, total, tile = 2, 4096, 512
    x = rng.integers(-50, 50, total).astype(F32) / 4
    y = rng.integers(-50, 50, total).astype(F32) / 4
    pz, pr = dev.put(np.zeros_like(x)), dev.put(np.zeros_like(x))
    dev.ok(dev.launch("where_greater", blocks, dev.put(x), dev.put(y), pz, pr, total, tile))
    np.testing.assert_array_equal(dev.get(pz, x), np.where(x > y, x, y))
    np.testing.assert_array_equal(dev.get(pr, x), np.where(x >= 0, x, F32(0)))


def test_leaky_relu_cast_level0(dev):
    rng = rng_for("leaky")
    blocks, total, tile, alpha = 3, 3 * 2048, 1024, 0.125
    x = rng.uniform(-1000, 1000, total).astype(F32)
    py = dev.put(np.zeros(total, F16))
    dev.ok(
        dev.launch("leaky_relu_cast", blocks, dev.put(x), py, total, tile, int(np.array(alpha, F32).view(np.uint32)))
    )
    want = np.where(x >= 0, x, x * F32(alpha)).astype(F32).astype(F16)
    np.testing.assert_array_equal(dev.get(py, want), want)


@pytest.mark.parametrize("op,name", [(7, "SetAtomicAdd+DataCopy"), (8, "SetAtomicMax+DataCopyPad")])
def test_atomic_modes_across_blocks(dev, op, name):
    rng = rng_for("atomic", op)
    blocks, n = 8, 512
    x = (rng.integers(-400, 400, blocks * n) / 4).astype(F32)  # sums stay exact in float
    z = (rng.integers(-400, 400, n) / 4).astype(F32)
    rc, got = run_misc(dev, op, x, np.zeros(n, np.uint32), z, n, blocks=blocks)
    dev.ok(rc)
    parts = x.reshape(blocks, n)
    want = z + parts.sum(axis=0) if op == 7 else np.maximum(z, parts.max(axis=0))
    np.testing.assert_array_equal(got, want.astype(F32), name)


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_sequential_block_order(dev, blocks):
    """WaitPreBlock / NotifyNextBlock run the blocks in launch order over a workspace the host
    never zeroed (filled with ones, as a previous launch could leave it)."""
    rng = rng_for("determine", blocks)
    x = rng.integers(-1000, 1000, blocks).astype(np.int32)
    acc = np.array([int(rng.integers(-1000, 1000))], np.int32)
    seen = np.zeros(blocks, np.int32)
    ws = np.ones(blocks * 8, np.int32)
    p = [dev.put(a) for a in (x, acc, seen, ws)]
    dev.ok(dev.launch("determine_order", blocks, *p))
    want_seen, a = [], int(acc[0])
    for v in x:
        want_seen.append(a)
        a = (a * 3 + int(v)) & 0xFFFFFFFF
        a = a - (1 << 32) if a >= 1 << 31 else a
    np.testing.assert_array_equal(dev.get(p[2], seen), np.array(want_seen, np.int32))
    assert int(dev.get(p[1], acc)[0]) == a


def test_list_tensor_desc(dev):
    """The host layout of CANN's ListTensorDesc sample: ptrOffset, {dim, index, shape[dim]} per
    tensor, then the data pointers; tensors of 1-3 dimensions."""
    rng = rng_for("list-tensor")
    n = 64
    shapes = [[n], [8, 8], [2, 4, 8]]
    xs = [rng.standard_normal(n).astype(F32) for _ in shapes]
    ptrs = [dev.put(x) for x in xs]
    words = []
    for i, shp in enumerate(shapes):
        words.append(len(shp) | (i + 10) << 32)
        words += shp
    desc = np.array([8 * (1 + len(words))] + words + ptrs, np.uint64)
    out = np.zeros(n, F32)
    got_shapes = np.zeros(4 * len(shapes), np.uint64)
    meta = np.zeros(len(shapes), np.uint64)
    p = [dev.put(a) for a in (desc, out, got_shapes, meta)]
    dev.ok(dev.launch("list_sum", 1, *p, n))
    want = np.zeros(n, F32)
    for x in xs:
        want = (want + x).astype(F32)
    np.testing.assert_array_equal(dev.get(p[1], out), want)
    gs = dev.get(p[2], got_shapes).reshape(len(shapes), 4)
    for i, shp in enumerate(shapes):
        assert list(gs[i, : len(shp)]) == shp
    assert list(dev.get(p[3], meta)) == [len(shp) << 32 | (i + 10) for i, shp in enumerate(shapes)]


def slice_indices(info, itemsize):
    """Selected indices per dimension (innermost first) of CANN's SliceInfo list."""
    out = []
    for d, (start, end, stride, burst, _shape) in enumerate(info):
        seg = burst * 32 // itemsize if d == 0 else 1
        idx, at = [], start
        while at + seg - 1 <= end:
            idx += range(at, at + seg)
            at += seg + stride
        out.append(np.array(idx))
    return out


def run_slice(dev, x, src, dst, z_elems, ub_elems):
    dims = len(src)
    info = np.zeros(1 + 2 * 5 * 8, np.uint32)
    info[0] = dims
    info[1 : 1 + 5 * dims] = np.array(src, np.uint32).ravel()
    info[1 + 5 * dims : 1 + 10 * dims] = np.array(dst, np.uint32).ravel()
    z = np.full(z_elems, -7.0, F32)
    pz = dev.put(z)
    rc = dev.launch("slice_copy", 1, dev.put(x), pz, dev.put(info), ub_elems)
    return rc, dev.get(pz, z)


def test_slice_data_copy_sample_and_random(dev):
    rng = rng_for("slice")
    # CANN's sample: four row pieces of a [3, 87] float tensor into [2, 48].
    x = rng.random(3 * 87).astype(F32)
    rc, got = run_slice(dev, x, [(16, 70, 7, 3, 87), (0, 2, 1, 1, 3)], [(0, 47, 0, 3, 48), (0, 1, 0, 1, 2)], 96, 96)
    dev.ok(rc)
    x2 = x.reshape(3, 87)
    want = np.concatenate([x2[0, 16:40], x2[0, 47:71], x2[2, 16:40], x2[2, 47:71]])
    np.testing.assert_array_equal(got, want)
    # A random 3-D slice into a dense destination.
    shape = [int(rng.integers(5, 9)) * 8, int(rng.integers(3, 6)), int(rng.integers(2, 4))]  # innermost first
    src = [
        (int(rng.integers(0, 8)), shape[0] - 1, int(rng.integers(0, 5)), 1, shape[0]),
        (0, shape[1] - 1, int(rng.integers(0, 2)), 1, shape[1]),
        (0, shape[2] - 1, 0, 1, shape[2]),
    ]
    sel = slice_indices(src, 4)
    dst = [
        (0, len(sel[0]) - 1, 0, 1, len(sel[0])),
        (0, len(sel[1]) - 1, 0, 1, len(sel[1])),
        (0, len(sel[2]) - 1, 0, 1, len(sel[2])),
    ]
    x = rng.standard_normal(shape[0] * shape[1] * shape[2]).astype(F32)
    n = len(sel[0]) * len(sel[1]) * len(sel[2])
    rc, got = run_slice(dev, x, src, dst, n, n)
    dev.ok(rc)
    cube = x.reshape(shape[2], shape[1], shape[0])  # outermost first
    want = cube[np.ix_(sel[2], sel[1], sel[0])].ravel()
    np.testing.assert_array_equal(got, want, f"shape={shape} src={src}")
    # Bad input: a burstLen above dimension 0, one clear line.
    rc, _ = run_slice(
        dev, x2.ravel(), [(16, 70, 7, 3, 87), (0, 2, 1, 2, 3)], [(0, 47, 0, 3, 48), (0, 1, 0, 1, 2)], 96, 96
    )
    assert rc == ACL_ERROR_RT_AICORE_EXCEPTION
    assert (
        "DataCopy: srcSliceInfo[1].burstLen is 2; above dimension 0 it must be 1"
        in dev.lib.aclGetRecentErrMsg().decode()
    )


@pytest.mark.parametrize("arrive,wait,rounds", [(2, 6, 1), (3, 2, 4), (1, 1, 3)])
def test_group_barrier_rounds(dev, arrive, wait, rounds):
    """Waiters of each round see every arrival of that round (CANN's GroupBarrier sample: 2 blocks
    arrive, 6 wait)."""
    rng = rng_for("group-barrier", arrive, wait, rounds)
    x = rng.integers(-1000, 1000, rounds * arrive).astype(np.int32)
    slot = np.zeros(rounds * arrive, np.int32)
    out = np.zeros(rounds * wait, np.int32)
    ws = np.zeros(wait * 512 // 4, np.int32)
    p = [dev.put(a) for a in (x, slot, out, ws)]
    dev.ok(dev.launch("group_barrier_probe", arrive + wait, *p, arrive, wait, rounds))
    weights = np.arange(1, arrive + 1, dtype=np.int32)
    want = np.repeat((x.reshape(rounds, arrive) * weights).sum(axis=1).astype(np.int32), wait)
    np.testing.assert_array_equal(dev.get(p[2], out), want)


@pytest.mark.parametrize("op", range(5))
def test_reduce_by_type_matches_the_older_names(dev, op):
    rng = rng_for("reduce-by-type", op)
    x = rng.uniform(-100, 100, 512).astype(F32)
    z = np.zeros(128, F32)
    pz = dev.put(z)
    dev.ok(dev.launch("reduce_by_type", 1, dev.put(x), pz, op))
    got = dev.get(pz, z)
    assert np.any(got[:64] != 0), "the new spelling wrote nothing"
    np.testing.assert_array_equal(got[:64].view(np.uint32), got[64:].view(np.uint32))


def test_relu_cast_and_mul_cast(dev):
    rng = rng_for("relucast")
    n = 512
    x = rng.uniform(-70000, 70000, n).astype(F32)
    y = rng.uniform(-70000, 70000, n).astype(F32)
    z0 = rng.uniform(-1, 1, n).astype(F16)

    def run(op, a, b):
        pz = dev.put(z0)
        dev.ok(dev.launch("relu_cast", 1, dev.put(a), dev.put(b), pz, op, n))
        return dev.get(pz, z0)

    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(run(0, x, y), np.maximum(x + y, 0).astype(F16), "AddReluCast float->half")
        np.testing.assert_array_equal(run(1, x, y), np.maximum(x - y, 0).astype(F16), "SubReluCast float->half")
        want = z0.copy()
        for r in range(3):
            want[r * 64 : r * 64 + 40] = np.maximum(x[r * 64 : r * 64 + 40] + y[r * 64 : r * 64 + 40], 0).astype(F16)
        np.testing.assert_array_equal(run(2, x, y), want, "AddReluCast level-0")
    xh = rng.uniform(-20, 20, 2 * n).astype(F16)
    yh = rng.uniform(-20, 20, 2 * n).astype(F16)
    got = run(3, xh.view(F32), yh.view(F32)).view(np.int8)[:n]
    prod = (xh[:n].astype(F32) * yh[:n].astype(F32)).astype(F16).astype(np.float64)
    np.testing.assert_array_equal(got, np.clip(np.rint(prod), -128, 127).astype(np.int8), "MulCast half->int8")


@pytest.mark.parametrize("full", [0, 1], ids=["Sort32", "Sort-full"])
def test_sort(dev, full):
    rng = rng_for("sort", full)
    repeat = 4
    n = 32 * repeat
    x = rng.integers(-20, 20, n).astype(F32)  # ties: input order kept
    idx = rng.permutation(1000)[:n].astype(np.uint32)
    pp, pv, po = dev.put(np.zeros(2 * n, F32)), dev.put(np.zeros(n, F32)), dev.put(np.zeros(n, np.uint32))
    dev.ok(dev.launch("sort_f32", 1, dev.put(x), dev.put(idx), pp, pv, po, repeat, full))
    group = n if full else 32
    want_v, want_i = [], []
    for g in range(0, n, group):
        order = np.argsort(-x[g : g + group], kind="stable")
        want_v.append(x[g : g + group][order])
        want_i.append(idx[g : g + group][order])
    want_v, want_i = np.concatenate(want_v), np.concatenate(want_i)
    pairs = dev.get(pp, np.zeros(2 * n, F32))
    np.testing.assert_array_equal(pairs[0::2], want_v, "scores in the low 4 bytes")
    np.testing.assert_array_equal(pairs.view(np.uint32)[1::2], want_i, "indices in the high 4 bytes")
    np.testing.assert_array_equal(dev.get(pv, want_v), want_v, "Extract values")
    np.testing.assert_array_equal(dev.get(po, want_i), want_i, "Extract indices")


def test_gatherb(dev):
    rng = rng_for("gatherb")
    n, repeat, blk, rep = 1024, 3, 2, 20
    x = rng.uniform(-9, 9, n).astype(F32)
    z = rng.uniform(-9, 9, n).astype(F32)
    idx = np.zeros(n, np.uint32)
    idx[: repeat * 8] = rng.integers(0, n // 8, repeat * 8) * 32
    rc, got = run_misc(dev, 10, x, idx, z, n, repeat, blk, rep)
    dev.ok(rc)
    want = z.copy()
    for r in range(repeat):
        for j in range(8):
            src = idx[r * 8 + j] // 4
            want[r * rep * 8 + j * blk * 8 :][:8] = x[src : src + 8]
    np.testing.assert_array_equal(got, want, "Gatherb")


@pytest.mark.parametrize("valid,suspend", [(0xF, 0), (0x7, 0), (0x3, 0), (0xF, 1)])
def test_mrgsort(dev, valid, suspend):
    rng = rng_for("mrgsort", valid, suspend)
    lists = np.zeros((4, 64, 2), F32)
    lens = [int(v) for v in rng.integers(1, 65, 4)]
    for k in range(4):
        scores = np.sort(rng.integers(-30, 30, 64).astype(F32))[::-1]
        lists[k, :, 0] = scores
        lists[k, :, 1] = (np.arange(64, dtype=np.uint32) + 100 * k).view(F32)
    out0 = np.full(4 * 64 * 2, -7, F32)
    po, pc = dev.put(out0), dev.put(np.zeros(4, np.uint32))
    packed = lens[0] | lens[1] << 8 | lens[2] << 16 | lens[3] << 24
    dev.ok(dev.launch("mrgsort_f32", 1, dev.put(lists.ravel()), po, pc, packed, valid, suspend))
    nlists = {0x3: 2, 0x7: 3, 0xF: 4}[valid]
    pos, merged = [0] * 4, []
    while True:
        live = [k for k in range(nlists) if pos[k] < lens[k]]
        if not live or (suspend and len(live) < nlists):
            break
        best = max(live, key=lambda k: (lists[k, pos[k], 0], -k))
        merged.append(lists[best, pos[best]])
        pos[best] += 1
    got = dev.get(po, out0).reshape(-1, 2)
    np.testing.assert_array_equal(got[: len(merged)], np.array(merged, F32).reshape(-1, 2), "MrgSort pairs")
    assert list(dev.get(pc, np.zeros(4, np.uint32))) == pos[:nlists] + [0] * (4 - nlists)
