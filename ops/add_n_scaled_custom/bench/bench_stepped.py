#!/usr/bin/env python3
"""Benchmark of the stepped executor against the one-OM path and numpy, in one run.

    bazel run -c opt //ops/add_n_scaled_custom:bench_stepped [-- --sizes 1024,65536,1048576]

Same sum x1 + x2 + x3 (float32) six ways: numpy; two add_custom nodes with static inputs (one
OM, the fast path); the same graph with [-1] inputs (the stepped executor: one kernel segment
per seen shape, inferred per run); the same [-1] graph as atc writes it, an OM that runs through
Python, run by pyACL in this process (aclmdlExecute with the shapes set on the input dataset,
copies in and out included); AddNScaledCustom (a Python execute launching its kernel at every
run); and the three-backend graph of run.py (kernel -> execute -> host -> kernel). Plus the first
run of a new shape (inference + compile + load; warm kernel cache) against a run of a seen one.
Medians of Session.run_graph; re-executes itself in the clean CANN-like environment; asserts
nothing. ``--profile`` adds cProfile's top functions of the stepped run at each size.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

CHILD_FLAG = "--child"
# the shared timing helpers (//tests/bench:bench_timing), found in the runfiles by the parent and
# by the child, which runs in a clean environment
sys.path.insert(0, str(Path(__file__).absolute().parents[3] / "tests" / "bench"))
from bench_timing import median_us as _median_us  # noqa: E402  # after the sys.path entry it needs
from bench_timing import profile as _profile  # noqa: E402

ACL_FLOAT, ACL_FORMAT_ND, ACL_MEM_MALLOC_NORMAL_ONLY, H2D, D2H = 0, 2, 2, 1, 2


class _PythonRunOm:
    """The [-1] graph compiled as atc does (an OM that runs through Python), loaded by pyACL in
    this process; ``run(xs)`` copies the inputs in, sets their shape on the input dataset,
    aclmdlExecute, copies the output out — what a pyACL program does per run."""

    def __init__(self, graph, soc: str, n: int) -> None:
        import acl
        from ge._compiler import compile_graph

        self.acl, self.n = acl, n
        om = compile_graph(graph._ir, {"ge.socVersion": soc}, mode="offline").om
        self.om = om  # kept: load_from_mem may read from this buffer while the model is loaded
        self.model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(om), len(om))
        assert ret == 0, acl.get_recent_err_msg()
        self.datasets = [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
        self.shape = acl.create_tensor_desc(ACL_FLOAT, [n], ACL_FORMAT_ND)
        self.pointers = []
        for k in range(4):  # three inputs, one output (the caller's buffer: the runtime copies into it)
            ptr, ret = acl.rt.malloc(4 * n, ACL_MEM_MALLOC_NORMAL_ONLY)
            assert ret == 0
            self.pointers.append(ptr)
            acl.mdl.add_dataset_buffer(self.datasets[k == 3], acl.create_data_buffer(ptr, 4 * n))
            if k < 3:
                acl.mdl.set_dataset_tensor_desc(self.datasets[0], self.shape, k)

    def run(self, xs, out) -> None:
        acl = self.acl
        for ptr, x in zip(self.pointers, xs):
            acl.rt.memcpy(ptr, x.nbytes, x.ctypes.data, x.nbytes, H2D)
        ret = acl.mdl.execute(self.model_id, *self.datasets)
        assert ret == 0, acl.get_recent_err_msg()
        acl.rt.memcpy(out.ctypes.data, out.nbytes, self.pointers[3], out.nbytes, D2H)

    def close(self) -> None:
        acl = self.acl
        for dataset in self.datasets:
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
        acl.destroy_tensor_desc(self.shape)
        for ptr in self.pointers:
            acl.rt.free(ptr)
        acl.mdl.unload(self.model_id)


def _child(sizes, soc: str, profile: bool) -> None:
    import numpy as np

    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))
    from es_addn_ops import AddNScaledCustom
    from es_custom import PythonCompilableAddCustom as Add
    from run import three_backend_graph

    from ge.es.graph_builder import GraphBuilder
    from ge.ge_global import GeApi
    from ge.graph import DataType, Format, Tensor
    from ge.session import Session

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
        for name, graph in (
            ("one_om", adds([n])),
            ("stepped", adds([-1])),
            ("execute", addn([n])),
            ("three", three_backend_graph(1.0)),
        ):
            graph_id += 1
            session.add_graph(graph_id, graph)
            row[name] = _median_us(lambda gid=graph_id: session.run_graph(gid, tensors), repeats)
            if name == "stepped" and profile:
                row["profile"] = _profile(lambda gid=graph_id: session.run_graph(gid, tensors), repeats)
        pyom, out = _PythonRunOm(adds([-1]), soc, n), np.empty(n, dtype=np.float32)
        pyom.run(xs, out)
        assert np.array_equal(out, (xs[0] + xs[1]) + xs[2]), "the Python-run OM computed a wrong sum"
        row["pyom"] = _median_us(lambda: pyom.run(xs, out), repeats)
        pyom.close()
        graph_id += 1  # a new shape of a dynamic graph: inference, compile (warm cache), load
        session.add_graph(graph_id, adds([-1]))
        other = 2048 if n == 1024 else 1024  # warm the graph up with another shape
        session.run_graph(
            graph_id,
            [
                Tensor(
                    x[:other].tolist() if other < n else x.tolist() * 2,
                    None,
                    DataType.DT_FLOAT,
                    Format.FORMAT_ND,
                    [other],
                )
                for x in xs
            ],
        )
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
    parser.add_argument("--profile", action="store_true", help="cProfile of the stepped run per size")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.child:
        _child(sizes, args.soc, args.profile)
        return
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))
    import ge_op_testing as t
    from three_ops_env import three_ops_env

    mine, env = three_ops_env(**t.user_run_settings())
    if "ASCEND_TWIN_GE_ACL_COPIES" in os.environ:  # the one-OM path's copy mode (twin/python/ge/_compiler)
        env["ASCEND_TWIN_GE_ACL_COPIES"] = os.environ["ASCEND_TWIN_GE_ACL_COPIES"]
    import subprocess

    proc = subprocess.run(
        [
            sys.executable,
            __file__,
            CHILD_FLAG,
            "--sizes",
            args.sizes,
            "--soc",
            mine.soc,
            *(["--profile"] if args.profile else []),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    line = next((out for out in proc.stdout.splitlines() if out.startswith("BENCH_JSON ")), None)
    if proc.returncode != 0 or line is None:
        sys.exit(f"benchmark child failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    rows = json.loads(line[len("BENCH_JSON ") :])
    print(
        "median µs per run (ratio: / one OM; stepped also / numpy; Python-run OM also / stepped; "
        "new shape: / stepped seen shape)"
    )
    print(
        "| floats | numpy | one OM (static) | stepped ([-1], seen shape) | Python-run OM (pyACL) "
        "| execute (AddNScaled) | three backends | new shape (compile+load) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        base = r["one_om"]
        print(
            f"| {r['n']} | {r['numpy']:.1f} ({r['numpy'] / base:.2f}) | {base:.1f} (1.00) | "
            f"{r['stepped']:.1f} ({r['stepped'] / base:.2f}; {r['stepped'] / r['numpy']:.0f}x np) | "
            f"{r['pyom']:.1f} ({r['pyom'] / base:.2f}; {r['pyom'] / r['stepped']:.2f}x stepped) | "
            f"{r['execute']:.1f} ({r['execute'] / base:.2f}) | {r['three']:.1f} ({r['three'] / base:.2f}) | "
            f"{r['new_shape']:.0f} ({r['new_shape'] / r['stepped']:.0f}) |"
        )
    for r in rows:
        if "profile" in r:
            print(f"\nstepped run at {r['n']} floats, cProfile by own time:\n{r['profile']}")


if __name__ == "__main__":
    main()
