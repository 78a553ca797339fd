"""bazel test //ops/rms_norm_custom:offline_test — the OM atc built from the C++ ES graph
(:rms_norm_custom_om: the holder's host tiling ran inside atc), run by the C++ ACL runner
//offline:om_file_run (no Python in its process) on numpy's random data, in a clean environment
whose ASCEND_CUSTOM_OPP_PATH holds only the OPP root; y16 and y32 checked with rms_norm_check."""

import os
from pathlib import Path

import ge_op_testing as t
import numpy as np
import rms_norm_check


def _shapes():
    d = [int(v) for v in os.environ["OFFLINE_SHAPES"].split(",")]
    return (d[0], d[1], d[2]), (d[3], d[4], d[5])


def test_atc_compiled_the_graph_with_the_holder():
    log = Path(os.environ["ATC_LOG"]).read_text()
    assert "ATC run success" in log, log
    shape16, shape32 = _shapes()
    assert "RMS_NORM_COMPILE soc=" in log and f"shape={list(shape16)} dtype=DT_FLOAT16" in log, log
    assert f"shape={list(shape32)} dtype=DT_FLOAT " in log, log
    # atc_om seeded atc's kernel cache with :rms_norm_custom_kernel: the holder compiled nothing
    assert "RMS_NORM_KERNEL source=cache" in log and "source=bisheng" not in log, log


def test_om_runs_with_the_cxx_acl_runner_and_matches_numpy(tmp_path):
    paths = t.op_paths("ops/rms_norm_custom", "rms_norm_custom")
    seed = t.new_seed("RMS_NORM_SEED")
    rng = np.random.default_rng(seed)
    epsilon = float(os.environ["EPSILON"])
    cases = [
        rms_norm_check.random_inputs(rng, shape, shape[-1], np_type)
        for shape, np_type in zip(_shapes(), (np.float16, np.float32))
    ]
    inputs = []
    for i, array in enumerate(a for case in cases for a in case):
        inputs.append(tmp_path / f"in{i}.bin")
        array.tofile(inputs[-1])
    outputs = [tmp_path / "y16.bin", tmp_path / "y32.bin"]
    env = t.clean_env(paths, extra={"ASCEND_CUSTOM_OPP_PATH": str(paths.opp_root)})
    proc = t.run(
        [
            str(Path(os.environ["OM_FILE_RUN"]).absolute()),
            str(Path(os.environ["MODEL_OM"]).absolute()),
            *map(str, inputs),
            "--",
            *map(str, outputs),
        ],
        env,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("OM_FILE_RUN=PASS ")
    for (x, gamma), out in zip(cases, outputs):
        got = np.fromfile(out, dtype=x.dtype)
        assert got.size == x.size
        assert rms_norm_check.compare(f"{x.dtype.name} {'x'.join(map(str, x.shape))}", got, x, gamma, epsilon)


def test_runner_refuses_an_input_of_the_wrong_size_and_writes_nothing(tmp_path):
    paths = t.op_paths("ops/rms_norm_custom", "rms_norm_custom")
    short = tmp_path / "short.bin"
    short.write_bytes(b"\0" * 6)
    outputs = [tmp_path / "y16.bin", tmp_path / "y32.bin"]
    env = t.clean_env(paths, extra={"ASCEND_CUSTOM_OPP_PATH": str(paths.opp_root)})
    proc = t.run(
        [
            str(Path(os.environ["OM_FILE_RUN"]).absolute()),
            str(Path(os.environ["MODEL_OM"]).absolute()),
            *[str(short)] * 4,
            "--",
            *map(str, outputs),
        ],
        env,
    )
    assert proc.returncode == 1
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 1 and f"input 0 file '{short}' holds 6 bytes, the model's input 0 is " in errors[0], errors
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.bin"]


def test_runner_has_no_python_in_its_process():
    """om_file_run links the ACL runtime only (//twin/runtime:ascendcl, as offline:model_exec): no
    libpython among its libraries, transitively."""
    paths = t.op_paths("ops/rms_norm_custom", "rms_norm_custom")
    proc = t.run(["ldd", str(Path(os.environ["OM_FILE_RUN"]).absolute())], t.clean_env(paths))
    assert proc.returncode == 0, proc.stderr
    assert "libc.so" in proc.stdout and "libpython" not in proc.stdout, proc.stdout
