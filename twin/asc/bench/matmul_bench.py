"""GEMM benchmark of the Matmul high-level API on the twin (not a test): fp16 A and B, fp32 C,
M = N = K = 2048 by default, against numpy's float32 matmul (OpenBLAS) on the same values in the
same run, beside the CPU's physical limit.

The kernel is the one test_matmul.py checks (twin/asc/tests/matmul/api_matmul.asc, mm_f16_f32:
REGIST_MATMUL_OBJ + IterateAll as CANN's matmul sample), launched through libascendcl with the
tiling MultiCoreMatmulTiling gives for the SoC's AIC count (SetDim(24) on Ascend910B1), so the
24 blocks share the host's cores as the device process's worker threads run them.

    bazel run -c opt //twin/asc/bench:matmul_bench [-- --size 2048 --runs 5]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# bazel run starts in the runfiles tree: the kernel, the tiling tool, the ACL library and the inis
for var, rel in [
    ("API_MATMUL", "twin/asc/tests/api_matmul.aicore.o"),
    ("MATMUL_TILING_TOOL", "twin/asc/tests/matmul_tiling_tool"),
    ("ASCENDCL_LIB", "twin/runtime/libascendcl.so"),
    ("ASCEND_TWIN_PLATFORM_DIR", "twin/platform"),
]:
    os.environ.setdefault(var, os.path.abspath(rel))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
from api_testlib import Device  # noqa: E402


def cpu_peak() -> tuple[float, str]:
    """fp32 FLOP/s the cores could do at most, and the formula with its numbers."""
    info = open("/proc/cpuinfo").read()
    flags = set(re.search(r"^flags\s*:\s*(.*)$", info, re.M).group(1).split())
    mhz = max(float(x) for x in re.findall(r"^cpu MHz\s*:\s*([\d.]+)", info, re.M))
    cores = os.cpu_count() or 1
    vendor = re.search(r"^vendor_id\s*:\s*(\S+)", info, re.M).group(1)
    family = int(re.search(r"^cpu family\s*:\s*(\d+)", info, re.M).group(1))
    if "avx512f" in flags and not (vendor == "AuthenticAMD" and family == 25):
        lanes, why = 16, "AVX-512"
    elif "avx512f" in flags:
        lanes, why = 8, "AVX-512 on Zen 4, whose FMA datapath is 256 bits wide"
    elif "avx2" in flags and "fma" in flags:
        lanes, why = 8, "AVX2 + FMA"
    else:
        lanes, why = 4, "SSE"
    fma_pipes = 2
    peak = cores * mhz * 1e6 * lanes * 2 * fma_pipes
    formula = (
        f"{cores} cores x {mhz:.0f} MHz x {lanes} fp32 lanes ({why}) x 2 FLOP per FMA x {fma_pipes} FMA "
        f"pipes per core = {peak / 1e9:.1f} GFLOP/s"
    )
    return peak, formula


def tiling(size: int, dim: int) -> np.ndarray:
    out = subprocess.run(
        [
            os.environ["MATMUL_TILING_TOOL"],
            "Ascend910B1",
            str(size),
            str(size),
            str(size),
            str(dim),
            "f16",
            "f32",
            "0",
            "0",
            "0",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return np.array(out.split(), dtype=np.int32)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dim", type=int, default=24, help="SetDim: the cores the tiling splits over")
    args = ap.parse_args()
    n = args.size
    rng = np.random.default_rng(2048)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    flops = 2.0 * n * n * n

    dev = Device()
    dev.load("API_MATMUL", ["mm_f16_f32"])
    t = tiling(n, args.dim)
    pa, pb, pbias, pc, pt = (
        dev.put(a),
        dev.put(b),
        dev.put(np.zeros(n, np.float32)),
        dev.put(np.zeros((n, n), np.float32)),
        dev.put(t),
    )
    blocks = int(t[0])
    twin_times, numpy_times = [], []
    assert dev.launch("mm_f16_f32", blocks, pa, pb, pbias, pc, pt, 0, 0) == 0  # warm-up (page faults, caches)
    ref = a32 @ b32
    for _ in range(args.runs):  # interleaved, so both see the same load
        t0 = time.perf_counter()
        assert dev.launch("mm_f16_f32", blocks, pa, pb, pbias, pc, pt, 0, 0) == 0
        twin_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        ref = a32 @ b32
        numpy_times.append(time.perf_counter() - t0)
    got = dev.get(pc, ref)
    err = float(np.abs(got.astype(np.float64) - ref).max())
    dev.close()

    tw, tn = statistics.median(twin_times), statistics.median(numpy_times)
    peak, formula = cpu_peak()
    print(
        f"GEMM {n}x{n}x{n}, fp16 in / fp32 out, tiling: {blocks} blocks of {t[5]}x{t[6]}x{t[7]}, "
        f"base {t[8]}x{t[9]}x{t[10]}; medians of {args.runs} runs; max |twin - numpy| = {err:.2e}"
    )
    print(f"  twin Matmul (IterateAll):   {tw * 1e3:8.1f} ms  {flops / tw / 1e9:7.1f} GFLOP/s")
    print(f"  numpy float32 (OpenBLAS):   {tn * 1e3:8.1f} ms  {flops / tn / 1e9:7.1f} GFLOP/s")
    print(f"  twin / numpy rate:          {tn / tw:8.2f}  (goal >= 0.5)")
    print(f"  physical limit:             {formula}")
    print(f"  twin at {flops / tw / peak * 100:.0f}% of it, numpy at {flops / tn / peak * 100:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
