#!/usr/bin/env python3
"""Benchmark (not a test): the twin's SoftMax, LayerNorm and RmsNorm kernels against numpy on the
same rows x cols fp32 data (default 4096 x 4096); prints a Markdown table of seconds (best of
--repeat) and numpy / twin (goal >= 1.0: the twin's blocks run in parallel, numpy does not).

    bazel run //twin/asc/bench:softmax_norm_bench
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def best_of(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def numpy_times(rows, cols, repeat):
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (rows, cols)).astype(np.float32)
    g = rng.uniform(-3, 3, cols).astype(np.float32)
    b = rng.uniform(-3, 3, cols).astype(np.float32)
    eps = np.float32(1e-5)

    def softmax():
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def layernorm():
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * g + b

    def rmsnorm():
        return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps) * g

    return {
        "SoftMax": best_of(softmax, repeat),
        "LayerNorm": best_of(layernorm, repeat),
        "RmsNorm": best_of(rmsnorm, repeat),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--binary", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "softmax_norm_bench_bin")
    )
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    out = subprocess.run(
        [args.binary, "--rows", str(args.rows), "--cols", str(args.cols), "--repeat", str(args.repeat)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    twin = json.loads(out)
    ref = numpy_times(args.rows, args.cols, args.repeat)
    print(f"{args.rows} x {args.cols} fp32, twin blocks = {twin['blocks']}, best of {args.repeat}\n")
    print("| API | twin (s) | numpy (s) | numpy / twin |")
    print("|---|---:|---:|---:|")
    for api in ("SoftMax", "LayerNorm", "RmsNorm"):
        print(f"| {api} | {twin[api]:.4f} | {ref[api]:.4f} | {ref[api] / twin[api]:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
