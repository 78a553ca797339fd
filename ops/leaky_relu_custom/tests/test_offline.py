"""bazel test //ops/leaky_relu_custom:offline_test — the OM atc built from the C++ ES graph
(:leaky_relu_custom_om, seeded with :leaky_relu_custom_kernel), run with pyACL in a clean environment whose
ASCEND_CUSTOM_OPP_PATH holds only the OPP root (no Python plugin, as CANN's offline runs)."""

import os
from pathlib import Path

import ge_op_testing as t


def test_atc_compiled_the_graph_with_the_holder():
    log = Path(os.environ["ATC_LOG"]).read_text()
    print(log)
    assert "ATC run success" in log
    assert "LEAKY_RELU_COMPILE mode=offline" in log
    # atc_om seeded atc's kernel cache with :leaky_relu_custom_kernel: the holder compiled nothing
    assert "LEAKY_RELU_KERNEL source=cache" in log and "source=bisheng" not in log


def test_om_runs_with_pyacl_and_matches_numpy():
    paths = t.op_paths("ops/leaky_relu_custom", "leaky_relu_custom")
    seed = t.new_seed("LEAKY_RELU_SEED")
    env = t.clean_env(paths, extra={"ASCEND_CUSTOM_OPP_PATH": str(paths.opp_root)})
    proc = t.run_python(
        [
            str(paths.package / "tests" / "run_om.py"),
            str(Path(os.environ["MODEL_OM"]).absolute()),
            os.environ["N16"],
            os.environ["N32"],
            os.environ["SLOPE"],
            str(seed),
        ],
        env,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(line.startswith("float16: y == leaky_relu(x, ") for line in lines)
    assert any(line.startswith("float32: y == leaky_relu(x, ") for line in lines)
    assert lines[-1] == "LEAKY_RELU_OFFLINE_OM=PASS"
