"""bisheng finds the host side (ACL headers, runtime library dir) of an installed tree by its
layout, wherever the tree lives: a prefix such as /opt/ascend-twin ends in "twin" just like the
source tree's twin/asc/include, and must still be taken for an install."""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import HERE, clean_env, run_bisheng

RUNFILES_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
TWIN = os.path.join(RUNFILES_ROOT, "twin")

HOST_PROGRAM = """\
#include "acl/acl.h"
#include <cstdio>
int main() {
    aclError status = aclInit(nullptr);
    std::printf("aclInit: %d\\n", static_cast<int>(status));
    return status == ACL_SUCCESS ? 0 : 1;
}
"""


def lay_out_install(prefix: str) -> None:
    """The CANN-like layout //twin:install writes, from the twin's own headers: PREFIX/asc/include
    (Ascend C + ABI headers), PREFIX/include (ACL), PREFIX/lib64, the install marker."""
    asc = os.path.join(prefix, "asc", "include")
    shutil.copytree(os.path.join(TWIN, "asc", "include"), asc)
    shutil.copytree(os.path.join(TWIN, "abi", "include"), asc, dirs_exist_ok=True)
    include = os.path.join(prefix, "include")
    shutil.copytree(os.path.join(TWIN, "runtime", "include"), include)
    shutil.copytree(os.path.join(TWIN, "runtime", "model", "include"), include, dirs_exist_ok=True)
    os.makedirs(os.path.join(prefix, "lib64"))
    with open(os.path.join(prefix, "ascend_twin_install.info"), "w", encoding="utf-8") as f:
        f.write("package_name=ascend-twin\ninstall_format=1\n")


def test_install_whose_path_ends_in_twin_gets_its_acl_headers(tmp_path):
    prefix = str(tmp_path / "opt" / "ascend-twin")
    lay_out_install(prefix)
    (tmp_path / "main.cpp").write_text(HOST_PROGRAM)
    env = clean_env()
    env["ASCEND_HOME_PATH"] = prefix
    proc = run_bisheng(["-v", "-c", "main.cpp", "-o", "main.o", "--npu-arch=dav-2201"], str(tmp_path), env)
    assert proc.returncode == 0, proc.stderr
    assert f"-isystem {prefix}/include " in proc.stderr
    assert (tmp_path / "main.o").stat().st_size > 0


def test_install_whose_path_ends_in_twin_links_against_its_lib64(tmp_path):
    prefix = str(tmp_path / "twin")  # the bare spelling of the source tree's folder
    lay_out_install(prefix)
    (tmp_path / "main.cpp").write_text(HOST_PROGRAM)
    env = clean_env()
    env["ASCEND_HOME_PATH"] = prefix
    proc = run_bisheng(["main.cpp", "-o", "prog", "--npu-arch=dav-2201"], str(tmp_path), env)
    # The laid-out lib64 is empty: the link must look there (and say so), not in no directory.
    assert proc.returncode != 0
    assert f"not found ('{prefix}/lib64')" in proc.stderr, proc.stderr


def test_source_tree_still_uses_twin_runtime_include(tmp_path):
    (tmp_path / "main.cpp").write_text(HOST_PROGRAM)
    proc = run_bisheng(["-v", "-c", "main.cpp", "-o", "main.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "twin/runtime/include " in proc.stderr
