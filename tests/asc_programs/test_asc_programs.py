"""Direct kernel invocation on the CPU twin, as CANN users build it: every program in programs/
(host main + kernels in one .asc) built with `bisheng -x asc f.asc -o prog` and with one CMake
project (`find_package(ASC)`, `LANGUAGES ASC CXX`), run on random inputs (seed printed;
ASC_PROGRAMS_SEED=<n> repeats a run) and checked against numpy; the CPU-debug program also
through find_package(tikicpulib) with the plain C++ compiler. Bad inputs each give one clear
line and a non-zero status. Everything runs from the installed tree (//twin:cann_home) in a
clean environment, as after `source set_env.sh`."""

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from programs_spec import SPECS, TIKICPULIB_PROGRAMS  # noqa: E402

HERE = Path(__file__).resolve().parent
RUNFILES = Path(os.environ.get("RUNFILES_DIR", "")) / "ascend_twin"
HOME = Path(os.environ.get("ASC_PROGRAMS_CANN_HOME", RUNFILES / "twin" / "cann_home"))
TESTS = (RUNFILES / "tests" / "asc_programs") if RUNFILES.is_dir() else HERE
PROGRAMS = TESTS / "programs"
SEED = int(os.environ.get("ASC_PROGRAMS_SEED", random.randrange(1 << 30)))
ARCH = "--npu-arch=dav-2201"


def env() -> dict:
    """What `source <home>/set_env.sh` gives a clean shell."""
    home = str(HOME.resolve())
    return {
        "PATH": f"{home}/bin:{home}/x86_64-linux/ccec_compiler/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": os.environ.get("TEST_TMPDIR", "/tmp"),
        "ASCEND_HOME_PATH": home,
        "ASCEND_TOOLKIT_HOME": home,
        "LD_LIBRARY_PATH": f"{home}/lib64",
        "CMAKE_PREFIX_PATH": f"{home}/lib64/cmake",
        "LANG": "C.UTF-8",
    }


def run(cmd, cwd, extra_env=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        cmd, cwd=str(cwd), env={**env(), **(extra_env or {})}, capture_output=True, text=True, **kwargs
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("asc_programs")
    for f in PROGRAMS.iterdir():
        shutil.copy(f, work / f.name)
    print(f"seed={SEED} (ASC_PROGRAMS_SEED={SEED} repeats this run)")
    return work


CMAKE_LISTS = """cmake_minimum_required(VERSION 3.16)
set(CMAKE_ASC_ARCHITECTURES dav-2201 CACHE STRING "")
find_package(ASC REQUIRED)
find_package(tikicpulib REQUIRED)
project(asc_programs LANGUAGES ASC CXX)
foreach(prog {programs})
  add_executable(${{prog}} ${{prog}}.asc)
endforeach()
# CPU-debug builds of the same kernel files by the host C++ compiler, as CANN's CPU mode does.
foreach(prog {tiki_programs})
  configure_file(${{prog}}.asc ${{prog}}_tiki.cpp COPYONLY)
  add_executable(${{prog}}_tiki ${{CMAKE_CURRENT_BINARY_DIR}}/${{prog}}_tiki.cpp)
  target_include_directories(${{prog}}_tiki PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}})
  target_link_libraries(${{prog}}_tiki PRIVATE tikicpulib::Ascend910B1)
endforeach()
"""


@pytest.fixture(scope="module")
def cmake_build(workdir) -> Path:
    project = workdir / "cmake_project"
    project.mkdir()
    for f in workdir.glob("*.asc"):
        shutil.copy(f, project / f.name)
    shutil.copy(workdir / "host_io.h", project / "host_io.h")
    (project / "CMakeLists.txt").write_text(
        CMAKE_LISTS.format(programs=" ".join(sorted(SPECS)), tiki_programs=" ".join(TIKICPULIB_PROGRAMS))
    )
    proc = run(["cmake", "-S", ".", "-B", "build"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run(["cmake", "--build", "build", "-j", "2"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return project / "build"


def check_program(binary: Path, name: str, tmp: Path) -> None:
    inputs, check = SPECS[name]
    rng = np.random.default_rng(SEED)
    values = {}
    for fname, gen in inputs.items():
        values[fname] = gen(rng)
        values[fname].tofile(tmp / fname)
    proc = run([str(binary), str(tmp)], tmp, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == f"{name}: done"
    check(values, lambda fname, dtype: np.fromfile(tmp / fname, dtype=dtype))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_bisheng_build(workdir, tmp_path, name):
    proc = run(["bisheng", "-x", "asc", f"{name}.asc", "-o", f"{name}.bin", ARCH], workdir)
    assert proc.returncode == 0, proc.stderr
    check_program(workdir / f"{name}.bin", name, tmp_path)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_cmake_asc_build(cmake_build, tmp_path, name):
    check_program(cmake_build / name, name, tmp_path)


@pytest.mark.parametrize("name", TIKICPULIB_PROGRAMS)
def test_cmake_tikicpulib_build_with_the_host_compiler(cmake_build, tmp_path, name):
    check_program(cmake_build / f"{name}_tiki", name, tmp_path)


def test_unchanged_project_builds_with_cmake_and_passes(tmp_path):
    # project_vector_add/ as a user would have it, built in place of a copy, no edits.
    project = tmp_path / "project_vector_add"
    shutil.copytree(TESTS / "project_vector_add", project)
    proc = run(["bash", "-c", "cmake -S . -B build && cmake --build build"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "--cce-simd-vf-fusion' has no effect on the CPU twin" in proc.stdout + proc.stderr
    proc = run(["./build/vector_add_demo"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[Success] vector_add: all 32768 results match."


def test_unchanged_project_without_acl_init_runs(tmp_path):
    """Regression: a sample that never calls aclInit (as 39 of asc-devkit's 01_simd_cpp_api
    folders) got 100001 from aclrtSetDevice and a NULL aclrtMallocHost pointer; ACL now
    initializes on first use, as CANN does."""
    project = tmp_path / "project_no_acl_init"
    shutil.copytree(TESTS / "project_no_acl_init", project)
    proc = run(["bash", "-c", "cmake -S . -B build && cmake --build build"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = run(["./build/no_acl_init_demo", str(SEED)], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "[Success] scale_add without aclInit: all 32768 results match."


def test_unchanged_legacy_project_with_generated_launchers(tmp_path):
    # project_legacy_launch/: ascendc.cmake's ascendc_library, aclrtlaunch_add_custom.h generated
    # by the build, host code compiled by the C++ compiler.
    project = tmp_path / "project_legacy_launch"
    shutil.copytree(TESTS / "project_legacy_launch", project)
    proc = run(["bash", "-c", "cmake -S . -B build && cmake --build build"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (project / "build" / "include" / "kernels" / "aclrtlaunch_add_custom.h").exists()
    proc = run(["./build/legacy_demo"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "legacy_launch: rc=0 sync=0 mismatches=0"


@pytest.mark.parametrize("run_mode", ["npu", "cpu"])
def test_fatbin_library_and_generated_launchers_in_each_run_mode(tmp_path, run_mode):
    # project_fatbin/: ascendc_fatbin_library (loaded with aclrtBinaryLoadFromFile) and
    # ascendc_library(... ENABLE_ACLRT_LAUNCH) (aclrtlaunch_fill_index.h), CMAKE_ASC_RUN_MODE.
    project = tmp_path / "project_fatbin"
    shutil.copytree(TESTS / "project_fatbin", project)
    proc = run(["bash", "-c", f"cmake -S . -B build -DCMAKE_ASC_RUN_MODE={run_mode} && cmake --build build"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("option '--run-mode=cpu' has no effect" in proc.stdout + proc.stderr) == (run_mode == "cpu")
    assert (project / "build" / "include" / "fill_kernels" / "aclrtlaunch_fill_index.h").exists()
    proc = run(["./build/fatbin_demo"], project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "load=0 get=0 launch=0 fill=0 sync=0 bad_scale=0 bad_fill=0"


@pytest.mark.parametrize("case", ["run_mode", "cpu_arch", "fatbin_sources"])
def test_cmake_package_refuses_bad_settings_in_one_line(tmp_path, case):
    (tmp_path / "a.asc").write_text(
        '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR p) {}\n'
    )
    (tmp_path / "b.asc").write_text(
        '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void j(GM_ADDR p) {}\n'
    )
    arch, mode, body = "dav-2201", "npu", "ascendc_fatbin_library(one a.asc)\n"
    if case == "run_mode":
        mode, want = "fpga", "CMAKE_ASC_RUN_MODE='fpga' is not one of npu, cpu, sim"
    elif case == "cpu_arch":
        arch, mode, want = (
            "dav-3002",
            "cpu",
            "CMAKE_ASC_RUN_MODE=cpu supports dav-2002, dav-2201 and dav-3510, not dav-3002",
        )
    else:
        body, want = (
            "ascendc_fatbin_library(two a.asc b.asc)\n",
            "ascendc_fatbin_library(two): the CPU twin builds a fatbin from exactly one source file (got 2)",
        )
    (tmp_path / "CMakeLists.txt").write_text(
        f'cmake_minimum_required(VERSION 3.16)\nset(CMAKE_ASC_ARCHITECTURES {arch} CACHE STRING "")\n'
        f"find_package(ASC REQUIRED)\nproject(bad LANGUAGES ASC CXX)\n{body}"
    )
    proc = run(["cmake", "-S", ".", "-B", "build", f"-DCMAKE_ASC_RUN_MODE={mode}"], tmp_path)
    assert proc.returncode != 0
    assert want in " ".join(proc.stderr.split()), proc.stderr


LIBRARY_PROJECT = {
    "kern.asc": '#include "kernel_operator.h"\n'
    'extern "C" __global__ __aicore__ void fill9(GM_ADDR p) {\n'
    "  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t*)p, 64);\n"
    "  g.SetValue(AscendC::GetBlockIdx(), 9);\n}\n"
    'extern "C" uint32_t run_fill(void* d) { return ACLRT_LAUNCH_KERNEL(fill9)(64, nullptr, d); }\n',
    "main.cpp": '#include <cstdio>\n#include "acl/acl.h"\nextern "C" uint32_t run_fill(void*);\n'
    "int main() {\n  aclInit(nullptr); aclrtSetDevice(0); void* d; aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);\n"
    "  uint32_t rc = run_fill(d); int sync = aclrtSynchronizeDevice();\n"
    "  int h[64]; aclrtMemcpy(h, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST);\n"
    '  std::printf("rc=%u sync=%d h=%d\\n", rc, sync, h[63]);\n  return 0;\n}\n',
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nfind_package(ASC REQUIRED)\n"
    "project(libs LANGUAGES ASC CXX)\n"
    "add_library(kstatic STATIC kern.asc)\nadd_library(kshared SHARED kern.asc)\n"
    "add_executable(use_static main.cpp)\n"
    "target_link_libraries(use_static PRIVATE kstatic ASC::ascendc_runtime ASC::ascendcl)\n"
    "add_executable(use_shared main.cpp)\n"
    "target_link_libraries(use_shared PRIVATE kshared ASC::ascendcl)\n",
}


def test_cmake_static_and_shared_kernel_libraries_serve_host_executables(tmp_path):
    for name, text in LIBRARY_PROJECT.items():
        (tmp_path / name).write_text(text)
    proc = run(["bash", "-c", "cmake -S . -B build && cmake --build build"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "does not support dynamic linking" not in proc.stderr
    for exe in ("use_static", "use_shared"):
        proc = run([f"./build/{exe}"], tmp_path)
        assert proc.returncode == 0 and proc.stdout.strip() == "rc=0 sync=0 h=9", proc.stdout + proc.stderr


SHARED_ASC_LINKED_PROJECT = {
    "scale.asc": '#include "acl/acl.h"\n#include "kernel_operator.h"\n'
    "__global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, float a) {\n"
    "  AscendC::GlobalTensor<float> gx, gy; int b = AscendC::GetBlockIdx();\n"
    "  gx.SetGlobalBuffer((__gm__ float*)x + b * 32, 32); gy.SetGlobalBuffer((__gm__ float*)y + b * 32, 32);\n"
    "  for (int i = 0; i < 32; ++i) gy.SetValue(i, gy.GetValue(i) + a * gx.GetValue(i));\n}\n"
    "void run_scale_add(float* x, float* y, float a, aclrtStream s) {"
    " scale_add<<<8, nullptr, s>>>((GM_ADDR)x, (GM_ADDR)y, a); }\n",
    "main.cpp": '#include <cstdio>\n#include <cstdlib>\n#include "acl/acl.h"\n'
    "void run_scale_add(float* x, float* y, float a, aclrtStream s);\n"
    "int main(int argc, char** argv) {\n  srand(atoi(argv[1])); float hx[256], hy[256];\n"
    "  for (int i = 0; i < 256; ++i) { hx[i] = rand() % 1000 / 7.0f; hy[i] = rand() % 1000 / 3.0f; }\n"
    "  aclrtSetDevice(0); aclrtStream s; aclrtCreateStream(&s); void *x, *y;\n"
    "  aclrtMalloc(&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST); aclrtMalloc(&y, 1024, ACL_MEM_MALLOC_HUGE_FIRST);\n"
    "  aclrtMemcpy(x, 1024, hx, 1024, ACL_MEMCPY_HOST_TO_DEVICE);"
    " aclrtMemcpy(y, 1024, hy, 1024, ACL_MEMCPY_HOST_TO_DEVICE);\n"
    "  run_scale_add((float*)x, (float*)y, 2.5f, s); int rc = aclrtSynchronizeStream(s);\n"
    "  float out[256]; aclrtMemcpy(out, 1024, y, 1024, ACL_MEMCPY_DEVICE_TO_HOST);\n"
    '  for (int i = 0; i < 256; ++i) std::printf("%.9g %.9g %.9g\\n", hx[i], hy[i], out[i]);\n  return rc;\n}\n',
    # asc-devkit's 02_dynamic_library_compile: bisheng links both the library and the program
    "CMakeLists.txt": 'cmake_minimum_required(VERSION 3.16)\nset(CMAKE_ASC_ARCHITECTURES dav-2201 CACHE STRING "")\n'
    "find_package(ASC REQUIRED)\nproject(dynlib LANGUAGES ASC CXX)\n"
    "add_library(scale_kernel SHARED scale.asc)\n"
    "set_target_properties(scale_kernel PROPERTIES LINKER_LANGUAGE ASC)\n"
    "target_compile_options(scale_kernel PRIVATE $<$<COMPILE_LANGUAGE:ASC>:-fPIC>)\n"
    "add_executable(demo main.cpp)\nset_target_properties(demo PROPERTIES LINKER_LANGUAGE ASC)\n"
    "target_include_directories(demo PRIVATE $ENV{ASCEND_HOME_PATH}/include)\n"
    "target_link_libraries(demo PRIVATE scale_kernel)\n",
}


def test_program_linked_by_bisheng_finds_its_shared_kernel_library_without_ld_library_path(tmp_path):
    # The user's situation: `make && ./demo` from the build dir stopped with "error while loading
    # shared libraries: libscale_kernel.so" because the executable had no build RPATH.
    for name, text in SHARED_ASC_LINKED_PROJECT.items():
        (tmp_path / name).write_text(text)
    proc = run(["bash", "-c", "cmake -S . -B build && cmake --build build"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for cwd in (tmp_path / "build", tmp_path):  # from the build dir, as the README says, and from elsewhere
        proc = run([str(tmp_path / "build" / "demo"), str(SEED)], cwd)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        x, y, out = np.loadtxt(proc.stdout.splitlines(), dtype=np.float32, unpack=True)
        np.testing.assert_allclose(out, y + np.float32(2.5) * x, rtol=1e-6)


def test_objects_and_host_files_link_together(workdir, tmp_path):
    # -c objects, a host-only C++ file calling a kernel defined in another object (declared
    # there), linked by bisheng with -L/-l; and a shared library of kernels.
    (tmp_path / "kern.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void fill7(GM_ADDR p) {\n'
        "  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t*)p, 64);\n"
        "  g.SetValue(AscendC::GetBlockIdx(), 7);\n}\n"
    )
    (tmp_path / "main.cpp").write_text(
        '#include <cstdio>\n#include "acl/acl.h"\n#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void fill7(GM_ADDR p);\n'
        "int main() {\n  aclInit(nullptr); aclrtSetDevice(0);"
        " void* d; aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  fill7<<<64, nullptr, nullptr>>>((GM_ADDR)d);\n  int rc = aclrtSynchronizeDevice();\n"
        "  int h[64]; aclrtMemcpy(h, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST);\n"
        '  std::printf("rc=%d h63=%d\\n", rc, h[63]);\n  return rc;\n}\n'
    )
    assert run(["bisheng", "-c", "kern.asc", "-o", "kern.o", ARCH], tmp_path).returncode == 0
    proc = run(["bisheng", "-x", "asc", "main.cpp", "kern.o", "-o", "linked", ARCH, "-O2", "-lm"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["./linked"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "rc=0 h63=7", proc.stdout + proc.stderr
    # -lib: a static library of the kernel objects, linked like any archive
    proc = run(["bisheng", "-lib", "kern.asc", "-o", "libkstatic.a", ARCH], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["bisheng", "-x", "asc", "main.cpp", "-L.", "-lkstatic", "-o", "vialib", ARCH], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["./vialib"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "rc=0 h63=7", proc.stdout + proc.stderr
    proc = run(["bisheng", "-shared", "-fPIC", "kern.asc", "-o", "libkern.so", ARCH], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(
        ["bisheng", "-x", "asc", "main.cpp", "-L.", "-lkern", "-Wl,-rpath,$ORIGIN", "-o", "viaso", ARCH], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    proc = run(["./viaso"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "rc=0 h63=7", proc.stdout + proc.stderr


def test_relocatable_device_code_links_across_objects(tmp_path):
    # -dc: a kernel calls an __aicore__ function defined in another object; the link does the
    # device link. A -dc object holds no finished device binary; the device link refuses an
    # undefined device function and objects for two arches, each in one line.
    (tmp_path / "kern.asc").write_text(
        '#include "kernel_operator.h"\n__aicore__ int32_t Offset(int32_t block);\n'
        'extern "C" __global__ __aicore__ void fill_rdc(GM_ADDR p) {\n'
        "  AscendC::GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t*)p, 8);\n"
        "  g.SetValue(AscendC::GetBlockIdx(), Offset(AscendC::GetBlockIdx()));\n}\n"
    )
    (tmp_path / "helper.asc").write_text(
        '#include "kernel_operator.h"\n__aicore__ int32_t Offset(int32_t block) { return block * 3 + 1; }\n'
    )
    (tmp_path / "main.cpp").write_text(
        '#include <cstdio>\n#include "acl/acl.h"\n#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void fill_rdc(GM_ADDR p);\n'
        "int main() {\n  aclInit(nullptr); aclrtSetDevice(0);"
        " void* d; aclrtMalloc(&d, 32, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  fill_rdc<<<8, nullptr, nullptr>>>((GM_ADDR)d);\n  int rc = aclrtSynchronizeDevice();\n"
        "  int h[8]; aclrtMemcpy(h, 32, d, 32, ACL_MEMCPY_DEVICE_TO_HOST);\n"
        '  std::printf("rc=%d h=%d,%d\\n", rc, h[0], h[7]);\n  return rc;\n}\n'
    )
    for name in ("kern", "helper"):
        proc = run(["bisheng", "-dc", f"{name}.asc", "-o", f"{name}.o", ARCH], tmp_path)
        assert proc.returncode == 0, proc.stderr
    section = subprocess.run(
        ["llvm-objcopy", "-O", "binary", "--only-section=.aicore_binary", "kern.o", "none.bin"],
        cwd=str(tmp_path),
        env=env(),
        capture_output=True,
    )
    assert section.returncode == 0 and (tmp_path / "none.bin").stat().st_size == 0
    proc = run(["bisheng", "-x", "asc", "main.cpp", "kern.o", "helper.o", "-o", "prog", ARCH], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["./prog"], tmp_path, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "rc=0 h=1,22", proc.stdout + proc.stderr
    proc = run(["bisheng", "-x", "asc", "main.cpp", "kern.o", "-o", "missing", ARCH], tmp_path)
    assert proc.returncode != 0 and "undefined symbol: Offset(int)" in proc.stderr
    assert (
        proc.stderr.strip().splitlines()[-1] == "bisheng: error: linking the device binary for the -dc objects failed"
    )
    proc = run(["bisheng", "-dc", "helper.asc", "-o", "helper310.o", "--npu-arch=dav-2002"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(["bisheng", "main.cpp", "kern.o", "helper310.o", "-o", "mixed", ARCH], tmp_path)
    assert proc.returncode != 0
    assert "-dc objects for different NPU architectures cannot be linked together" in proc.stderr


def test_a_trap_is_reported_by_the_synchronize(tmp_path):
    (tmp_path / "trap.asc").write_text(
        '#include <cstdio>\n#include "acl/acl.h"\n#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void overrun(GM_ADDR p) {\n'
        "  AscendC::GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float*)p, 1 << 20);\n"
        "  g.SetValue(1 << 19, 1.0f);\n}\n"
        "int main() {\n  aclInit(nullptr); aclrtSetDevice(0);"
        " void* d; aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  overrun<<<2, nullptr, nullptr>>>((GM_ADDR)d);\n  int rc = aclrtSynchronizeDevice();\n"
        '  std::printf("rc=%d %s\\n", rc, aclGetRecentErrMsg());\n  return 0;\n}\n'
    )
    assert run(["bisheng", "trap.asc", "-o", "trap", ARCH], tmp_path).returncode == 0
    proc = run(["./trap"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("rc=507015 "), proc.stdout + proc.stderr
    assert "kernel overrun block 0" in proc.stdout and "outside every device allocation" in proc.stdout


@pytest.mark.parametrize("case", ["compile", "arch", "link"])
def test_bad_inputs_give_one_clear_line(tmp_path, case):
    good = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR p) {}\n'
    if case == "compile":
        (tmp_path / "bad.asc").write_text(good + "int main() { k<<<1, nullptr, nullptr>>>(nullptr); return nope; }\n")
        args, first = ["bad.asc", ARCH], "bad.asc:3:"
    elif case == "arch":
        (tmp_path / "bad.asc").write_text(good + "int main() { return 0; }\n")
        args, first = ["bad.asc", "--npu-arch=dav-9999"], "bisheng: error: unsupported NPU architecture 'dav-9999'"
    else:
        (tmp_path / "bad.asc").write_text(good + "void missing();\nint main() { missing(); return 0; }\n")
        args, first = ["bad.asc", ARCH], "bisheng: error: linking 'prog' failed: undefined symbol: missing()"
    proc = run(["bisheng", "-x", "asc", *args, "-o", "prog"], tmp_path)
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert lines[0].startswith(first), proc.stderr
    assert sum(1 for line in lines if line.startswith("bisheng: error:")) == 1, proc.stderr
    assert not (tmp_path / "prog").exists()


def test_a_launch_that_cannot_start_fails_the_streams_synchronize(tmp_path):
    """A kernel whose image the device refuses (built for another NpuArch than the device's) cannot
    start; `<<<>>>` cannot return that, so the stream's synchronize must, once."""
    (tmp_path / "other_arch.asc").write_text(
        '#include <cstdio>\n#include "acl/acl.h"\n#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR p) { *(__gm__ int*)p = 7; }\n'
        "int main() {\n"
        "  aclInit(nullptr); aclrtSetDevice(0); aclrtStream s; aclrtCreateStream(&s);\n"
        "  void* p = nullptr; aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  k<<<1, nullptr, s>>>((GM_ADDR)p);\n"
        "  const aclError first = aclrtSynchronizeStream(s), second = aclrtSynchronizeStream(s);\n"
        '  std::printf("sync=%d then=%d\\n", (int)first, (int)second);\n'
        "  return first == ACL_SUCCESS ? 0 : 3;\n"
        "}\n"
    )
    proc = run(["bisheng", "-x", "asc", "other_arch.asc", "--npu-arch=dav-2002", "-o", "prog"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    logs = tmp_path / "logs"
    proc = run([str(tmp_path / "prog")], tmp_path, extra_env={"ASCEND_PROCESS_LOG_PATH": str(logs)})
    print(proc.stdout, proc.stderr)
    assert proc.returncode == 3
    # The cause is in CANN's log file (twin/common/log), as on the NPU.
    plog = "".join(p.read_text() for p in (logs / "debug" / "plog").glob("plog-*.log"))
    assert "built for NpuArch 2002" in plog, plog
    first, then = proc.stdout.split()[0], proc.stdout.split()[1]
    assert first != "sync=0" and then == "then=0"  # reported once, then the stream is usable


def test_a_kernel_using_a_dynamically_initialised_global_is_refused_by_bisheng(tmp_path):
    """Such a global would make the image run code when loaded; bisheng keeps host initialisers
    out of the device binary and refuses device code that uses their variables."""
    (tmp_path / "ctor.asc").write_text(
        '#include <cstdlib>\n#include "kernel_operator.h"\n'
        "static int g_seed = std::rand();\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR p) { *(__gm__ int*)p = g_seed; }\n'
    )
    proc = run(["bisheng", "-c", "ctor.asc", ARCH, "-o", "ctor.o"], tmp_path)
    assert proc.returncode != 0
    assert "uses host variable 'g_seed', which has a dynamic initializer" in proc.stderr
    assert not (tmp_path / "ctor.o").exists()


def test_kernels_may_use_the_cpp_standard_library(tmp_path):
    """<algorithm>/<complex> in a .asc parse in bisheng's host pass (clang's CUDA mode would
    otherwise substitute its CUDA wrappers of them) and work in the kernel."""
    (tmp_path / "stl.asc").write_text(
        '#include <algorithm>\n#include <complex>\n#include <cstdio>\n#include "acl/acl.h"\n'
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR p) {\n'
        "  int v[3] = {3, 1, 2}; std::sort(v, v + 3);\n"
        "  *(__gm__ int*)p = std::max(v[0], v[2]) + (int)std::abs(std::complex<float>(3, 4));\n"
        "}\n"
        "int main() {\n"
        "  aclInit(nullptr); aclrtSetDevice(0); aclrtStream s; aclrtCreateStream(&s);\n"
        "  void* p = nullptr; aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "  k<<<1, nullptr, s>>>((GM_ADDR)p);\n"
        "  int out = 0; const int sync = aclrtSynchronizeStream(s);\n"
        "  aclrtMemcpy(&out, 4, p, 4, ACL_MEMCPY_DEVICE_TO_HOST);\n"
        '  std::printf("sync=%d out=%d\\n", sync, out); return sync;\n'
        "}\n"
    )
    proc = run(["bisheng", "-x", "asc", "stl.asc", ARCH, "-o", "prog"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run([str(tmp_path / "prog")], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "sync=0 out=8"
