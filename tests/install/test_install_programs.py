"""CANN users' programs built with the installed tree's bisheng, at a prefix whose path ends in
"twin" (…/ascend-twin, like /opt/ascend-twin): host programs find acl/acl.h and lib64; a .asc
with <iostream> and host globals with constructors launches its kernel (random input, seed
printed, checked with numpy); a CMake project uses bisheng as its C and C++ compiler."""

import os
import random
import shutil
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from install_shell import RUNFILES, install, shell  # noqa: E402

HOST_GLOBALS = RUNFILES / "tools/bisheng/tests/testdata/host_globals.asc"
PLAIN_PROJECT = RUNFILES / "tools/bisheng/tests/testdata/plain_c_cxx"
BLOCKS, PER_BLOCK = 8, 256  # as in host_globals.asc

ACL_HOST_PROGRAM = """\
#include "acl/acl.h"
#include <cstdio>
int main() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    const char* soc = aclrtGetSocName();
    std::printf("soc %s\\n", soc ? soc : "(none)");
    aclrtResetDevice(0);
    return aclFinalize() == ACL_SUCCESS ? 0 : 1;
}
"""

ASC_PROJECT = """\
cmake_minimum_required(VERSION 3.16)
find_package(ASC REQUIRED)
project(host_globals LANGUAGES ASC CXX)
add_executable(demo host_globals.asc)
"""


@pytest.fixture(scope="module")
def prefix(tmp_path_factory) -> Path:
    prefix = tmp_path_factory.mktemp("opt") / "ascend-twin"
    assert str(prefix).endswith("twin")  # the spelling that once hid the install's include dir
    proc = install(prefix)
    assert proc.returncode == 0, proc.stderr
    return prefix


def test_host_program_including_acl_h_builds_and_runs(prefix, tmp_path):
    (tmp_path / "main.cpp").write_text(ACL_HOST_PROGRAM)
    proc = shell(prefix, f"cd {tmp_path} && bisheng -x asc main.cpp -o prog --npu-arch=dav-2201 && ./prog")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("soc Ascend")
    proc = shell(prefix, f"cd {tmp_path} && bisheng main.cpp -o plain && ./plain")  # no --npu-arch: plain C++
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("soc Ascend")


def _check_axpy(build_and_run, prefix, tmp_path):
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    n = BLOCKS * PER_BLOCK
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    np.concatenate([x, y]).tofile(tmp_path / "input.bin")
    proc = shell(prefix, build_and_run)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"host_globals: {n} values, scratch 16" in proc.stdout
    z = np.fromfile(tmp_path / "output.bin", dtype=np.float32)
    np.testing.assert_allclose(z, x + np.float32(2) * y, rtol=1e-6, atol=1e-6)


def test_asc_with_iostream_and_host_globals_launches_its_kernel(prefix, tmp_path):
    shutil.copy(HOST_GLOBALS, tmp_path)
    _check_axpy(
        f"cd {tmp_path} && bisheng -x asc host_globals.asc -o demo --npu-arch=dav-2201 -O2 && "
        f"./demo input.bin output.bin",
        prefix,
        tmp_path,
    )


def test_cmake_asc_project_with_iostream_and_host_globals(prefix, tmp_path):
    shutil.copy(HOST_GLOBALS, tmp_path)
    (tmp_path / "CMakeLists.txt").write_text(ASC_PROJECT)
    _check_axpy(
        f"cd {tmp_path} && mkdir build && cd build && cmake -DCMAKE_ASC_ARCHITECTURES=dav-2201 .. "
        f"&& make && ./demo ../input.bin ../output.bin",
        prefix,
        tmp_path,
    )


def test_cmake_project_with_bisheng_as_c_and_cxx_compiler(prefix, tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PLAIN_PROJECT, project)
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    text = "".join(random.Random(seed).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(32))
    proc = shell(
        prefix,
        f"cd {project} && mkdir build && cd build && "
        "cmake -DCMAKE_C_COMPILER=bisheng -DCMAKE_CXX_COMPILER=bisheng .. && make && "
        f"./checksum_demo {text}",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for lang in ("C", "CXX"):
        assert f"The {lang} compiler identification is Clang" in proc.stdout
        assert f"Detecting {lang} compiler ABI info - done" in proc.stdout
        assert f"Check for working {lang} compiler: {prefix}/bin/bisheng - skipped" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1] == f"checksum({text}) = {zlib.adler32(text.encode())}"
