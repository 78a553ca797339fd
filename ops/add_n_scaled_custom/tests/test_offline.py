"""bazel test //ops/add_n_scaled_custom:offline_test — the three-backend graph offline.

GE's rule: a graph with a Python op that relies on execute (or with inputs left dynamic) becomes a
model that cannot run without the Python environment. atc therefore writes the three-backend
graph, with --input_shape_range, as an OM that runs through Python; the C++ ACL program
three_ops_exec (no Python code of its own) loads it once and runs it for several sizes, compared
with a host reference, while each new size is compiled once and a size seen before is not. A size
outside the range, a missing plugin or prototype and a missing Python are refused with one line.
The graph's compile-path part alone still becomes a static OM that runs with no Python at all."""

import os
import re

import ge_op_testing as t
import pytest
from three_ops_env import three_ops_env

N = 3072
RANGES = "x1:[1~65536];x2:[1~65536];x3:[1~65536]"


def _atc(env, soc, air, out, *flags):
    return t.run(["atc", f"--model={air}", "--framework=1", f"--output={out}", f"--soc_version={soc}", *flags], env)


def _built(proc) -> None:
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines()[-1] == "ATC run success, welcome to the next use."


def _exec(env, *args):
    return t.run([str(t.runfiles_root() / "ops" / "add_n_scaled_custom" / "three_ops_exec"), *map(str, args)], env)


@pytest.fixture(scope="module")
def models():
    """(paths, env, work dir): the AIRs, the dynamic three-backend OM and the static adds OM."""
    paths, env = three_ops_env()
    work = t.scratch_dir("offline")
    # not the runfiles root: three_ops_exec brings a twin/ package there, which would shadow the
    # install tree's `twin` modules for atc (python -m puts the working directory first)
    os.chdir(work)
    proc = t.run_python([str(paths.package / "tests" / "offline_case.py"), "air", str(work)], env)
    assert proc.returncode == 0, proc.stderr
    _built(_atc(env, paths.soc, work / "three_backends.air", work / "three", f"--input_shape_range={RANGES}"))
    _built(_atc(env, paths.soc, work / "adds.air", work / "adds", f"--input_shape=x1:{N};x2:{N};x3:{N}"))
    return paths, env, work


def test_three_backend_om_runs_for_several_sizes_from_cpp(models):
    paths, env, work = models
    seed = t.new_seed("ADD_N_SCALED_SEED")
    sizes = [1024, 5120, 1024, 65536, 5120]
    proc = _exec(env, f"--static_om={work / 'adds.om'}", work / "three.om", 0.5, seed, *sizes, "!66560")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "PY_COMPILE_OFFLINE_DYNAMIC=PASS" in out
    assert "STATIC_OM_LOADED libpython=0" in out  # a static OM never loads Python
    assert "DYNAMIC_OM_LOADED libpython=1" in out
    for n in sorted(set(sizes)):
        assert f"three_backends size {n}: e, b, d == reference" in out
        # compiled once per new size: the execute op's compile and both add_custom nodes'
        assert len(re.findall(rf"ADD_N_SCALED_COMPILE .* shape=\[{n}\] ", out)) == 1, n
        assert len(re.findall(rf"PY_COMPILE_CALLBACK_ENTER=1 .* shape=\[{n}\]$", out, re.M)) == 2, n
    assert "input 0 x1 dims=[-1] range=[1,65536] size=0" in out
    assert re.search(r"^output 0 \S+ size=0$", out, re.M), out  # CANN: -1 dims -> 0
    assert re.search(
        r"size 66560: REFUSED as expected code=100017: aclmdlExecute: model three_backends: "
        r"input 0 \(x1\) shape \[66560\] is outside the model's range \[1~65536\]",
        out,
    ), out


def test_pyacl_program_runs_the_om_in_its_own_interpreter(models):
    paths, env, work = models
    seed = t.new_seed("ADD_N_SCALED_SEED")
    sizes = [2048, 1024, 2048]
    proc = t.run_python(
        [
            str(paths.package / "tests" / "offline_case.py"),
            "pyrun",
            str(work / "three.om"),
            "0.5",
            str(seed),
            *map(str, sizes),
        ],
        env,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "input 0 range=[[1, 65536]]" in proc.stdout
    for run, n in enumerate(sizes):
        assert f"PYACL_DYNAMIC size={n} {'async ' if run % 2 else ''}PASS" in proc.stdout
    assert proc.stdout.count("ADD_N_SCALED_COMPILE") == 2  # 2048 once, 1024 once


def test_missing_plugin_and_missing_python_are_refused_at_load(models):
    paths, env, work = models
    add = t.op_paths("ops/add_custom", "add_custom")
    # this package's prototypes (its OPP root) but not its Python plugins
    no_plugin = dict(env, ASCEND_CUSTOM_OPP_PATH=f"{add.opp_root}:{add.plugin_dir}:{paths.opp_root}")
    proc = _exec(no_plugin, work / "three.om", 0.5, 1, 1024)
    assert proc.returncode == 1
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("three_ops_exec: aclmdlLoadFromFile")][0]
    assert "error code 148049" in line and "no implementation registered for op type AddNScaledCustom" in line, line

    # its Python plugins but not its prototypes (its OPP root): the same code, naming the op
    no_proto = dict(env, ASCEND_CUSTOM_OPP_PATH=f"{add.opp_root}:{add.plugin_dir}:{paths.plugin_dir}")
    proc = _exec(no_proto, work / "three.om", 0.5, 1, 1024)
    assert proc.returncode == 1
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("three_ops_exec: aclmdlLoadFromFile")][0]
    assert "error code 148049" in line, line
    assert re.search(
        r"node \S+ \(op (AddNScaledCustom|MulHostCustom)\): no prototype of op type \1 \(no REG_OP in "
        r"the OPP libraries and no Python register_op\) \(ASCEND_CUSTOM_OPP_PATH=",
        line,
    ), line

    no_python = dict(env, ASCEND_TWIN_LIBPYTHON="/nonexistent/libpython3.so")
    proc = _exec(no_python, work / "three.om", 0.5, 1, 1024)
    assert proc.returncode == 1
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("three_ops_exec: aclmdlLoadFromFile")][0]
    assert "error code 200006" in line and "no Python environment: cannot load libpython" in line, line
    assert "model three_backends needs it to run" in line, line


def test_static_part_runs_without_python_or_plugins(models):
    paths, env, work = models
    run_env = dict(env)
    del run_env["ASCEND_CUSTOM_OPP_PATH"]  # the OM needs no plugin
    seed = t.new_seed("ADD_N_SCALED_SEED")
    proc = t.run_python(
        [str(paths.package / "tests" / "offline_case.py"), "run", str(work / "adds.om"), str(N), str(seed)], run_env
    )
    assert proc.returncode == 0, proc.stderr
    assert f"OFFLINE_OM=PASS n={N} ge_imported=False" in proc.stdout
