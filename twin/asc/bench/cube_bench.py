"""The cube twin's speed, next to numpy on the same data in the same run (a benchmark, not a test).

  bazel run //twin/asc/bench:cube_bench [-- --repeats 200 --size 1024 --blocks 8]

Rows: Mmad alone (one block, one resident 128 x 128 x 128 fp16 tile, `repeats` Mmads into L0C),
and a size^3 fp16 GEMM built from Nd2Nz + LoadData + Mmad + Fixpipe over `blocks` blocks,
against numpy's float32 matmul of the same values (numpy's BLAS uses every core). The ceiling
printed is the CPU's nominal fp32 FMA rate: cores x 2 FMA ports x 8 lanes (AVX2) x 2 flops x the
clock /proc/cpuinfo reports, an assumption about the core, not a measurement.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "tests"))  # the numpy tests' ctypes device
from api_testlib import Device  # noqa: E402


def cpu_peak_gflops() -> tuple[float, int, float]:
    mhz = []
    for line in open("/proc/cpuinfo", encoding="utf-8"):
        if line.startswith("cpu MHz"):
            mhz.append(float(line.split(":")[1]))
    cores = os.cpu_count() or 1
    ghz = (max(mhz) if mhz else 2000.0) / 1000.0
    return cores * 2 * 8 * 2 * ghz, cores, ghz


def best_of(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    seed = int.from_bytes(os.urandom(4), "little")
    rng = np.random.default_rng(seed)
    dev = Device()
    dev.load("CUBE_BENCH", ["mmad_repeat", "gemm_f16"])

    rows = []
    # Mmad alone.
    t = 128
    a = rng.uniform(-1, 1, (t, t)).astype(np.float16)
    b = rng.uniform(-1, 1, (t, t)).astype(np.float16)
    pa, pb, pc = dev.put(a), dev.put(b), dev.put(np.zeros((t, t), np.float32))
    secs = best_of(lambda: dev.ok(dev.launch("mmad_repeat", 1, pa, pb, pc, args.repeats)), args.runs)
    got = dev.get(pc, np.zeros((t, t), np.float32))
    want = args.repeats * (a.astype(np.float64) @ b.astype(np.float64))
    err = float(np.abs(got - want).max() / max(1e-30, np.abs(want).max()))
    flops = 2.0 * t**3 * args.repeats
    af, bf = a.astype(np.float32), b.astype(np.float32)
    np_secs = best_of(lambda: [af @ bf for _ in range(args.repeats)], args.runs)
    rows.append((f"Mmad 128x128x128 x{args.repeats} (1 block)", flops / secs / 1e9, flops / np_secs / 1e9, err))
    # The GEMM.
    n = args.size
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    pa, pb, pc = dev.put(a), dev.put(b), dev.put(np.zeros((n, n), np.float32))
    secs = best_of(lambda: dev.ok(dev.launch("gemm_f16", args.blocks, pa, pb, pc, n, n, n)), args.runs)
    got = dev.get(pc, np.zeros((n, n), np.float32))
    af, bf = a.astype(np.float32), b.astype(np.float32)
    np_secs = best_of(lambda: af @ bf, args.runs)
    want = af.astype(np.float64) @ bf.astype(np.float64)
    err = float(np.abs(got - want).max() / np.abs(want).max())
    flops = 2.0 * n**3
    rows.append((f"GEMM {n}^3 fp16->fp32 ({args.blocks} blocks)", flops / secs / 1e9, flops / np_secs / 1e9, err))
    dev.close()

    peak, cores, ghz = cpu_peak_gflops()
    print(
        f"seed {seed}; CPU: {cores} cores at {ghz:.2f} GHz, nominal fp32 FMA peak {peak:.0f} GFLOP/s "
        f"(cores x 2 FMA x 8 lanes x 2 flops x clock)"
    )
    print(
        f"{'case':<42} {'twin GFLOP/s':>13} {'numpy f32 GFLOP/s':>18} "
        f"{'twin/numpy':>11} {'twin/peak':>10} {'max rel err':>12}"
    )
    for name, twin, ref, err in rows:
        print(f"{name:<42} {twin:>13.1f} {ref:>18.1f} {twin / ref:>11.2f} {twin / peak:>10.2f} {err:>12.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
