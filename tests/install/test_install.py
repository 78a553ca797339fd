"""The CANN-like install tree works without Bazel, as a CANN toolkit does."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
KERNEL = RUNFILES / "ops/add_custom/kernel/add_custom.asc"
PLUGIN_DIR = RUNFILES / "ops/add_custom/python/plugin"
OPP_ROOT = RUNFILES / "offline/opp"
AIR = RUNFILES / "offline/model.air"
MODEL_EXEC = RUNFILES / "offline/model_exec"


def shell(prefix: Path, script: str, **env: str) -> subprocess.CompletedProcess:
    """Runs `script` in bash after `source PREFIX/set_env.sh`, in a minimal environment."""
    base = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("TEST_TMPDIR", "/tmp"), "LANG": "C.UTF-8",
            "PYTHON": sys.executable}
    proc = subprocess.run(["bash", "-c", f"set -e; source {prefix}/set_env.sh; {script}"],
                          env={**base, **env}, capture_output=True, text=True, timeout=600)
    print(f"$ {script}\n{proc.stdout}{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> Path:
    prefix = tmp_path_factory.mktemp("opt") / "ascend-twin"
    subprocess.run([str(RUNFILES / "twin/install"), str(prefix)], check=True)
    return prefix


def test_layout_is_cann_like(prefix):
    for path in ["set_env.sh", "bin/bisheng", "bin/atc", "asc/include/kernel_operator.h",
                 "include/acl/acl.h", "include/acl/acl_mdl.h", "include/graph/operator_reg.h",
                 "lib64/libascendcl.so", "lib64/libge_graph.so", "python/site-packages/ge/__init__.py",
                 "python/site-packages/acl/__init__.py",
                 "x86_64-linux/data/platform_config/Ascend910B1.ini"]:
        assert (prefix / path).exists(), path


def test_es_package_is_installed(prefix):
    for path in ["bin/gen_esb", "include/ge/es_graph_builder.h", "include/ge/esb_funcs.h",
                 "include/ge/cmake/FindGenerateEsPackage.cmake", "include/ge/cmake/generate_es_package.cmake",
                 "lib64/libeager_style_graph_builder_base.so"]:
        assert (prefix / path).exists(), path
    proc = shell(prefix, "command -v gen_esb; gen_esb --help")  # finds lib64 from the installed copy
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == str(prefix / "bin/gen_esb") and "--module_name" in proc.stdout


def test_reinstall_replaces_the_tree(prefix):
    (prefix / "stale-file").write_text("left by an earlier install")
    subprocess.run([str(RUNFILES / "twin/install"), str(prefix)], check=True)
    assert not (prefix / "stale-file").exists()
    assert (prefix / "bin/bisheng").exists()


def test_set_env_exports_cann_variables(prefix):
    proc = shell(prefix, 'echo "$ASCEND_HOME_PATH"; command -v bisheng atc; echo "$LD_LIBRARY_PATH"')
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert lines[0] == str(prefix)
    assert lines[1:3] == [str(prefix / "bin/bisheng"), str(prefix / "bin/atc")]
    assert lines[3].startswith(str(prefix / "lib64"))


def test_bisheng_and_objcopy_as_cann_users_run_them(prefix, tmp_path):
    proc = shell(prefix, f"cd {tmp_path} && bisheng -c {KERNEL} -o host.o --npu-arch=dav-2201 -O2 "
                         f"&& llvm-objcopy-16 -O binary --only-section=.aicore_binary host.o k.aicore.o")
    assert proc.returncode == 0, proc.stderr
    device_binary = (tmp_path / "k.aicore.o").read_bytes()
    assert device_binary[:4] == b"\x7fELF" and len(device_binary) > 1024


def test_python_packages_import_and_reach_the_runtime(prefix):
    script = ("import acl, ge, ge.custom_op, ge.session; "
              "assert acl.init() == 0; assert acl.rt.set_device(0) == 0; "
              "print('soc', acl.get_soc_name()); acl.rt.reset_device(0); acl.finalize()")
    proc = shell(prefix, f'"$PYTHON" -c "{script}"')
    assert proc.returncode == 0, proc.stderr
    assert "soc Ascend910B1" in proc.stdout


def test_atc_then_acl_runner_without_bazel(prefix, tmp_path):
    cache = tmp_path / "kernels"
    proc = shell(prefix, f"atc --model={AIR} --framework=1 --output={tmp_path}/model --soc_version=Ascend910B4",
                 ASCEND_CUSTOM_OPP_PATH=f"{OPP_ROOT}:{PLUGIN_DIR}", ASCEND_TWIN_KERNEL_CACHE=str(cache))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mode=offline soc=Ascend910B4" in proc.stdout
    assert "ATC run success, welcome to the next use." in proc.stdout
    proc = shell(prefix, f"{MODEL_EXEC} {tmp_path}/model.om",
                 ASCEND_CUSTOM_OPP_PATH=str(OPP_ROOT), ASCEND_TWIN_SOC_VERSION="Ascend910B4")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PY_COMPILE_OFFLINE_OM=PASS" in proc.stdout


def test_install_without_prefix_is_a_usage_error():
    proc = subprocess.run([str(RUNFILES / "twin/install")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "usage: bazel run //twin:install -- PREFIX"
