"""bazel test //ops/matmul_leakyrelu_custom:offline_test — the OM atc built from the C++ ES graph
(:matmul_leakyrelu_custom_om; the holder's tiling through MultiCoreMatmulTiling at atc time), run
with pyACL in a clean environment whose ASCEND_CUSTOM_OPP_PATH holds only the OPP root."""

import os
from pathlib import Path

import ge_op_testing as t


def test_atc_compiled_the_graph_with_the_holder():
    log = Path(os.environ["ATC_LOG"]).read_text()
    assert "ATC run success" in log, log
    assert "MATMUL_LEAKYRELU_COMPILE soc=" in log and f"M={os.environ['M']} N={os.environ['N']}" in log, log


def test_om_runs_with_pyacl_and_matches_numpy():
    paths = t.op_paths("ops/matmul_leakyrelu_custom", "matmul_leakyrelu_custom")
    seed = t.new_seed("MATMUL_LEAKYRELU_SEED")
    env = t.clean_env(paths, extra={"ASCEND_CUSTOM_OPP_PATH": str(paths.opp_root)})
    proc = t.run_python(
        [
            str(paths.package / "tests" / "run_om.py"),
            str(Path(os.environ["MODEL_OM"]).absolute()),
            os.environ["M"],
            os.environ["N"],
            os.environ["K"],
            os.environ["SLOPE"],
            str(seed),
        ],
        env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "MATMUL_LEAKYRELU_OFFLINE_OM=PASS"
