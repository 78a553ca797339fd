"""CANN-style CMake projects build and run against the installed twin with nothing but set_env.sh."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
HERE = RUNFILES / "tests/cann_consumer"
CLEAN_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """The installed tree and a writable copy of the projects, as a user would have them."""
    root = tmp_path_factory.mktemp("user")
    subprocess.run([str(RUNFILES / "twin/install"), str(root / "Ascend")], check=True, capture_output=True)
    for project in ("abs_sub_custom", "abi_mismatch"):
        shutil.copytree(HERE / project, root / project, symlinks=False)
    return root


def user_shell(root: Path, script: str, **env) -> subprocess.CompletedProcess:
    """`env -i` + `source set_env.sh` + script: a CANN user's shell, nothing else."""
    base = dict(CLEAN_ENV, HOME=str(root), **env)
    proc = subprocess.run(
        [
            "env",
            "-i",
            *[f"{k}={v}" for k, v in base.items()],
            "bash",
            "-c",
            f"set -eo pipefail; source {root}/Ascend/set_env.sh; {script}",
        ],
        capture_output=True,
        text=True,
        timeout=1500,
    )
    print(f"$ {script}\n{proc.stdout}\n{proc.stderr}")
    return proc


def test_online_python_and_cpp_sessions(workspace):
    proc = user_shell(workspace, f"bash {workspace}/abs_sub_custom/run_online.sh", ABS_SUB_SEED="4242")
    assert proc.returncode == 0, proc.stderr[-3000:]
    for marker in (
        "PY_COMPILE_MODULE_LOADED=1",
        "PY_COMPILE_CALLBACK_ENTER=1 mode=online soc=Ascend910B1",
        "PY_COMPILE_ONLINE_NPU=PASS",
        "CPP_SESSION_RUN=PASS",
        "AbsSubCustom online PASS",
    ):
        assert marker in proc.stdout, marker
    generated = workspace / "abs_sub_custom/build/online/es_custom_build/generated_code"
    assert (generated / "es_custom_ops.py").is_file()
    assert (workspace / "abs_sub_custom/build/online/es_output/include/es_custom").is_dir()


@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend310P3"])
def test_offline_atc_and_ir_build_give_one_om_that_acl_runs(workspace, soc):
    proc = user_shell(
        workspace,
        f"bash {workspace}/abs_sub_custom/run_offline.sh",
        ABS_SUB_SOC_VERSION=soc,
        ABS_SUB_SEED="977",
        ASCEND_TWIN_SOC_VERSION=soc,
        ABS_SUB_BUILD_ROOT=str(workspace / f"build-{soc}"),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    for marker in (
        f"PY_COMPILE_CALLBACK_ENTER=1 mode=offline soc={soc}",
        "PY_COMPILE_AIR_BUILD=PASS",
        "ATC run success, welcome to the next use.",
        "IR_BUILD_OM=PASS",
        "PY_COMPILE_OFFLINE_OM=PASS",
    ):
        assert marker in proc.stdout, marker


def _build_abi_project(workspace, *flags):
    build = workspace / "abi_mismatch/build"
    return user_shell(
        workspace,
        f"cmake -S {workspace}/abi_mismatch -B {build} {' '.join(flags)} >/dev/null && cmake --build {build} -j2",
    ), build


def test_a_proto_library_with_the_other_abi_is_refused_by_name(workspace):
    proc, build = _build_abi_project(workspace)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = workspace / "abi_out"
    out.mkdir()
    proc = user_shell(workspace, f"cd {out} && {build}/abi0_graph_build")
    assert proc.returncode == 0 and "PY_COMPILE_AIR_BUILD=PASS" in proc.stdout, proc.stderr
    plugin = workspace / "abs_sub_custom/src/ge"
    results = {}
    for abi in (0, 1):
        opp = workspace / f"opp-abi{abi}"
        lib_dir = opp / "op_graph/lib/linux" / os.uname().machine
        lib_dir.mkdir(parents=True)
        shutil.copy(build / f"libabi{abi}_op_proto.so", lib_dir / "libcust_opapi.so")
        results[abi] = user_shell(
            workspace,
            f"atc --model={out}/abs_sub.air --framework=1 --output={out}/abi{abi} --soc_version=Ascend910B1",
            ASCEND_CUSTOM_OPP_PATH=f"{opp}:{plugin}",
            ABS_SUB_CUSTOM_BUILD_DIR=str(workspace / "abi_kernel"),
        )
    assert results[0].returncode == 0, results[0].stdout + results[0].stderr
    assert (out / "abi0.om").is_file()
    bad = results[1]
    assert bad.returncode == 255
    assert re.search(
        r"libcust_opapi\.so: built with _GLIBCXX_USE_CXX11_ABI=1; CANN libraries use "
        r"_GLIBCXX_USE_CXX11_ABI=0",
        bad.stdout + bad.stderr,
    ), bad.stdout + bad.stderr
    assert not (out / "abi1.om").exists()


def test_an_executable_with_the_other_abi_fails_to_link_naming_it(workspace):
    proc, _ = _build_abi_project(workspace, "-DABI_MISMATCH_EXECUTABLE=ON")
    assert proc.returncode != 0
    assert "_GLIBCXX_USE_CXX11_ABI" in proc.stdout + proc.stderr
