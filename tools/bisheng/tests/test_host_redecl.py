"""A host function declared before a file's first kernel and declared again after it compiles
(the host pass retries from a copy whose later declarations agree with the first), with the
user's own file name in diagnostics and the depfile; a clash inside a header stays clang's
error. Also the rewrite itself (host_redecl.rewrite) on the declarator forms it meets."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import copy_testdata, llvm_tool, run_bisheng

from bisheng_driver import host_redecl

SOURCES = ("host_redecl.asc", "host_redecl_helper.h")


def defined_symbols(obj: str) -> str:
    return subprocess.run(
        [llvm_tool("llvm-nm"), "-C", "--defined-only", obj], capture_output=True, text=True, check=True
    ).stdout


def test_functions_declared_on_both_sides_of_the_first_kernel_compile(tmp_path):
    copy_testdata(str(tmp_path), *SOURCES)
    proc = run_bisheng(
        ["-c", "host_redecl.asc", "-o", "r.o", "--npu-arch=dav-2201", "-MD", "-MF", "r.d"], str(tmp_path)
    )
    assert proc.returncode == 0, proc.stderr
    assert "cannot overload" not in proc.stderr, proc.stderr
    symbols = defined_symbols(str(tmp_path / "r.o"))
    for name in ("GenerateTiling(unsigned int, unsigned int*)", "host::Scale(int)", "HostResult()"):
        assert name in symbols, symbols
    deps = (tmp_path / "r.d").read_text()
    assert "host_redecl.asc" in deps and "host_redecl_helper.h" in deps, deps
    assert host_redecl.COPY_DIR not in deps, deps


def test_an_error_after_the_retry_names_the_users_file_and_line(tmp_path):
    copy_testdata(str(tmp_path), *SOURCES)
    text = (tmp_path / "host_redecl.asc").read_text().replace("  GenerateTiling(2, &v);", "  undefined_call();")
    (tmp_path / "host_redecl.asc").write_text(text)
    line = text.split("\n").index("  undefined_call();") + 1
    proc = run_bisheng(["-c", "host_redecl.asc", "-o", "r.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert f"host_redecl.asc:{line}:3: error: use of undeclared identifier 'undefined_call'" in proc.stderr, proc.stderr
    assert "cannot overload" not in proc.stderr and host_redecl.COPY_DIR not in proc.stderr, proc.stderr
    assert not (tmp_path / "r.o").exists()


def test_a_clash_inside_a_header_is_clangs_error(tmp_path):
    copy_testdata(str(tmp_path), "host_redecl_in_header.asc", "host_redecl_in_header.h")
    proc = run_bisheng(["-c", "host_redecl_in_header.asc", "-o", "r.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert "host_redecl_in_header.h:3:6: error: __host__ function 'GenerateTiling' cannot overload" in proc.stderr, (
        proc.stderr
    )
    assert not (tmp_path / "r.o").exists()


def test_rewrite_puts_the_attribute_before_the_declarator_and_its_qualifiers():
    text = "extern void Gen(int);\nint ns::Outer<T>::Scale(int x) {\nvoid Twice(int);"
    got = host_redecl.rewrite(text, [(1, 13), (2, 19), (3, 6)])
    assert got == (
        "extern void __attribute__((host, device)) Gen(int);\n"
        "int __attribute__((host, device)) ns::Outer<T>::Scale(int x) {\n"
        "void __attribute__((host, device)) Twice(int);"
    )


def test_rewrite_refuses_a_position_that_is_not_a_name():
    assert host_redecl.rewrite("void f(int);", [(1, 5)]) is None  # the blank before `f`
    assert host_redecl.rewrite("void f(int);", [(2, 1)]) is None  # no such line


def test_clashes_keep_only_the_source_itself(tmp_path):
    source = str(tmp_path / "a.asc")
    stderr = (
        f"{source}:7:13: error: __host__ function 'G' cannot overload __host__ __device__ function 'G'\n"
        f"{tmp_path}/b.h:3:6: error: __host__ function 'H' cannot overload __host__ __device__ function 'H'\n"
        f"{source}:9:1: error: something else\n"
    )
    assert host_redecl.clashes(stderr, source) == [(7, 13)]
