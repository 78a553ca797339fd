#!/usr/bin/env python3
"""Benchmark of the stepped executor against the one-OM path and numpy, in one run.

    bazel run -c opt //ops/add_n_scaled_custom:bench_stepped [-- --sizes 1024,65536,1048576]

Same sum x1 + x2 + x3 (float32) five ways: numpy; two add_custom nodes with static inputs (one
OM, the fast path); the same graph with [-1] inputs (the stepped executor: one kernel segment
per seen shape); AddNScaledCustom (a Python execute launching its kernel at every run); and the
three-backend graph of run.py (kernel -> execute -> host -> kernel). Plus the first run of a new
shape (inference + compile + load; warm kernel cache) against a run of a seen one. Medians of
Session.run_graph; re-executes itself in the clean CANN-like environment; asserts nothing.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

CHILD_FLAG = "--child"


def _median_us(fn, repeats: int, warmup: int = 3) -> float:
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1e3


def _child(sizes, soc: str) -> None:
    import numpy as np
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))
    from es_addn_ops import AddNScaledCustom
    from es_custom import PythonCompilableAddCustom as Add
    from ge.es.graph_builder import GraphBuilder
    from ge.ge_global import GeApi
    from ge.graph import DataType, Format, Tensor
    from ge.session import Session
    from run import three_backend_graph

    def adds(dims):
        b = GraphBuilder("adds")
        x1, x2, x3 = (b.create_input(k, shape=dims) for k in range(3))
        return b.build_and_reset([Add(Add(x1, x2), x3)])

    def addn(dims):
        b = GraphBuilder("addn")
        xs = [b.create_input(k, shape=dims) for k in range(3)]
        return b.build_and_reset([AddNScaledCustom(xs, scale=1.0)])

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": soc})
    session, graph_id, rows = Session(), 0, []
    rng = np.random.default_rng(0)
    for n in sizes:
        xs = [rng.standard_normal(n).astype(np.float32) for _ in range(3)]
        tensors = [Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, [n]) for x in xs]
        repeats = 1000 if n <= 4096 else 200 if n <= 1 << 17 else 20
        row = {"n": n, "numpy": _median_us(lambda: (xs[0] + xs[1]) + xs[2], repeats)}
        for name, graph in (("one_om", adds([n])), ("stepped", adds([-1])), ("execute", addn([n])),
                            ("three", three_backend_graph(1.0))):
            graph_id += 1
            session.add_graph(graph_id, graph)
            row[name] = _median_us(lambda gid=graph_id: session.run_graph(gid, tensors), repeats)
        graph_id += 1  # a new shape of a dynamic graph: inference, compile (warm cache), load
        session.add_graph(graph_id, adds([-1]))
        other = 2048 if n == 1024 else 1024  # warm the graph up with another shape
        session.run_graph(graph_id, [Tensor(x[:other].tolist() if other < n else x.tolist() * 2, None,
                                            DataType.DT_FLOAT, Format.FORMAT_ND, [other]) for x in xs])
        start = time.perf_counter_ns()
        session.run_graph(graph_id, tensors)
        row["new_shape"] = (time.perf_counter_ns() - start) / 1e3
        rows.append(row)
    GeApi.ge_finalize()
    print("BENCH_JSON " + json.dumps(rows), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024,65536,1048576")
    parser.add_argument(CHILD_FLAG, action="store_true")
    parser.add_argument("--soc", default=None)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        _child(sizes, args.soc)
        return
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))
    from three_ops_env import three_ops_env
    home = os.environ.get("HOME", "/tmp")
    cache = Path(os.environ.get("ASCEND_TWIN_KERNEL_CACHE", Path(home) / ".cache" / "ascend-twin" / "kernels"))
    mine, env = three_ops_env(kernel_cache=cache, extra={"HOME": home})
    if "ASCEND_TWIN_GE_ACL_COPIES" in os.environ:  # the one-OM path's copy mode (twin/python/ge/_compiler)
        env["ASCEND_TWIN_GE_ACL_COPIES"] = os.environ["ASCEND_TWIN_GE_ACL_COPIES"]
    import subprocess
    proc = subprocess.run([sys.executable, __file__, CHILD_FLAG, "--sizes", args.sizes, "--soc", mine.soc],
                          env=env, capture_output=True, text=True)
    line = next((l for l in proc.stdout.splitlines() if l.startswith("BENCH_JSON ")), None)
    if proc.returncode != 0 or line is None:
        sys.exit(f"benchmark child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    rows = json.loads(line[len("BENCH_JSON "):])
    print("median Session.run_graph in µs (ratio: / one OM; new shape: / stepped seen shape)")
    print("| floats | numpy | one OM (static) | stepped ([-1], seen shape) | execute (AddNScaled) "
          "| three backends | new shape (compile+load) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        base = r["one_om"]
        print(f"| {r['n']} | {r['numpy']:.1f} ({r['numpy'] / base:.2f}) | {base:.1f} (1.00) | "
              f"{r['stepped']:.1f} ({r['stepped'] / base:.2f}) | {r['execute']:.1f} ({r['execute'] / base:.2f}) | "
              f"{r['three']:.1f} ({r['three'] / base:.2f}) | "
              f"{r['new_shape']:.0f} ({r['new_shape'] / r['stepped']:.0f}) |")


if __name__ == "__main__":
    main()
