"""bazel test //ops/add_n_scaled_custom:offline_test — the three-backend graph offline.

An OM runs without Python (GE's rule: an OM whose op relies on execute needs Python at run time;
dynamic-shape custom ops run through execute), so atc refuses it with one E10001 line naming why:
first its inputs left dynamic by --input_shape_range, then, with static shapes, the execute op.
The compile-path part alone becomes an OM once --input_shape fixes the -1 dims, and runs with
pyACL, equal to numpy."""

import ge_op_testing as t
from three_ops_env import three_ops_env

N = 3072


def _atc(env, soc, air, out, *flags):
    return t.run(["atc", f"--model={air}", "--framework=1", f"--output={out}", f"--soc_version={soc}", *flags], env)


def _refusal(proc) -> str:
    assert proc.returncode == 255, proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[-2].startswith("ATC run failed"), lines
    return lines[-1]


def test_offline_refuses_execute_and_dynamic_shapes_and_runs_the_static_part():
    paths, env = three_ops_env()
    work = t.scratch_dir("offline")
    proc = t.run_python([str(paths.package / "tests" / "offline_case.py"), "air", str(work)], env)
    assert proc.returncode == 0, proc.stderr
    three = work / "three_backends.air"

    ranges = "x1:[1~65536];x2:[1~65536];x3:[1~65536]"
    line = _refusal(_atc(env, paths.soc, three, work / "a", f"--input_shape_range={ranges}"))
    assert line.startswith("E10001: Value [" + ranges + "] for parameter [--input_shape_range] is invalid."), line
    assert "graph input x1 has dynamic shape [-1]" in line and "ranges x1:[1~65536]" in line

    static = f"x1:{N};x2:{N};x3:{N}"
    line = _refusal(_atc(env, paths.soc, three, work / "b", f"--input_shape={static}"))
    assert line.startswith(f"E10001: Value [{three}] for parameter [--model] is invalid."), line
    assert "(op AddNScaledCustom) runs a Python execute (DEVICE backend)" in line
    assert "an offline model runs without Python" in line
    assert not list(work.glob("*.om")), "nothing written for a refused model"

    proc = _atc(env, paths.soc, work / "adds.air", work / "adds", f"--input_shape={static}")
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines()[-1] == "ATC run success, welcome to the next use."
    run_env = dict(env)
    del run_env["ASCEND_CUSTOM_OPP_PATH"]  # the OM needs no plugin
    seed = t.new_seed("ADD_N_SCALED_SEED")
    proc = t.run_python([str(paths.package / "tests" / "offline_case.py"), "run", str(work / "adds.om"), str(N),
                         str(seed)], run_env)
    assert proc.returncode == 0, proc.stderr
    assert f"OFFLINE_OM=PASS n={N} ge_imported=False" in proc.stdout
