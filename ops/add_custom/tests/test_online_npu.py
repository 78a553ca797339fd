"""bazel test //ops/add_custom:online_npu — the seed's online flow (run.py) in a clean environment."""

import re

import ge_op_testing
import harness

SIZES = [1024, 3072, 65536, 262144]


def test_run_py_prints_markers_and_adds():
    paths = harness.sample_paths()
    seed = harness.new_seed()
    proc = harness.run_python(
        [str(paths.run_py), "--soc", paths.soc, "--sizes", ",".join(map(str, SIZES)), "--seed", str(seed)],
        harness.clean_env(paths),
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count("PY_COMPILE_MODULE_LOADED=1") == 1
    arch = ge_op_testing.npu_arch(paths.cann_home, paths.soc)
    entered = [line for line in lines if line.startswith("PY_COMPILE_CALLBACK_ENTER=1")]
    assert entered == [
        f"PY_COMPILE_CALLBACK_ENTER=1 mode=online soc={paths.soc} arch={arch} shape=[{n}]" for n in SIZES
    ]
    for n in SIZES:
        assert f"size {n}: y == x1 + x2 ({n} floats)" in lines
    assert lines[-1] == "PY_COMPILE_ONLINE_NPU=PASS"
    assert re.search(rf"^seed={seed} soc={paths.soc}$", proc.stdout, re.M)


def test_second_process_is_served_by_kernel_cache():
    """A new process with the same kernel cache does not run bisheng again."""
    paths = harness.sample_paths()
    cache = harness.scratch_dir("shared-kcache")
    env = harness.clean_env(paths, kernel_cache=cache)
    first = harness.run_python([str(paths.run_py), "--soc", paths.soc, "--sizes", "2048"], env)
    assert first.returncode == 0
    assert "ADD_CUSTOM_KERNEL source=bisheng" in first.stderr
    entries = sorted(cache.rglob("*.aicore"))
    assert len(entries) == 1
    stamp = entries[0].stat().st_mtime_ns
    second = harness.run_python([str(paths.run_py), "--soc", paths.soc, "--sizes", "2048"], env)
    assert second.returncode == 0
    assert "ADD_CUSTOM_KERNEL source=cache" in second.stderr
    assert "ADD_CUSTOM_KERNEL source=bisheng" not in second.stderr
    assert entries[0].stat().st_mtime_ns == stamp  # served, not rewritten
