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
                 "lib64/libascendcl.so", "lib64/libgraph.so", "lib64/libgraph_base.so", "lib64/libopp_registry.so",
                 "lib64/libregister.so", "python/site-packages/ge/__init__.py",
                 "python/site-packages/acl/__init__.py",
                 "x86_64-linux/data/platform_config/Ascend910B1.ini"]:
        assert (prefix / path).exists(), path


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


CANN_LINK_PROGRAM = r"""
#include <cstdio>
#include "all_ops.h"
#include "graph/graph.h"
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InstallTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint64_t, m);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InstallOp, InstallTiling)
}
int main() {
  ge::op::Data x("x");
  ge::Graph graph("g");
  graph.SetInputs({x}).SetOutputs({x});
  auto tiling = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("InstallOp");
  if (tiling == nullptr || graph.SaveToFile("g.air") != ge::GRAPH_SUCCESS) return 1;
  std::printf("GRAPH_VALID=%d TILING_SIZE=%zu\n", graph.IsValid() ? 1 : 0, tiling->GetDataSize());
  return 0;
}
"""


def test_cann_link_names_build_and_run_a_graph_builder(prefix, tmp_path):
    """A CANN-style build: include/, lib64/ link names graph graph_base opp_registry register, the
    ABI the libraries record; lib64's libraries find each other through $ORIGIN."""
    (tmp_path / "main.cc").write_text(CANN_LINK_PROGRAM)
    abi = next(line.split()[-1] for line in (prefix / "include/ge_twin/abi_config.h").read_text().splitlines()
               if line.startswith("#define GE_TWIN_CXX11_ABI"))
    proc = shell(prefix, f"cd {tmp_path} && c++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI={abi} "
                         f'-I"$ASCEND_HOME_PATH/include" main.cc -L"$ASCEND_HOME_PATH/lib64" '
                         f"-lgraph -lgraph_base -lopp_registry -lregister -o main && ./main")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "GRAPH_VALID=1 TILING_SIZE=16" in proc.stdout
    assert (tmp_path / "g.air").stat().st_size > 0
    # Without LD_LIBRARY_PATH, libgraph.so still finds libgraph_base.so and libopp_registry.so.
    proc = shell(prefix, 'unset LD_LIBRARY_PATH; "$PYTHON" -c "import ctypes, os; '
                         "lib = ctypes.CDLL(os.environ['ASCEND_HOME_PATH'] + '/lib64/libgraph.so'); "
                         "print('GRAPH_C_API', lib.GeTwinGraphApiVersion())\"")
    assert proc.returncode == 0, proc.stderr
    assert "GRAPH_C_API 1" in proc.stdout


def test_install_without_prefix_is_a_usage_error():
    proc = subprocess.run([str(RUNFILES / "twin/install")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "usage: bazel run //twin:install -- PREFIX"
