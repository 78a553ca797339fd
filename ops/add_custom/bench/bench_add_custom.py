#!/usr/bin/env python3
"""Benchmark of the sample: compile() cold / warm / from the kernel cache in a new process, and
Session.run_graph median latency against ONNX Runtime and numpy on the same Add, in one run.

    bazel run //ops/add_custom:bench_add_custom [-- --sizes 1024,65536,16777216 --soc Ascend910B1]

The benchmark re-executes itself in a clean environment (the CANN-like tree only, like the
tests) and prints tables; it asserts nothing about time.
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

CHILD_FLAG = "--child"
# the shared timing helpers (//tests/bench:bench_timing), found in the runfiles by the parent and
# by the child, which runs in a clean environment
sys.path.insert(0, str(Path(__file__).absolute().parents[3] / "tests" / "bench"))
from bench_timing import median_us as _median_us, profile as _profile  # noqa: E402


def _repeats(n: int) -> int:
    return 2000 if n <= 4096 else 300 if n <= 1 << 20 else 15


# ---- child side: runs inside the clean environment ------------------------------------------

def _compile_ctx_for(n: int, soc: str):
    from ge._platform import load_platform
    from ge.custom_op._compile_ctx import OpCompileContext
    from ge.custom_op._node import NodeSpec
    from ge.graph import DataType
    from ge.runtime._meta import TensorMeta

    def meta():
        return TensorMeta(data_type=DataType.DT_FLOAT, storage_dims=[n])
    node = NodeSpec("PythonCompilableAddCustom", "add", inputs=[[meta()], [meta()]], outputs=[[meta()]])
    return OpCompileContext._create(node, options={"ge.twin.compileMode": "online"}, platform=load_platform(soc))


def _new_holder(key: str) -> str:
    from ge.custom_op import _bridge
    instance_id = _bridge.new_instance_id(key)
    _bridge.create_op_impl_holder(instance_id, key)
    return instance_id


def child_compile(soc: str, mode: str) -> dict:
    """mode "cold": an empty cache; first call cold, then warm calls on the same holder.
    mode "cache": a new process over a filled cache: first call on a fresh holder."""
    from ge.custom_op import _bridge
    from ge.custom_op.registry import get_registered_op_impl_by_op_type
    _bridge.load_and_get_op_descriptors()
    key = get_registered_op_impl_by_op_type("PythonCompilableAddCustom").descriptor_key
    ir_meta = {"inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}], "attrs": [],
               "outputs": [{"name": "y", "kind": 0}]}
    holder = _new_holder(key)
    start = time.perf_counter_ns()
    _bridge.call_compile(holder, ir_meta, _compile_ctx_for(4096, soc))
    first_us = (time.perf_counter_ns() - start) / 1e3
    result = {"first_us": first_us}
    if mode == "cold":
        result["warm_us"] = _median_us(lambda: _bridge.call_compile(holder, ir_meta, _compile_ctx_for(4096, soc)),
                                       500)
        instance = _bridge.get_op_impl_holder_instance(holder)
        from ge.custom_op import context
        ctx = _compile_ctx_for(4096, soc)
        x1 = ctx._get_required_input_tensor(0)
        x2 = ctx._get_required_input_tensor(1)
        y = ctx._get_required_output_tensor(0)
        with context._compile_ctx_scope(ctx):
            result["warm_method_us"] = _median_us(lambda: instance.compile(x1, x2, y), 2000)
    else:
        others = []
        for _ in range(5):
            fresh = _new_holder(key)
            start = time.perf_counter_ns()
            _bridge.call_compile(fresh, ir_meta, _compile_ctx_for(4096, soc))
            others.append((time.perf_counter_ns() - start) / 1e3)
        result["fresh_holder_median_us"] = statistics.median(others)
    return result


def child_run(soc: str, sizes) -> list:
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    from es_custom import PythonCompilableAddCustom
    from ge.es.graph_builder import GraphBuilder
    from ge.ge_global import GeApi
    from ge.graph import DataType, Tensor
    from ge.session import Session

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": soc})
    session = Session()
    rng = np.random.default_rng(1234)
    rows = []
    for graph_id, n in enumerate(sizes, start=1):
        a = rng.standard_normal(n, dtype=np.float32)
        b = rng.standard_normal(n, dtype=np.float32)
        builder = GraphBuilder(f"add_{n}")
        x1, x2 = builder.create_input(0, shape=[n]), builder.create_input(1, shape=[n])
        session.add_graph(graph_id, builder.build_and_reset([PythonCompilableAddCustom(x1, x2)]))
        # built from numpy for setup speed (a 16M-element Python list costs seconds); same Tensor type
        inputs = [Tensor._from_numpy(a, DataType.DT_FLOAT), Tensor._from_numpy(b, DataType.DT_FLOAT)]
        (out,) = session.run_graph(graph_id, inputs)  # compiles and loads
        assert np.array_equal(out._to_numpy().reshape(-1), a + b)
        reps = _repeats(n)
        ge_us = _median_us(lambda: session.run_graph(graph_id, inputs), reps)

        graph = helper.make_graph([helper.make_node("Add", ["A", "B"], ["C"])], f"add_{n}",
                                  [helper.make_tensor_value_info("A", TensorProto.FLOAT, [n]),
                                   helper.make_tensor_value_info("B", TensorProto.FLOAT, [n])],
                                  [helper.make_tensor_value_info("C", TensorProto.FLOAT, [n])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        assert np.array_equal(sess.run(None, {"A": a, "B": b})[0], a + b)
        ort_us = _median_us(lambda: sess.run(None, {"A": a, "B": b}), reps)
        np_us = _median_us(lambda: np.add(a, b), reps)
        # where a run's time goes, outside in: the Session call, the loaded model's run, and the
        # bare aclmdlExecute (internals of the twin's backend; absent on another backend)
        model = getattr(session._graphs.get(graph_id), "model", None)
        model = getattr(model, "_loaded", model)  # the SessionModel wraps the LoadedModel
        arrays = [t._array for t in inputs]
        model_us = _median_us(lambda: model.run(arrays), reps) if hasattr(model, "run") else None
        execute = getattr(model, "_execute", None)
        exec_us = _median_us(lambda: execute(*model._exec_args), reps) if execute is not None else None
        rows.append({"n": n, "ge_us": ge_us, "ort_us": ort_us, "np_us": np_us, "model_us": model_us,
                     "exec_us": exec_us,
                     "profile": _profile(lambda: session.run_graph(graph_id, inputs), reps)})
    GeApi.ge_finalize()
    return rows


# ---- parent side ---------------------------------------------------------------------------------

def _child(args, env) -> dict:
    import harness
    proc = harness.run_python([str(Path(__file__).absolute()), CHILD_FLAG, *args], env, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark child {args} failed (exit {proc.returncode})")
    line = [l for l in proc.stdout.splitlines() if l.startswith("BENCH_JSON=")][-1]
    return json.loads(line[len("BENCH_JSON="):])


def _gbps(n: int, us: float) -> float:
    return 12 * n / (us * 1e-6) / 1e9  # read x1, x2, write y


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default=None)
    parser.add_argument("--sizes", default="1024,65536,16777216")
    parser.add_argument("--profile", action="store_true", help="print run_graph's cProfile per size")
    parser.add_argument("--json-out", help="also write the measurements to this JSON file")
    parser.add_argument(CHILD_FLAG, nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, soc, rest = args.child[0], args.child[1], args.child[2:]
        if kind == "compile":
            result = child_compile(soc, rest[0])
        else:
            result = child_run(soc, [int(s) for s in rest[0].split(",")])
        print("BENCH_JSON=" + json.dumps(result))
        return 0

    # the parent runs under Bazel (harness, ge_op_testing on sys.path); children get a clean env
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent / "tests"))  # stay in runfiles
    import harness

    paths = harness.sample_paths()
    soc = args.soc or paths.soc
    cache = harness.scratch_dir("bench-kcache")
    # bisheng's header PCH is per machine and flag set, not per kernel: a first compile into a
    # throw-away kernel cache builds it (reported apart), then "cold" means an empty kernel cache
    pch = {"BISHENG_PCH_CACHE": str(harness.scratch_dir("bench-pch"))}
    first = _child(["compile", soc, "cold"],
                   harness.clean_env(paths, kernel_cache=harness.scratch_dir("bench-kcache-first"), extra=pch))
    env = harness.clean_env(paths, kernel_cache=cache, extra=pch)
    cold = _child(["compile", soc, "cold"], env)
    hit = _child(["compile", soc, "cache"], env)
    print(f"\ncompile() of PythonCompilableAddCustom [4096] for {soc} (through GE's bridge call_compile)")
    print(f"{'case':<46}{'time':>14}{'vs cold':>12}")
    rows = [("first on the machine (also builds bisheng's PCH)", first["first_us"]),
            ("cold (empty kernel cache, bisheng + objcopy)", cold["first_us"]),
            ("warm, same holder (bridge call, median)", cold["warm_us"]),
            ("warm, same holder (method only, median)", cold["warm_method_us"]),
            ("new process, kernel cache hit (first call)", hit["first_us"]),
            ("new process, more fresh holders (median)", hit["fresh_holder_median_us"])]
    for name, us in rows:
        print(f"{name:<46}{us:>11.1f} us{cold['first_us'] / us:>11.0f}x")

    sizes = [int(s) for s in args.sizes.split(",")]
    runs = _child(["run", soc, ",".join(map(str, sizes))], env)
    print("\nSession.run_graph vs ONNX Runtime vs numpy, y = x1 + x2 (float32), median latency")
    print(f"{'floats':>10}{'run_graph':>14}{'onnxruntime':>14}{'numpy':>12}{'rg/ort':>9}{'rg/np':>9}"
          f"{'rg GB/s':>9}{'ort GB/s':>9}")
    for r in runs:
        n = r["n"]
        print(f"{n:>10}{r['ge_us']:>11.1f} us{r['ort_us']:>11.1f} us{r['np_us']:>9.1f} us"
              f"{r['ge_us'] / r['ort_us']:>9.2f}{r['ge_us'] / r['np_us']:>9.2f}"
              f"{_gbps(n, r['ge_us']):>9.2f}{_gbps(n, r['ort_us']):>9.2f}")
    print("\nrun_graph's time, outside in (median us): Session.run_graph / the loaded model's run / "
          "bare aclmdlExecute")
    for r in runs:
        parts = [f"{r[k]:.1f}" if r.get(k) is not None else "-" for k in ("ge_us", "model_us", "exec_us")]
        print(f"{r['n']:>10}  " + " / ".join(parts))
    if args.json_out:
        summary = {"soc": soc, "compile_first_us": first["first_us"], "compile_cold_us": cold["first_us"], "compile_warm_us": cold["warm_us"],
                   "compile_cache_hit_us": hit["first_us"],
                   "run_graph": [{k: r[k] for k in ("n", "ge_us", "ort_us", "np_us")} for r in runs]}
        tmp = Path(args.json_out + ".tmp")
        tmp.write_text(json.dumps(summary, indent=1))
        tmp.replace(args.json_out)
    if args.profile:
        for r in runs:
            print(f"\nrun_graph profile at {r['n']} floats (cProfile, own time, all runs):\n{r['profile']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
