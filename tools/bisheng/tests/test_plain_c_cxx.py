"""bisheng as a project's C and C++ compiler (CMAKE_C_COMPILER=bisheng, CMAKE_CXX_COMPILER=bisheng,
as cann-samples' top-level CMake sets it): `.c` files compile as C, C++ files without --npu-arch
as plain C++, they link, and CMake's compiler identification and ABI detection pass."""

import os
import random
import shutil
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import DRIVER, TESTDATA, clean_env, run_bisheng

PROJECT = os.path.join(TESTDATA, "plain_c_cxx")


def random_text(seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randint(5, 60)))


def test_cmake_project_with_bisheng_as_c_and_cxx_compiler(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    env = clean_env()
    env["PATH"] = os.path.dirname(DRIVER) + os.pathsep + env["PATH"]
    build = project / "build"
    build.mkdir()
    configure = subprocess.run(
        ["cmake", "-DCMAKE_C_COMPILER=bisheng", "-DCMAKE_CXX_COMPILER=bisheng", ".."],
        cwd=build,
        env=env,
        capture_output=True,
        text=True,
    )
    print(configure.stdout, configure.stderr)
    assert configure.returncode == 0, configure.stderr
    for lang in ("C", "CXX"):
        assert f"The {lang} compiler identification is Clang 16" in configure.stdout
        assert f"Detecting {lang} compiler ABI info - done" in configure.stdout
        assert f"Detecting {lang} compile features - done" in configure.stdout
    compiler_file = (
        build
        / "CMakeFiles"
        / next(p.name for p in (build / "CMakeFiles").iterdir() if p.name[0].isdigit())
        / "CMakeCCompiler.cmake"
    )
    assert 'CMAKE_C_SIZEOF_DATA_PTR "8"' in compiler_file.read_text()
    assert "gcc_s" in compiler_file.read_text()  # the implicit link libraries, read from clang's -v
    make = subprocess.run(["make"], cwd=build, env=env, capture_output=True, text=True)
    assert make.returncode == 0, make.stdout + make.stderr
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    text = random_text(seed)
    run = subprocess.run([str(build / "checksum_demo"), text], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"checksum({text}) = {zlib.adler32(text.encode())}\n"


def test_c_file_compiles_as_c_with_a_c_standard(tmp_path):
    shutil.copy(os.path.join(PROJECT, "src", "checksum.c"), tmp_path)
    shutil.copy(os.path.join(PROJECT, "src", "checksum.h"), tmp_path)
    proc = run_bisheng(["-std=gnu11", "-MD", "-MF", "c.d", "-c", "checksum.c", "-o", "checksum.o"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "checksum.o").stat().st_size > 0
    assert "checksum.h" in (tmp_path / "c.d").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.d", "checksum.c", "checksum.h", "checksum.o"]


def test_plain_cxx_program_links_without_npu_arch(tmp_path):
    for name in ("main.cpp", "checksum.c", "checksum.h"):
        shutil.copy(os.path.join(PROJECT, "src", name), tmp_path)
    proc = run_bisheng(["main.cpp", "checksum.c", "-o", "demo"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    run = subprocess.run([str(tmp_path / "demo"), "npu"], capture_output=True, text=True)
    assert run.stdout == f"checksum(npu) = {zlib.adler32(b'npu')}\n"


def test_c_compile_error_is_clangs_then_one_line_and_no_output(tmp_path):
    (tmp_path / "bad.c").write_text("int f(void) { return missing; }\n")
    proc = run_bisheng(["-c", "bad.c", "-o", "bad.o"], str(tmp_path))
    assert proc.returncode != 0
    assert "bad.c:1:22: error: use of undeclared identifier 'missing'" in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "bisheng: error: compilation of 'bad.c' failed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.c"]


def test_c_standard_with_a_cxx_source_is_refused(tmp_path):
    (tmp_path / "x.cpp").write_text("int main() { return 0; }\n")
    proc = run_bisheng(["-std=c11", "-c", "x.cpp", "-o", "x.o"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.strip() == "bisheng: error: invalid argument '-std=c11' not allowed with C++ source 'x.cpp'"
    assert not (tmp_path / "x.o").exists()


def test_ascend_c_source_still_needs_an_npu_arch(tmp_path):
    (tmp_path / "k.asc").write_text("int main() { return 0; }\n")
    proc = run_bisheng(["-c", "k.asc", "-o", "k.o"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.strip() == (
        "bisheng: error: no NPU architecture given for 'k.asc': pass --npu-arch=dav-XXXX (e.g. --npu-arch=dav-2201)"
    )


def test_plain_cxx_takes_any_cxx_standard_ascend_c_needs_17(tmp_path):
    (tmp_path / "x.cpp").write_text("#if __cplusplus != 201402L\n#error not C++14\n#endif\nint main() { return 0; }\n")
    proc = run_bisheng(["-std=gnu++14", "-c", "x.cpp", "-o", "x.o"], str(tmp_path))  # CMAKE_CXX_STANDARD 14
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "k.asc").write_text("int main() { return 0; }\n")
    proc = run_bisheng(["-std=gnu++14", "-c", "k.asc", "-o", "k.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.startswith("bisheng: error: unsupported language standard 'gnu++14'; Ascend C needs one of:")
