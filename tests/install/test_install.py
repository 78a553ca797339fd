"""The CANN-like install tree works without Bazel, as a CANN toolkit does.

Every command runs as a CANN user's would: `env -i`, then `source PREFIX/set_env.sh`, then
plain names (bisheng, llvm-objcopy, atc, python3) from PATH. Nothing of the build (its venv,
Bazel's output base, the build user's home) may be needed or referenced.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from install_shell import INSTALL, RUNFILES, install, shell  # noqa: E402

KERNEL = RUNFILES / "ops/add_custom/kernel/add_custom.asc"
PLUGIN_DIR = RUNFILES / "ops/add_custom/python/plugin"
OPP_ROOT = RUNFILES / "ops/add_custom/add_custom_opp_root"  # //offline:opp (an alias)
AIR = RUNFILES / "offline/model.air"
MODEL_EXEC = RUNFILES / "offline/model_exec"
MARKER = "ascend_twin_install.info"


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> Path:
    prefix = tmp_path_factory.mktemp("opt") / "ascend-twin"
    proc = install(prefix)
    assert proc.returncode == 0, proc.stderr
    return prefix


def test_layout_is_cann_like(prefix):
    for path in [
        "set_env.sh",
        MARKER,
        "bin/bisheng",
        "bin/atc",
        "x86_64-linux/ccec_compiler/bin/bisheng",
        "x86_64-linux/ccec_compiler/bin/llvm-objcopy",
        "asc/include/kernel_operator.h",
        "include/acl/acl.h",
        "include/acl/acl_mdl.h",
        "include/graph/operator_reg.h",
        "opp/built-in/op_proto/inc/ops_proto_legacy.h",
        "lib64/libascendcl.so",
        "lib64/libgraph.so",
        "lib64/libgraph_base.so",
        "lib64/libopp_registry.so",
        "lib64/libregister.so",
        "lib64/libge_compiler.so",
        "lib64/libge_runner.so",
        "include/ge/ge_ir_build.h",
        "include/ge/ge_api.h",
        "python/site-packages/ge/__init__.py",
        "python/site-packages/acl/__init__.py",
        "python/site-packages/numpy/__init__.py",
        "python/site-packages/google/protobuf/__init__.py",
        "x86_64-linux/data/platform_config/Ascend910B1.ini",
    ]:
        assert (prefix / path).exists(), path


def test_es_package_is_installed(prefix):
    for path in [
        "bin/gen_esb",
        "include/ge/es_graph_builder.h",
        "include/ge/esb_funcs.h",
        "include/ge/cmake/FindGenerateEsPackage.cmake",
        "include/ge/cmake/generate_es_package.cmake",
        "lib64/libeager_style_graph_builder_base.so",
    ]:
        assert (prefix / path).exists(), path
    proc = shell(prefix, "command -v gen_esb; gen_esb --help")  # finds lib64 from the installed copy
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == str(prefix / "bin/gen_esb") and "--module_name" in proc.stdout


def test_set_env_exports_cann_variables_once(prefix):
    proc = shell(
        prefix,
        'source "$ASCEND_HOME_PATH/set_env.sh"; '
        'echo "$ASCEND_HOME_PATH|$ASCEND_TOOLKIT_HOME|$ASCEND_OPP_PATH"; '
        'command -v bisheng llvm-objcopy atc; echo "$LD_LIBRARY_PATH"; echo "$PATH"',
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{prefix}|{prefix}|{prefix}/opp"
    assert Path(lines[0].split("|")[2]).is_dir()
    assert lines[1:4] == [
        str(prefix / "bin/bisheng"),
        str(prefix / "x86_64-linux/ccec_compiler/bin/llvm-objcopy"),
        str(prefix / "bin/atc"),
    ]
    assert lines[4] == str(prefix / "lib64")
    assert lines[5].split(":").count(str(prefix / "bin")) == 1  # sourcing twice adds nothing


def test_bisheng_and_objcopy_as_cann_users_run_them(prefix, tmp_path):
    proc = shell(
        prefix,
        f"cd {tmp_path} && bisheng -c {KERNEL} -o host.o --npu-arch=dav-2201 -O2 "
        f"&& llvm-objcopy -O binary --only-section=.aicore_binary host.o k.aicore.o",
    )
    assert proc.returncode == 0, proc.stderr
    device_binary = (tmp_path / "k.aicore.o").read_bytes()
    assert device_binary[:4] == b"\x7fELF" and len(device_binary) > 1024


def test_python3_from_path_imports_ge_and_reaches_the_runtime(prefix):
    script = (
        "import acl, ge, ge.custom_op, ge.session, numpy, google.protobuf; "
        "assert ge.__file__.startswith('{p}') and numpy.__file__.startswith('{p}'); "
        "assert acl.init() == 0; assert acl.rt.set_device(0) == 0; "
        "print('soc', acl.get_soc_name()); acl.rt.reset_device(0); acl.finalize()"
    ).format(p=prefix)
    proc = shell(prefix, f'python3 -c "{script}"')
    assert proc.returncode == 0, proc.stderr
    assert "soc Ascend910B1" in proc.stdout


def test_atc_then_acl_runner_without_bazel(prefix, tmp_path):
    cache = tmp_path / "kernels"
    proc = shell(
        prefix,
        f"atc --model={AIR} --framework=1 --output={tmp_path}/model --soc_version=Ascend910B4",
        ASCEND_CUSTOM_OPP_PATH=f"{OPP_ROOT}:{PLUGIN_DIR}",
        ASCEND_TWIN_KERNEL_CACHE=str(cache),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mode=offline soc=Ascend910B4" in proc.stdout
    assert "ATC run success, welcome to the next use." in proc.stdout
    proc = shell(
        prefix,
        f"{MODEL_EXEC} {tmp_path}/model.om",
        ASCEND_CUSTOM_OPP_PATH=str(OPP_ROOT),
        ASCEND_TWIN_SOC_VERSION="Ascend910B4",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PY_COMPILE_OFFLINE_OM=PASS" in proc.stdout


def test_atc_names_a_python_of_the_wrong_version(prefix, tmp_path):
    fake = tmp_path / "python-2.7"
    fake.write_text("#!/bin/sh\necho 2.7\n")
    fake.chmod(0o755)
    proc = shell(prefix, "atc --help", ASCEND_TWIN_PYTHON=str(fake))
    assert proc.returncode == 255
    want = (prefix / "python/python_version.txt").read_text().strip()
    assert proc.stderr.strip() == (
        f"atc: '{fake}' is Python 2.7; this tree's Python packages are for Python {want} (set ASCEND_TWIN_PYTHON)"
    )


def _elf_files(prefix: Path):
    for path in sorted(prefix.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    yield path


def test_every_library_and_tool_resolves_inside_the_tree_or_the_system(prefix):
    elves = list(_elf_files(prefix))
    assert any(p.name == "libascendcl.so" for p in elves)
    for elf in elves:
        proc = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", "ldd", str(elf)], capture_output=True, text=True)
        if "not a dynamic executable" in proc.stdout + proc.stderr:
            continue
        assert proc.returncode == 0, f"{elf}: {proc.stderr}"
        for line in proc.stdout.splitlines():
            assert "not found" not in line, f"{elf}: {line.strip()}"
            if "=>" in line:
                target = line.split("=>")[1].split("(")[0].strip()
                ok = target.startswith(str(prefix) + "/") or target.startswith(("/lib", "/usr/lib"))
                assert ok, f"{elf} loads {target}, outside the tree and the system"


def test_nothing_in_the_tree_points_into_the_build(prefix):
    needles = [b"/_bazel_", b"/execroot/"]
    if sys.prefix != sys.base_prefix:  # the build's venv
        needles.append(sys.prefix.encode())
    for path in sorted(prefix.rglob("*")):
        if path.is_symlink():
            target = os.readlink(path)
            assert not target.startswith("/"), f"{path} links to {target}"
        elif path.is_file():
            data = path.read_bytes()
            for needle in needles:
                assert needle not in data, f"{path} contains {needle.decode()}"


def test_reinstall_replaces_an_earlier_install_whole(prefix):
    (prefix / "stale-file").write_text("left by an earlier install")
    proc = install(prefix)
    assert proc.returncode == 0, proc.stderr
    assert not (prefix / "stale-file").exists()
    assert (prefix / "bin/bisheng").exists()
    assert not list(prefix.parent.glob("ascend-twin.*")), "staging or backup left behind"


def test_install_refuses_a_non_empty_foreign_directory(tmp_path):
    target = tmp_path / "usr-local"
    (target / "bin").mkdir(parents=True)
    (target / "bin/tool").write_text("precious")
    proc = install(target)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        f"install: {target} is not empty and is not an ascend-twin install "
        f"(no {MARKER}); choose an empty or new directory"
    )
    assert (target / "bin/tool").read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["usr-local"]


def test_install_into_an_empty_directory(tmp_path):
    target = tmp_path / "empty"
    target.mkdir()
    proc = install(target)
    assert proc.returncode == 0, proc.stderr
    assert (target / MARKER).is_file()


def test_install_without_prefix_is_a_usage_error():
    proc = subprocess.run([str(INSTALL)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "usage: bazel run //twin:install -- PREFIX"
