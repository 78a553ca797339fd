#!/usr/bin/env python3
"""Benchmark of the sample: compile() cold / warm / from the kernel cache in a new process, and
Session.run_graph median latency against ONNX Runtime and numpy on the same Add, in one run.

    bazel run -c opt //ops/add_custom:bench_add_custom [-- --sizes 1024,65536,16777216 --soc Ascend910B1]
        [--profile] [--launch-modes 2048,8192,16384,65536] [--syscalls 1024,65536]

The benchmark re-executes itself in a clean environment (the CANN-like tree only, like the
tests) and prints tables; it asserts nothing about time. run_graph, ONNX Runtime and numpy are
timed in turn, ROUNDS times, and each reports its best median. Per size it also shows where a
run's time goes (Session call / loaded model's run / bare aclmdlExecute) and the context
switches per run in the host and the device process; --profile adds run_graph's cProfile,
--launch-modes the device's fan-out choice, --syscalls a strace count per run.
"""

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CHILD_FLAG = "--child"
# the shared timing helpers (//tests/bench:bench_timing), found in the runfiles by the parent and
# by the child, which runs in a clean environment
sys.path.insert(0, str(Path(__file__).absolute().parents[3] / "tests" / "bench"))
from bench_timing import median_us as _median_us  # noqa: E402  # after the sys.path entry it needs
from bench_timing import profile as _profile  # noqa: E402


def _repeats(n: int) -> int:
    return 2000 if n <= 4096 else 300 if n <= 1 << 20 else 15


ROUNDS = 3  # run_graph, ONNX Runtime and numpy timed in turn, this many times; best median each


def _context_switches(pid: int) -> int:
    """Voluntary + involuntary context switches of every thread of `pid` so far: each is a
    wake-up (a sleep on a futex) or a yield/preemption that handed the core away."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[1])
        except OSError:  # the thread ended meanwhile
            pass
    return total


def _child_pids() -> list:
    """This process's children (the twin's device process), from /proc."""
    me, found = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == me:
                found.append(int(entry.name))
    return found


def _huge_page_share(array) -> float:
    """The share of `array`'s mapping backed by 2 MiB pages (/proc/self/smaps: AnonHugePages, or
    ShmemPmdMapped for shared memory), 0.0 to 1.0. At 16M floats a 4 KiB-page array costs a page
    walk every 4 KiB; the twin's device memory is shared memory, which gets huge pages only where
    the machine's shmem_enabled allows, while a process's own arrays may get them (numpy
    madvises large ones): printed so that a run can tell whether page size made a difference."""
    address = array.__array_interface__["data"][0]
    size = huge = 0
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(x, 16) for x in head.split("-"))
            inside = lo <= address < hi
            if inside:
                size = hi - lo
        elif inside and head in ("AnonHugePages:", "ShmemPmdMapped:"):
            huge += int(line.split()[1]) * 1024
    return huge / size if size else 0.0


def _switches_per_run(fn, runs: int) -> tuple:
    """(host, device process) context switches per call of fn, over `runs` calls."""
    children = _child_pids()
    host0, dev0 = _context_switches(os.getpid()), sum(_context_switches(p) for p in children)
    for _ in range(runs):
        fn()
    host1, dev1 = _context_switches(os.getpid()), sum(_context_switches(p) for p in children)
    return (host1 - host0) / runs, (dev1 - dev0) / runs


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
    ir_meta = {
        "inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}],
        "attrs": [],
        "outputs": [{"name": "y", "kind": 0}],
    }
    holder = _new_holder(key)
    start = time.perf_counter_ns()
    _bridge.call_compile(holder, ir_meta, _compile_ctx_for(4096, soc))
    first_us = (time.perf_counter_ns() - start) / 1e3
    result = {"first_us": first_us}
    if mode == "cold":
        result["warm_us"] = _median_us(lambda: _bridge.call_compile(holder, ir_meta, _compile_ctx_for(4096, soc)), 500)
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


@contextlib.contextmanager
def _ge_session(soc: str):
    """GE initialized for `soc`, one Session, finalized at the end."""
    from ge.ge_global import GeApi
    from ge.session import Session

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": soc})
    try:
        yield Session()
    finally:
        GeApi.ge_finalize()


def _add_graph(session, graph_id: int, n: int):
    """Adds y = x1 + x2 over n floats as `graph_id`, compiles and checks it with a first run;
    returns (a, b, the input Tensors)."""
    from es_custom import PythonCompilableAddCustom

    from ge.es.graph_builder import GraphBuilder
    from ge.graph import DataType, Tensor

    rng = np.random.default_rng(1234 + n)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    builder = GraphBuilder(f"add_{n}")
    x1, x2 = builder.create_input(0, shape=[n]), builder.create_input(1, shape=[n])
    session.add_graph(graph_id, builder.build_and_reset([PythonCompilableAddCustom(x1, x2)]))
    # built from numpy for setup speed (a 16M-element Python list costs seconds); same Tensor type
    inputs = [Tensor._from_numpy(a, DataType.DT_FLOAT), Tensor._from_numpy(b, DataType.DT_FLOAT)]
    (out,) = session.run_graph(graph_id, inputs)  # compiles and loads
    assert np.array_equal(out._to_numpy().reshape(-1), a + b)
    return a, b, inputs


def child_launch(soc: str, sizes) -> list:
    """run_graph alone per size (the launch-mode table: the parent sets the mode's env)."""
    rows = []
    with _ge_session(soc) as session:
        for graph_id, n in enumerate(sizes, start=1):
            _, _, inputs = _add_graph(session, graph_id, n)
            rows.append(
                {
                    "n": n,
                    "ge_us": min(
                        _median_us(lambda: session.run_graph(graph_id, inputs), _repeats(n)) for _ in range(ROUNDS)
                    ),
                }
            )
    return rows


def child_loop(soc: str, n: int, runs: int) -> dict:
    """`runs` run_graph calls after setup and warm-up (the system-call count: the parent runs
    this under strace with runs=0 and runs=N and takes the difference)."""
    with _ge_session(soc) as session:
        _, _, inputs = _add_graph(session, 1, n)
        for _ in range(200 + runs):
            session.run_graph(1, inputs)
    return {"n": n, "runs": runs}


def _ort_add(n: int):
    """ONNX Runtime's CPU session of the same y = A + B over n floats."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Add", ["A", "B"], ["C"])],
        f"add_{n}",
        [
            helper.make_tensor_value_info("A", TensorProto.FLOAT, [n]),
            helper.make_tensor_value_info("B", TensorProto.FLOAT, [n]),
        ],
        [helper.make_tensor_value_info("C", TensorProto.FLOAT, [n])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def _breakdown(session, graph_id: int, inputs, reps: int) -> dict:
    """Where a run's time goes, outside in: the loaded model's run and the bare aclmdlExecute
    (internals of the twin's backend; None on another backend)."""
    entry = session._graphs.get(graph_id)
    run = entry.run  # the model's run as the Session calls it
    model = getattr(entry.model, "_loaded", entry.model)  # the SessionModel wraps the LoadedModel
    arrays = [t._array for t in inputs]
    execute = getattr(model, "_execute", None)
    return {
        "model_us": _median_us(lambda: run(arrays), reps),
        "exec_us": _median_us(lambda: execute(*model._exec_args), reps) if execute is not None else None,
    }


def child_run(soc: str, sizes) -> list:
    rows = []
    with _ge_session(soc) as session:
        for graph_id, n in enumerate(sizes, start=1):
            a, b, inputs = _add_graph(session, graph_id, n)
            reps = _repeats(n)
            sess = _ort_add(n)
            assert np.array_equal(sess.run(None, {"A": a, "B": b})[0], a + b)
            contenders = {
                "ge_us": lambda: session.run_graph(graph_id, inputs),
                "ort_us": lambda: sess.run(None, {"A": a, "B": b}),
                "np_us": lambda: np.add(a, b),
            }
            best = {key: _median_us(fn, reps) for key, fn in contenders.items()}
            for _ in range(ROUNDS - 1):  # in turn, so that a noisy moment hits every contender alike
                for key, fn in contenders.items():
                    best[key] = min(best[key], _median_us(fn, reps))
            host_cs, device_cs = _switches_per_run(contenders["ge_us"], 4 * reps)
            huge = {
                "huge_input": _huge_page_share(a),
                "huge_ge_out": _huge_page_share(contenders["ge_us"]()[0]._array),
                "huge_ort_out": _huge_page_share(contenders["ort_us"]()[0]),
            }
            rows.append(
                {
                    "n": n,
                    **best,
                    **_breakdown(session, graph_id, inputs, reps),
                    **huge,
                    "host_switches": host_cs,
                    "device_switches": device_cs,
                    "profile": _profile(contenders["ge_us"], reps),
                }
            )
    return rows


# ---- parent side ---------------------------------------------------------------------------------


def _child(args, env, prefix=()) -> dict:
    """Runs this file as a child (after `prefix`, e.g. strace) in `env`; its output is shown only
    when it fails (the compile child prints a marker line per compile)."""
    argv = [*prefix, sys.executable, str(Path(__file__).absolute()), CHILD_FLAG, *args]
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        print(f"$ {' '.join(argv)}\n--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}", flush=True)
        raise SystemExit(f"benchmark child {args} failed (exit {proc.returncode})")
    line = [out for out in proc.stdout.splitlines() if out.startswith("BENCH_JSON=")][-1]
    return json.loads(line[len("BENCH_JSON=") :])


# The launch modes compared by --launch-modes: the device's small-launch path by its threshold
# (ASCEND_TWIN_INLINE_LAUNCH_NS, twin/runtime README "Small launches").
LAUNCH_MODES = (
    ("always fan out", {"ASCEND_TWIN_INLINE_LAUNCH_NS": "0"}),
    ("default", {}),
    ("never fan out", {"ASCEND_TWIN_INLINE_LAUNCH_NS": str(10**9)}),
)


def launch_modes(soc: str, env: dict, sizes) -> None:
    """run_graph per size with the device fanning blocks out to its workers always, by the
    small-launch rule, or never; children alternated, best of 2 each."""
    best = {}
    for _ in range(2):
        for name, extra in LAUNCH_MODES:
            for r in _child(["launch", soc, ",".join(map(str, sizes))], {**env, **extra}):
                best[name, r["n"]] = min(best.get((name, r["n"]), float("inf")), r["ge_us"])
    print("\nrun_graph median us by how the device runs a launch's blocks (add_custom: 1024 floats a block)")
    print(f"{'floats':>10}{'blocks':>8}" + "".join(f"{name:>18}" for name, _ in LAUNCH_MODES))
    for n in sizes:
        print(f"{n:>10}{n // 1024:>8}" + "".join(f"{best[name, n]:>15.1f} us" for name, _ in LAUNCH_MODES))


def _strace_calls(args, env) -> dict:
    """System calls of one child, all its processes and threads: {name: calls} (strace -c -f)."""
    with tempfile.NamedTemporaryFile(suffix=".strace") as out:
        _child(args, env, prefix=("strace", "-f", "-c", "-o", out.name))
        calls = {}
        for line in Path(out.name).read_text().splitlines():
            parts = line.split()
            if len(parts) >= 5 and parts[3].isdigit() and parts[-1] != "total":
                calls[parts[-1]] = int(parts[3])
        return calls


def syscalls_per_run(soc: str, env: dict, sizes, runs: int = 2000) -> None:
    """System calls per run_graph, host and device process together: strace of `runs` runs
    minus strace of none. strace slows every call, so waits poll longer and yield more often
    than without it: the yields are an upper bound; the other counts are exact."""
    print(f"\nsystem calls per run_graph (strace -c -f, {runs} runs minus 0 runs; calls under 0.01 per run left out)")
    if shutil.which("strace") is None:
        print("  (strace is not installed: no counts)")
        return
    for n in sizes:
        base, loaded = (
            _strace_calls(["loop", soc, str(n), "0"], env),
            _strace_calls(["loop", soc, str(n), str(runs)], env),
        )
        per_run = {name: (loaded.get(name, 0) - base.get(name, 0)) / runs for name in loaded}
        shown = ", ".join(
            f"{name} {count:.2f}" for name, count in sorted(per_run.items(), key=lambda kv: -kv[1]) if count >= 0.01
        )
        print(f"{n:>10}  {shown or 'none'}")


def _gbps(n: int, us: float) -> float:
    return 12 * n / (us * 1e-6) / 1e9  # read x1, x2, write y


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default=None)
    parser.add_argument("--sizes", default="1024,65536,16777216")
    parser.add_argument("--profile", action="store_true", help="print run_graph's cProfile per size")
    parser.add_argument("--json-out", help="also write the measurements to this JSON file")
    parser.add_argument(
        "--launch-modes",
        metavar="SIZES",
        help="also time run_graph at these sizes with the device's blocks fanned out always / "
        "by the small-launch rule / never (e.g. 2048,8192,16384,65536)",
    )
    parser.add_argument("--syscalls", metavar="SIZES", help="also count system calls per run_graph (strace)")
    parser.add_argument(CHILD_FLAG, nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, soc, rest = args.child[0], args.child[1], args.child[2:]
        if kind == "compile":
            result = child_compile(soc, rest[0])
        elif kind == "launch":
            result = child_launch(soc, [int(s) for s in rest[0].split(",")])
        elif kind == "loop":
            result = child_loop(soc, int(rest[0]), int(rest[1]))
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
    first = _child(
        ["compile", soc, "cold"],
        harness.clean_env(paths, kernel_cache=harness.scratch_dir("bench-kcache-first"), extra=pch),
    )
    env = harness.clean_env(paths, kernel_cache=cache, extra=pch)
    cold = _child(["compile", soc, "cold"], env)
    hit = _child(["compile", soc, "cache"], env)
    print(f"\ncompile() of PythonCompilableAddCustom [4096] for {soc} (through GE's bridge call_compile)")
    print(f"{'case':<46}{'time':>14}{'vs cold':>12}")
    rows = [
        ("first on the machine (also builds bisheng's PCH)", first["first_us"]),
        ("cold (empty kernel cache, bisheng + objcopy)", cold["first_us"]),
        ("warm, same holder (bridge call, median)", cold["warm_us"]),
        ("warm, same holder (method only, median)", cold["warm_method_us"]),
        ("new process, kernel cache hit (first call)", hit["first_us"]),
        ("new process, more fresh holders (median)", hit["fresh_holder_median_us"]),
    ]
    for name, us in rows:
        print(f"{name:<46}{us:>11.1f} us{cold['first_us'] / us:>11.0f}x")

    sizes = [int(s) for s in args.sizes.split(",")]
    runs = _child(["run", soc, ",".join(map(str, sizes))], env)
    print("\nSession.run_graph vs ONNX Runtime vs numpy, y = x1 + x2 (float32), median latency")
    print(
        f"{'floats':>10}{'run_graph':>14}{'onnxruntime':>14}{'numpy':>12}{'rg/ort':>9}{'rg/np':>9}"
        f"{'rg GB/s':>9}{'ort GB/s':>9}"
    )
    for r in runs:
        n = r["n"]
        print(
            f"{n:>10}{r['ge_us']:>11.1f} us{r['ort_us']:>11.1f} us{r['np_us']:>9.1f} us"
            f"{r['ge_us'] / r['ort_us']:>9.2f}{r['ge_us'] / r['np_us']:>9.2f}"
            f"{_gbps(n, r['ge_us']):>9.2f}{_gbps(n, r['ort_us']):>9.2f}"
        )
    print(
        "\nrun_graph's time, outside in (median us): Session.run_graph / the loaded model's run / "
        "bare aclmdlExecute; context switches per run_graph (host process, device process)"
    )
    for r in runs:
        parts = [f"{r[k]:.1f}" if r.get(k) is not None else "-" for k in ("ge_us", "model_us", "exec_us")]
        print(
            f"{r['n']:>10}  "
            + " / ".join(parts)
            + f"{'':8}switches {r['host_switches']:.2f} host, {r['device_switches']:.2f} device"
        )
    print(
        "\nshare of each array's mapping on 2 MiB pages (input x1, as both read it; run_graph's output; "
        "ONNX Runtime's output)"
    )
    for r in runs:
        print(f"{r['n']:>10}  {r['huge_input']:.0%} / {r['huge_ge_out']:.0%} / {r['huge_ort_out']:.0%}")
    if args.launch_modes:
        launch_modes(soc, env, [int(s) for s in args.launch_modes.split(",")])
    if args.syscalls:
        syscalls_per_run(soc, env, [int(s) for s in args.syscalls.split(",")])
    if args.json_out:
        summary = {
            "soc": soc,
            "compile_first_us": first["first_us"],
            "compile_cold_us": cold["first_us"],
            "compile_warm_us": cold["warm_us"],
            "compile_cache_hit_us": hit["first_us"],
            "run_graph": [
                {
                    k: r[k]
                    for k in (
                        "n",
                        "ge_us",
                        "ort_us",
                        "np_us",
                        "model_us",
                        "exec_us",
                        "host_switches",
                        "device_switches",
                        "huge_input",
                        "huge_ge_out",
                        "huge_ort_out",
                    )
                }
                for r in runs
            ],
        }
        tmp = Path(args.json_out + ".tmp")
        tmp.write_text(json.dumps(summary, indent=1))
        tmp.replace(args.json_out)
    if args.profile:
        for r in runs:
            print(f"\nrun_graph profile at {r['n']} floats (cProfile, own time, all runs):\n{r['profile']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
