"""bisheng command line: outputs, ABI of the device binary, errors, determinism."""

import os
import random
import struct
import subprocess
import sys

import numpy as np
import pytest

# Helpers live beside the tests (Bazel imports this file as a package module).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import DeviceBinary, clean_env, copy_testdata, llvm_tool, run_bisheng
from device_meta import elf_of, meta_lines

from bisheng_driver.elf_file import EM_X86_64, ET_DYN, ET_REL, SHF_ALLOC, SHF_EXECINSTR, SHF_WRITE

KERNEL_FILES = ("add_custom.asc", "add_tiling.h")
ABI_SYMBOLS = {
    "__asc_twin_info_add_custom",
    "__asc_twin_entry_add_custom",
    "__asc_twin_info_scale_shift",
    "__asc_twin_entry_scale_shift",
}


def compile_add(tmp_path, *extra, out="add_custom.host.o"):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", out, "--npu-arch=dav-2201", *extra], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    return tmp_path / out


def extract(host_object, tmp_path) -> bytes:
    out = tmp_path / "k.aicore.o"
    subprocess.run(
        [llvm_tool("llvm-objcopy"), "-O", "binary", "--only-section=.aicore_binary", str(host_object), str(out)],
        check=True,
    )
    return out.read_bytes()


def leftovers(directory) -> list:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def test_objcopy_extracts_exactly_the_embedded_device_binary(tmp_path):
    host = compile_add(tmp_path)
    host_elf = elf_of(host.read_bytes())
    assert (host_elf.e_type, host_elf.e_machine) == (ET_REL, EM_X86_64)
    section = host_elf.section(".aicore_binary")
    assert section.flags & SHF_ALLOC and not section.flags & (SHF_WRITE | SHF_EXECINSTR)
    extracted = extract(host, tmp_path)
    assert extracted == host_elf.section_bytes(".aicore_binary")
    device = elf_of(extracted)
    assert (device.e_type, device.e_machine) == (ET_DYN, EM_X86_64)
    assert leftovers(tmp_path) == []


def test_device_binary_has_meta_and_exports_only_the_abi_symbols(tmp_path):
    device = extract(compile_add(tmp_path), tmp_path)
    assert meta_lines(device) == [
        "abi=3",
        "npu_arch=2201",
        "npu_arch_flag=dav-2201",
        "kernel=add_custom",
        "kernel=scale_shift",
    ]
    assert elf_of(device).exported_symbols() == ABI_SYMBOLS
    readelf = subprocess.run(
        [llvm_tool("llvm-readelf"), "--dyn-syms", "-S", "-"], input=device, capture_output=True, check=True
    ).stdout.decode()
    assert ".ascend.meta" in readelf and "__asc_twin_entry_add_custom" in readelf


def test_entries_run_the_kernels_like_the_runtime(tmp_path):
    seed = random.randrange(1 << 30)
    print(f"seed={seed}")
    rng = np.random.default_rng(seed)
    device = DeviceBinary(extract(compile_add(tmp_path), tmp_path), str(tmp_path), 2201)

    n, blocks = int(rng.integers(500, 3000)), 4
    block_length = -(-n // blocks)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    z = np.full(n, np.nan, dtype=np.float32)
    device.ranges = [(a.ctypes.data, a.nbytes) for a in (x, y, z)]
    info = device.info("add_custom")
    assert (info.abi_version, info.params, info.args_size) == (3, 4, 32)
    args = struct.pack("<QQQII", x.ctypes.data, y.ctypes.data, z.ctypes.data, n, block_length)
    device.run("add_custom", args, blocks)
    np.testing.assert_array_equal(z, x + y)

    a, b = np.float32(rng.uniform(-4, 4)), int(rng.integers(-100, 100))
    v = rng.standard_normal(n).astype(np.float32)
    expected = v * a + np.float32(b)
    info = device.info("scale_shift")
    assert (info.params, info.args_size) == (4, 32)
    # each parameter in its own 8-byte slot: pointer, float, int32, uint32
    args = struct.pack("<Qf4xi4xI4x", v.ctypes.data, a, b, n)
    device.ranges = [(v.ctypes.data, v.nbytes)]
    device.run("scale_shift", args, 1)
    np.testing.assert_array_equal(v, expected)


@pytest.mark.parametrize("debug", [[], ["-g"]], ids=["O2", "O2-g"])
def test_output_is_identical_across_build_directories(tmp_path, debug):
    first = compile_add(tmp_path / "one" / "work", *debug).read_bytes()
    second = compile_add(tmp_path / "elsewhere" / "deeper" / "work", *debug).read_bytes()
    assert first == second
    assert b"/one/work" not in first and b".bisheng-" not in extract(
        tmp_path / "one" / "work" / "add_custom.host.o", tmp_path
    )


@pytest.mark.parametrize(
    "arch_flag, number, cce",
    [
        ("--npu-arch=dav-2201", 2201, 220),
        ("--npu-arch=dav-2002", 2002, 200),
        ("--npu-arch=dav-3002", 3002, 300),
        ("--npu-arch=dav-3510", 3510, 310),
        ("--cce-aicore-arch=dav-c220-vec", 2201, 220),
        ("--cce-aicore-arch=dav-m200-vec", 2002, 200),
    ],
)
def test_arch_flags_set_macros_and_meta(tmp_path, arch_flag, number, cce):
    copy_testdata(str(tmp_path), "arch_probe.asc")
    proc = run_bisheng(
        ["-c", "arch_probe.asc", "-o", "p.o", arch_flag, f"-DEXPECT_NPU_ARCH={number}", f"-DEXPECT_CCE_AICORE={cce}"],
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    meta = meta_lines(extract(tmp_path / "p.o", tmp_path))
    assert meta[1:3] == [f"npu_arch={number}", f"npu_arch_flag=dav-{number}"]


def test_macros_follow_the_arch_so_a_wrong_expectation_fails(tmp_path):
    copy_testdata(str(tmp_path), "arch_probe.asc")
    proc = run_bisheng(
        [
            "-c",
            "arch_probe.asc",
            "-o",
            "p.o",
            "--npu-arch=dav-2002",
            "-DEXPECT_NPU_ARCH=2201",
            "-DEXPECT_CCE_AICORE=220",
        ],
        str(tmp_path),
    )
    assert proc.returncode != 0
    assert "arch_probe.asc:7:" in proc.stderr and "__NPU_ARCH__ mismatch" in proc.stderr
    assert not (tmp_path / "p.o").exists()


def test_unknown_arch_is_named_with_the_known_ones(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    for flag, name in (("--npu-arch=dav-9999", "dav-9999"), ("--cce-aicore-arch=dav-c999-vec", "dav-c999-vec")):
        proc = run_bisheng(["-c", "add_custom.asc", "-o", "x.o", flag], str(tmp_path))
        assert proc.returncode != 0
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("bisheng: error: ")
        assert name in lines[0] and "dav-2201" in lines[0] and "dav-3510" in lines[0]
        assert not (tmp_path / "x.o").exists()


def test_missing_arch_and_missing_source(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "x.o"], str(tmp_path))
    assert proc.returncode != 0 and "--npu-arch" in proc.stderr
    proc = run_bisheng(["-c", "nope.asc", "-o", "x.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.strip() == "bisheng: error: no such file: 'nope.asc'"
    assert not (tmp_path / "x.o").exists()


def test_syntax_error_reports_the_users_file_and_line(tmp_path):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "broken.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void broken(GM_ADDR x)\n'
        "{\n"
        "    int v = undeclared_value;\n"
        "}\n"
    )
    (tmp_path / "broken.o").write_bytes(b"previous build")
    proc = run_bisheng(["-c", "kernels/broken.asc", "-o", "broken.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert "kernels/broken.asc:4:13: error: use of undeclared identifier 'undeclared_value'" in proc.stderr
    assert "entries" not in proc.stderr and "/tmp" not in proc.stderr.replace(str(tmp_path), "")
    assert proc.stderr.strip().splitlines()[-1] == "bisheng: error: compilation of 'kernels/broken.asc' failed"
    assert (tmp_path / "broken.o").read_bytes() == b"previous build"  # untouched
    assert leftovers(tmp_path) == []


def test_warnings_as_errors_point_at_the_user_code(tmp_path):
    (tmp_path / "warn.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void warn(GM_ADDR x)\n'
        "{\n"
        "    int unused_local = 3;\n"
        "}\n"
    )
    proc = run_bisheng(["-c", "warn.asc", "-o", "w.o", "--npu-arch=dav-2201", "-Wall", "-Werror"], str(tmp_path))
    assert proc.returncode != 0 and "warn.asc:4:9: error: unused variable 'unused_local'" in proc.stderr
    proc = run_bisheng(["-c", "warn.asc", "-o", "w.o", "--npu-arch=dav-2201", "-Wall"], str(tmp_path))
    assert proc.returncode == 0 and proc.stderr.count("unused variable") == 1


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "struct S {\n  __global__ __aicore__ void mk(GM_ADDR x) {}\n};\n",
            "bad.asc:3:3: error: kernel function 'mk' must be a free function or static member function",
        ),
        ("__global__ __aicore__ int rk(GM_ADDR x) { return 0; }\n", "bad.asc:2:23: error: kernel function type"),
        (
            'extern "C" __global__ __aicore__ void k(GM_ADDR x) { undefined_name(x); }\n',
            "bad.asc:2:54: error: use of undeclared identifier 'undefined_name'",
        ),
    ],
)
def test_invalid_kernels_get_clangs_own_errors(tmp_path, body, message):
    (tmp_path / "bad.asc").write_text('#include "kernel_operator.h"\n' + body)
    proc = run_bisheng(["-c", "bad.asc", "-o", "bad.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.startswith(message), proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "bisheng: error: compilation of 'bad.asc' failed"
    assert not (tmp_path / "bad.o").exists() and leftovers(tmp_path) == []


def test_reference_parameters_are_refused_by_the_entry_shim(tmp_path):
    (tmp_path / "bad.asc").write_text(
        '#include "kernel_operator.h"\n__global__ __aicore__ void rf(GM_ADDR x, const uint32_t& n) {}\n'
    )
    proc = run_bisheng(["-c", "bad.asc", "-o", "bad.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0 and "kernel parameters cannot be references" in proc.stderr
    assert ".bisheng-" not in proc.stderr and not (tmp_path / "bad.o").exists()


def test_templates_namespaces_and_overloads_become_entries(tmp_path):
    (tmp_path / "k.asc").write_text(
        '#include "kernel_operator.h"\n'
        "template <typename T> __global__ __aicore__ void tk(GM_ADDR x) {}\n"
        "namespace ops { __global__ __aicore__ void nk(GM_ADDR x) {} }\n"
        "__global__ __aicore__ void ok(GM_ADDR x) {}\n"
        "__global__ __aicore__ void ok(GM_ADDR x, int n) {}\n"
        'extern "C" __global__ __aicore__ void plain(GM_ADDR x) {}\n'
        "void (*taken)(GM_ADDR) = &tk<int>;\nvoid host_uses() { tk<float><<<1, nullptr, nullptr>>>(nullptr); }\n"
    )
    proc = run_bisheng(["-c", "k.asc", "-o", "k.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    device = extract(tmp_path / "k.o", tmp_path)
    assert meta_lines(device)[3:] == [
        "kernel=_ZN3ops2nkEPh",
        "kernel=_Z2okPh",
        "kernel=_Z2okPhi",
        "kernel=plain",
        "kernel=_Z2tkIiEvPh",
        "kernel=_Z2tkIfEvPh",
    ]
    assert "__asc_twin_entry__Z2tkIfEvPh" in elf_of(device).exported_symbols()


def test_a_file_without_kernels_is_host_code(tmp_path):
    (tmp_path / "h.asc").write_text(
        '#include "kernel_operator.h"\n__aicore__ inline int helper() { return 1; }\nint host() { return helper(); }\n'
    )
    proc = run_bisheng(["-c", "h.asc", "-o", "h.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    elf = elf_of((tmp_path / "h.o").read_bytes())
    with pytest.raises(KeyError):
        elf.section(".aicore_binary")


def test_errors_in_headers_name_the_header(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "hk.h").write_text(
        '#pragma once\n#include "kernel_operator.h"\n\n'
        "template <int N>\n__global__ __aicore__ int hk(GM_ADDR x) { return N; }\n"
    )
    (tmp_path / "h.asc").write_text('#include "inc/hk.h"\nextern "C" __global__ __aicore__ void fine(GM_ADDR x) {}\n')
    proc = run_bisheng(["-c", "h.asc", "-o", "h.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert "inc/hk.h:5:" in proc.stderr and "must have void return type" in proc.stderr


def test_host_launch_compiles_and_registers_the_kernel(tmp_path):
    (tmp_path / "main.asc").write_text(
        '#include "kernel_operator.h"\n'
        "// add_custom<<<1, nullptr, nullptr>>>() in a comment is fine\n"
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n'
        "int main() {\n"
        '    const char* s = "<<<";\n'
        "    add_custom<<<8, nullptr, nullptr>>>(nullptr);\n"
        "}\n"
    )
    proc = run_bisheng(["-c", "main.asc", "-o", "m.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    nm = subprocess.run([llvm_tool("llvm-nm"), str(tmp_path / "m.o")], capture_output=True, text=True).stdout
    assert "__device_stub__add_custom" in nm and "__asc_twin_register_binary" in nm and " T main" in nm
    assert meta_lines(extract(tmp_path / "m.o", tmp_path))[3:] == ["kernel=add_custom"]


def test_errors_are_not_masked_by_a_launch(tmp_path):
    (tmp_path / "legacy.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x) {}\n'
        "#ifdef HOST_SIDE\n"
        "void add_custom_do(uint32_t n, void* s, uint8_t* x) { add_custom<<<n, nullptr, s>>>(x); }\n"
        "#endif\n"
        "int broken() { return missing_fn(); }\n"
    )
    proc = run_bisheng(["-c", "legacy.asc", "-o", "l.o", "--npu-arch=dav-2201", "-DHOST_SIDE"], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.startswith("legacy.asc:6:23: error: use of undeclared identifier 'missing_fn'"), proc.stderr
    assert "<<<" not in proc.stderr.splitlines()[-1]


def test_entry_shim_diagnostics_hide_the_generated_file(tmp_path):
    # A struct that is not trivially copyable cannot be read from the argument blob: the
    # entry shim (compiled in the second pass) rejects it; no temporary path may leak.
    (tmp_path / "ref.asc").write_text(
        '#include "kernel_operator.h"\n'
        "struct Owning { Owning(const Owning&); int* p; };\n"
        'extern "C" __global__ __aicore__ void by_ref(GM_ADDR x, Owning o) {}\n'
    )
    proc = run_bisheng(["-c", "ref.asc", "-o", "r.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    assert "<bisheng: generated kernel entries>" in proc.stderr
    assert ".bisheng-" not in proc.stderr and "entries.cpp" not in proc.stderr
    assert (
        proc.stderr.strip().splitlines()[-1] == "bisheng: error: compilation of the kernel entries for 'ref.asc' failed"
    )
    assert not (tmp_path / "r.o").exists() and leftovers(tmp_path) == []


def test_kernels_declared_before_their_definition_static_and_anonymous(tmp_path):
    # A prototype, a second declaration, then the definition (host code between launches
    # them); a `static` kernel and one in an anonymous namespace launched from the same file;
    # an __aicore__ helper defined after the kernels.
    (tmp_path / "decl.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR x);\n'
        'extern "C" __global__ __aicore__ void k(GM_ADDR x);\n'
        "static __global__ __aicore__ void sk(GM_ADDR x);\n"
        "namespace ops { namespace { __global__ __aicore__ void ak(GM_ADDR x); } }\n"
        "__aicore__ inline uint8_t Later(uint8_t v);\n"
        "void host(uint8_t* p) { k<<<1, nullptr, nullptr>>>(p); sk<<<1, 0, nullptr>>>(p);"
        " ops::ak<<<1, 0, nullptr>>>(p); }\n"
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) { *x = Later(1); }\n'
        "static __global__ __aicore__ void sk(GM_ADDR x) { *x = Later(*x); }\n"
        "namespace ops { namespace { __global__ __aicore__ void ak(GM_ADDR x) { *x += 1; } } }\n"
        "__aicore__ inline uint8_t Later(uint8_t v) { return v * 3; }\n"
    )
    proc = run_bisheng(["-c", "decl.asc", "-o", "d.o", "-x", "asc", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    device = extract(tmp_path / "d.o", tmp_path)
    ak = "_ZN3ops12_GLOBAL__N_102akEPh"  # in a namespace: the mangled name, as for every such kernel
    assert sorted(meta_lines(device)[3:]) == [f"kernel={ak}", "kernel=k", "kernel=sk"]
    symbols = subprocess.run(
        [llvm_tool("llvm-nm"), "--defined-only", str(tmp_path / "d.o")], capture_output=True, text=True
    ).stdout
    # the local stubs are exported under names unique to this device binary, for the registration
    exported = [line.split()[-1] for line in symbols.splitlines() if " T " in line and ".asc_twin." in line]
    assert len(exported) == 2 and all("__device_stub__" in name for name in exported)
    binary = DeviceBinary(device, str(tmp_path), 2201)
    out = np.zeros(8, dtype=np.uint8)
    binary.ranges = [(out.ctypes.data, out.nbytes)]
    for name, want in (("k", 3), ("sk", 9), (ak, 10)):
        binary.run(name, struct.pack("<Q", out.ctypes.data), 1)
        assert out[0] == want


def test_a_kernel_without_aicore_before_one_with_it(tmp_path):
    """asc-devkit's cross_core_set_wait_flag: `__global__ __mix__(1, 2) void k1(...)` (no
    `__aicore__`), then `__global__ __mix__(1, 2) __aicore__ void k2(...)`; the host pass gave
    k2 `host` and `device` beside `global`. Both kernels, a `__vector__` one after them and an
    `__aicore__` helper called from a later kernel must build and run."""
    (tmp_path / "mix.asc").write_text(
        '#include "kernel_operator.h"\n'
        "__aicore__ inline uint8_t Twice(uint8_t v) { return v * 2; }\n"
        "__global__ __mix__(1, 2) void k1(GM_ADDR x) { x[0] = Twice(x[0]); }\n"
        "__global__ __mix__(1, 2) __aicore__ void k2(GM_ADDR x) { x[1] = Twice(x[1]) + 1; }\n"
        "__global__ __vector__ void k3(GM_ADDR x);\n"
        "__global__ __vector__ void k3(GM_ADDR x) { x[2] = 7; }\n"
        'extern "C" __global__ __aicore__ void k4(GM_ADDR x);\n'
        "__aicore__ inline uint8_t Thrice(uint8_t v) { return v * 3; }\n"
        'extern "C" __global__ __aicore__ void k4(GM_ADDR x) { x[3] = Thrice(x[3]); }\n'
        "void host(uint8_t* p) { k1<<<1, 0, nullptr>>>(p); k2<<<1, 0, nullptr>>>(p); k3<<<1, 0, nullptr>>>(p);"
        " k4<<<1, 0, nullptr>>>(p); }\n"
    )
    proc = run_bisheng(["-c", "mix.asc", "-o", "m.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    device = extract(tmp_path / "m.o", tmp_path)
    names = {line.split("=", 1)[1] for line in meta_lines(device)[3:]}
    assert names == {"k1", "k2", "k3", "k4"}
    binary = DeviceBinary(device, str(tmp_path), 2201)
    out = np.array([5, 6, 0, 4, 0, 0, 0, 0], dtype=np.uint8)
    binary.ranges = [(out.ctypes.data, out.nbytes)]
    for name in names:
        binary.run(name, struct.pack("<Q", out.ctypes.data), 1)
    assert list(out[:4]) == [10, 13, 7, 12]


def test_a_kernel_templated_on_a_constexpr_byte_array(tmp_path):
    """asc-devkit's matmul_aot_compilation: `matmul_custom<AOTHolder<TCubeTiling, bytes>>`, a
    kernel whose template argument is a constexpr uint8_t array (decayed to a pointer) holding a
    tiling struct read with convert_from_bytes; llvm-cxxfilt spells the argument
    `&bytes.<unsigned char const at offset 0>`, which the generated entries must not repeat."""
    (tmp_path / "aot.asc").write_text(
        '#include "kernel_operator.h"\n'
        "struct Tiling { uint32_t scale; uint32_t shift; };\n"
        "static constexpr uint8_t kBytes[] = {3, 0, 0, 0, 5, 0, 0, 0};\n"
        "template <typename T, const uint8_t* P> struct Holder {"
        " static constexpr T value = convert_from_bytes<T>(P); };\n"
        "template <typename H> __global__ __aicore__ void aot_k(GM_ADDR x) {\n"
        "  x[0] = static_cast<uint8_t>(x[0] * H::value.scale + H::value.shift); }\n"
        "void host(uint8_t* p) { aot_k<Holder<Tiling, kBytes>><<<1, 0, nullptr>>>(p); }\n"
    )
    proc = run_bisheng(["-c", "aot.asc", "-o", "a.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    device = extract(tmp_path / "a.o", tmp_path)
    (name,) = [line.split("=", 1)[1] for line in meta_lines(device)[3:]]
    binary = DeviceBinary(device, str(tmp_path), 2201)
    out = np.array([7, 0, 0, 0, 0, 0, 0, 0], dtype=np.uint8)
    binary.ranges = [(out.ctypes.data, out.nbytes)]
    binary.run(name, struct.pack("<Q", out.ctypes.data), 1)
    assert out[0] == 7 * 3 + 5


def _pch_env(cache) -> dict:
    env = clean_env()
    env["BISHENG_PCH_CACHE"] = str(cache)
    env["BISHENG_DEVICE_CACHE"] = "off"  # every compile runs both passes (with the PCHs)
    return env


def test_the_pch_cache_never_changes_the_bytes(tmp_path):
    # An eligible source (only includes before kernel_operator.h): the first compile builds the
    # two PCHs, the second uses them, a third runs without the cache; all give the same object,
    # and the depfile names neither the prefix header nor the PCH.
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    cache = tmp_path / "pch"
    cache.mkdir(mode=0o700)
    outputs = []
    for name, env in (("cold", _pch_env(cache)), ("warm", _pch_env(cache)), ("off", _pch_env("off"))):
        proc = run_bisheng(
            ["-c", "add_custom.asc", "-o", f"{name}.o", "--npu-arch=dav-2201", "-MD", "-MF", f"{name}.d", "--time"],
            str(tmp_path),
            env,
        )
        assert proc.returncode == 0, proc.stderr
        assert ("PCH build (host)" in proc.stderr) == (name == "cold"), proc.stderr
        outputs.append((tmp_path / f"{name}.o").read_bytes())
        deps = (tmp_path / f"{name}.d").read_text()
        assert ".pch" not in deps and "bisheng_prefix" not in deps and str(cache) not in deps
        assert [w for w in deps.split() if w != "\\"][1] == "add_custom.asc"  # the source first, as clang
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(list(cache.glob("*.pch"))) == 2


def test_sources_that_set_macros_first_and_debug_builds_take_no_pch(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    text = (tmp_path / "add_custom.asc").read_text()
    (tmp_path / "macro_first.asc").write_text("#define _GLIBCXX_ASSERTIONS 1\n" + text)
    cache = tmp_path / "pch"
    cache.mkdir(mode=0o700)
    for args in (["macro_first.asc"], ["add_custom.asc", "-g"]):
        proc = run_bisheng(["-c", *args, "-o", "o.o", "--npu-arch=dav-2201"], str(tmp_path), _pch_env(cache))
        assert proc.returncode == 0, proc.stderr
    assert list(cache.glob("*.pch")) == []  # (tool_facts.json: the tool queries are remembered)
    cache.chmod(0o777)  # writable by others: not trusted, one note, compiled without it
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "o.o", "--npu-arch=dav-2201"], str(tmp_path), _pch_env(cache))
    assert proc.returncode == 0 and "is writable by group or others (mode 777); compiling without it" in proc.stderr
    assert list(cache.glob("*.pch")) == []


TRAILER_MAGIC = 0x315458454E495754  # ASC_TWIN_LAUNCH_TRAILER_MAGIC


def test_the_launch_trailer_sets_the_tiling_key_and_reserves_dynamic_ub(tmp_path):
    # aicore_abi.h: a launcher may append {magic, tiling key, dynamic UB bytes, 0} to the
    # arguments; TILING_KEY_VAR reads the key, static UB allocations see ub_size - dynamic.
    (tmp_path / "key.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void key_and_ub(GM_ADDR out, uint32_t bytes) {\n'
        "  *(__gm__ uint64_t*)out = TILING_KEY_VAR;\n"
        "  AscendC::TPipe pipe; AscendC::TBuf<AscendC::TPosition::VECCALC> b; pipe.InitBuffer(b, bytes);\n"
        "}\n"
    )
    proc = run_bisheng(["-c", "key.asc", "-o", "key.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    binary = DeviceBinary(extract(tmp_path / "key.o", tmp_path), str(tmp_path), 2201, ub_size=196608)
    out = np.zeros(1, dtype=np.uint64)
    binary.ranges = [(out.ctypes.data, out.nbytes)]
    rng = np.random.default_rng(random.randrange(1 << 30))
    key, dyn = int(rng.integers(1, 1 << 40)), 32 * int(rng.integers(1, 1024))
    args = struct.pack("<QI4x", out.ctypes.data, 196608 - dyn)
    binary.run("key_and_ub", args + struct.pack("<QQQQ", TRAILER_MAGIC, key, dyn, 0), 1)
    assert int(out[0]) == key
    binary.run("key_and_ub", args, 1)  # no trailer: key 0, the whole UB
    assert int(out[0]) == 0
    with pytest.raises(RuntimeError, match="exceeds|UB"):  # the reserved part is not for TPipe
        binary.run(
            "key_and_ub",
            struct.pack("<QI4x", out.ctypes.data, 196608 - dyn + 32) + struct.pack("<QQQQ", TRAILER_MAGIC, key, dyn, 0),
            1,
        )
    with pytest.raises(RuntimeError, match="dynamic UB of 196640 bytes exceeds the block's UB of 196608 bytes"):
        binary.run("key_and_ub", args + struct.pack("<QQQQ", TRAILER_MAGIC, key, 196640, 0), 1)
    with pytest.raises(RuntimeError, match="argument blob of 48 bytes"):  # a bad magic is no trailer
        binary.run("key_and_ub", args + struct.pack("<QQQQ", 1, key, 0, 0), 1)


def test_depfile_lists_the_users_headers(tmp_path):
    (tmp_path / "deps").mkdir()
    compile_add(tmp_path, "-MD", "-MF", "deps/add.d", out="add.o")
    text = (tmp_path / "deps" / "add.d").read_text()
    target, _, deps = text.replace("\\\n", " ").partition(":")
    assert target.strip() == "add.o"
    names = deps.split()
    assert names[0] == "add_custom.asc" and "add_tiling.h" in names
    assert any(n.endswith("kernel_operator.h") for n in names)
    assert any(n.endswith("asc_twin/kernel_entry.h") for n in names)
    assert not any(".bisheng-" in n or "entries.cpp" in n for n in names)


def test_response_file_and_cce_noop_flags(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    (tmp_path / "arch.params").write_text("--npu-arch=dav-3002\n-O3\n")
    proc = run_bisheng(
        ["@arch.params", "-c", "add_custom.asc", "-o", "r.o", "-std=c++17", "-fPIC", "--cce-auto-sync", "-Wall"],
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert meta_lines(extract(tmp_path / "r.o", tmp_path))[1] == "npu_arch=3002"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bogus-flag"], "unsupported option '--bogus-flag'"),
        (["-Wa,--foo"], "unsupported option '-Wa,--foo'"),
        (["-std=c++11"], "unsupported language standard 'c++11'"),
        (["-x", "cuda"], "unsupported language 'cuda'"),
        (["extra.asc"], "cannot write one output 'o.o' for more than one input file"),
        (["-MF"], "missing argument to '-MF'"),
        (["-lib"], "-lib cannot be combined with -c"),
        (["-dc", "--twin-aclrtlaunch-dir=inc"], "-dc objects have no finished device binary"),
    ],
)
def test_bad_options_fail_with_one_line(tmp_path, args, message):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "o.o", "--npu-arch=dav-2201", *args], str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.startswith("bisheng: error: ") and message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_performance_options_are_accepted_with_a_note(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(
        [
            "-c",
            "add_custom.asc",
            "-o",
            "o.o",
            "--npu-arch=dav-2201",
            "--cce-simd-vf-fusion",
            "-mllvm",
            "-cce-aicore-stack-size=0x8000",
            "--cce-auto-sync=on",
        ],
        str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "bisheng: note: option '--cce-simd-vf-fusion' has no effect on the CPU twin (ignored)",
        "bisheng: note: option '-mllvm -cce-aicore-stack-size=0x8000' has no effect on the CPU twin (ignored)",
    ]


def test_missing_tool_is_reported(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    env = clean_env()
    env["BISHENG_LLD"] = str(tmp_path / "no-such-lld")
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "o.o", "--npu-arch=dav-2201"], str(tmp_path), env)
    assert proc.returncode != 0
    assert proc.stderr.strip() == f"bisheng: error: BISHENG_LLD={tmp_path}/no-such-lld is not an executable file"


def test_missing_output_directory(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "no/dir/o.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0 and "does not exist" in proc.stderr


def test_unwritable_output_directory(tmp_path):
    # /proc refuses new files even to root, so this holds for every user.
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "/proc/o.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bisheng: error: cannot write '/proc/o.o': ")


def test_version_and_verbose(tmp_path):
    proc = run_bisheng(["--version"], str(tmp_path))
    assert proc.returncode == 0
    assert proc.stdout.startswith("bisheng (ascend-twin) based on clang 16.")
    compile_add(tmp_path)  # sanity: -v below uses the same inputs
    proc = run_bisheng(["-v", "-c", "add_custom.asc", "-o", "v.o", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0 and "-D__NPU_ARCH__=2201" in proc.stderr and "--cuda-host-only" in proc.stderr


def test_default_output_name(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    proc = run_bisheng(["-c", "add_custom.asc", "--npu-arch=dav-2201"], str(tmp_path))
    assert proc.returncode == 0 and (tmp_path / "add_custom.o").exists()


def test_ascend_home_path_without_headers_is_an_error(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    env = clean_env()
    env["ASCEND_HOME_PATH"] = str(tmp_path)
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "o.o", "--npu-arch=dav-2201"], str(tmp_path), env)
    assert proc.returncode != 0 and "ASCEND_HOME_PATH" in proc.stderr


def test_work_dirs_of_killed_compiles_are_swept(tmp_path):
    """A SIGKILLed compile cannot clean up; the next compile in that directory removes its work
    directory (its pid is gone, a minute old) and leaves live and fresh ones alone."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f".bisheng-{dead.pid}-killed"
    live = tmp_path / f".bisheng-{os.getpid()}-running"
    fresh = tmp_path / f".bisheng-{dead.pid}-justnow"
    for d in (stale, live, fresh):
        d.mkdir()
        (d / "device.so").write_bytes(b"x" * 1000)
    for d in (stale, live):
        os.utime(d, (1, 1))
    compile_add(tmp_path)
    assert leftovers(tmp_path) == sorted([live.name, fresh.name])


@pytest.mark.parametrize("flags, abi", [([], 0), (["-D_GLIBCXX_USE_CXX11_ABI=1"], 1)])
def test_host_code_gets_canns_libstdcxx_abi_unless_the_user_sets_it(tmp_path, flags, abi):
    # A CANN sample's host code (ge::Shape into libtiling_api.a, linked with graph_base) built
    # with bisheng's defaults must use the old ABI of CANN's libraries; a user's -D still wins.
    (tmp_path / "abi.asc").write_text(
        "#include <string>\n"
        '#include "kernel_operator.h"\n'
        "__global__ __aicore__ void k(GM_ADDR x) {}\n"
        f'static_assert(_GLIBCXX_USE_CXX11_ABI == {abi}, "host pass ABI");\n'
        "int main() { return 0; }\n"
    )
    proc = run_bisheng(["-c", "abi.asc", "-o", "abi.o", "--npu-arch=dav-2201", *flags], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
